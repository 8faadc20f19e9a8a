import Fluxion
import Testing

extension ActionName where Payload == Void {
    fileprivate static var nobodyHandles: Self { "hookSlotNobodyHandles" }
}

/// Each hook is one slot: a second assignment replaces the first, which hears nothing more (issue 25.9).
@Suite struct HookSlotTests {
    @Test func aSecondDeadLetterHookReplacesTheFirst() throws {
        let dispatcher = Dispatcher()
        let first = Recorder<String>()
        let second = Recorder<String>()
        dispatcher.onDeadLetter = { first.append($0.name) }
        try dispatcher.dispatch(.nobodyHandles)
        dispatcher.onDeadLetter = { second.append($0.name) }
        try dispatcher.dispatch(.nobodyHandles)

        #expect(first.values == ["hookSlotNobodyHandles"])
        #expect(second.values == ["hookSlotNobodyHandles"])
    }

    @Test func aSecondErrorHookReplacesTheFirst() {
        let dispatcher = Dispatcher()
        let first: @Sendable (PersistenceError) -> Void = { _ in }
        dispatcher.onPersistenceError = first
        dispatcher.onPersistenceError = nil
        #expect(dispatcher.onPersistenceError == nil)
        dispatcher.onQueuedError = { _, _ in }
        dispatcher.onQueuedError = nil
        #expect(dispatcher.onQueuedError == nil)
        dispatcher.onTaskError = { _ in }
        dispatcher.onTaskError = nil
        #expect(dispatcher.onTaskError == nil)
    }
}
