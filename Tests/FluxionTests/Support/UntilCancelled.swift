/// Waits until the calling task is cancelled, then throws `CancellationError`: the work of an effect
/// that never ends on its own (a poll, a socket reader), with no timer to wait out.
func waitUntilCancelled() async throws {
    let (wakeUps, wakeUp) = AsyncStream<Never>.makeStream()
    await withTaskCancellationHandler {
        for await _ in wakeUps {}
    } onCancel: {
        wakeUp.finish()
    }
    throw CancellationError()
}
