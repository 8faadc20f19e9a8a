import Testing

@testable import Fluxion

extension ActionName where Payload == Int {
    fileprivate static var sendAdd: Self { "sendAdd" }
}

extension ActionName where Payload == Void {
    fileprivate static var sendRefuse: Self { "sendRefuse" }
    fileprivate static var sendAddOne: Self { "sendAddOne" }
}

/// Adds what it is sent; refuses `sendRefuse`, and a negative amount.
final class SendStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .on(.sendAdd) { total, action in
                guard action.payload >= 0 else { throw TestError("negative \(action.payload)") }
                total += action.payload
            }
            .on(.sendAddOne) { total, _ in total += 1 }
            .on(.sendRefuse) { _, _ in throw TestError("refused") }
    }
}

/// Issue 45.4: `send` dispatches without throwing; what it meets goes to `onQueuedError`.
@Suite struct DispatcherSendTests {
    private func makeDispatcher() throws -> (Dispatcher, SendStore, Recorder<String>) {
        let dispatcher = Dispatcher()
        try dispatcher.register(SendStore.self)
        let errors = Recorder<String>()
        dispatcher.onQueuedError = { action, error in errors.append("\(action): \(error)") }
        return (dispatcher, try dispatcher.store(SendStore.self), errors)
    }

    @Test func fromAnObserverASentActionIsQueuedAndRunsBeforeTheDispatchReturns() throws {
        let (dispatcher, store, errors) = try makeDispatcher()
        let seen = Recorder<Int>()
        let token = store.observe { change in
            seen.append(change.newState)
            if change.newState == 1 { dispatcher.send(.sendAdd, payload: 10) }
        }
        try dispatcher.dispatch(.sendAdd, payload: 1)

        #expect(seen.values == [1, 11], "the sent action ran after the first, before dispatch returned")
        #expect(store.state == 11)
        #expect(errors.values.isEmpty)
        withExtendedLifetime(token) {}
    }

    @Test func aSentActionsErrorFromAnObserverGoesToOnQueuedError() throws {
        let (dispatcher, store, errors) = try makeDispatcher()
        let token = store.observe { change in
            if change.newState == 1 { dispatcher.send(.sendRefuse) }
        }
        try dispatcher.dispatch(.sendAdd, payload: 1)

        #expect(store.state == 1, "the first action committed; the refused one changed nothing")
        #expect(errors.values == ["sendRefuse: TestError(refused)"])
        withExtendedLifetime(token) {}
    }

    @Test func fromOutsideItRunsAtOnceAndItsErrorGoesToOnQueuedError() throws {
        let (dispatcher, store, errors) = try makeDispatcher()
        dispatcher.send(.sendAdd, payload: 2)
        dispatcher.send(.sendAddOne)
        dispatcher.send(AnyAction(name: ActionName<Int>.sendAdd.rawValue, payload: 4))
        #expect(store.state == 7, "each ran before send returned")

        dispatcher.send(.sendAdd, payload: -1)
        dispatcher.send(AnyAction(name: ActionName<Int>.sendAdd.rawValue, payload: "four"))
        #expect(store.state == 7)
        #expect(errors.values.count == 2)
        #expect(errors.values.first == "sendAdd(-1): TestError(negative -1)")
        #expect(errors.values.last?.hasPrefix("sendAdd(four): ") == true, "a payload of the wrong type")
    }

    @Test func afterShutdownASentActionsRefusalGoesToOnQueuedError() async throws {
        let (dispatcher, store, errors) = try makeDispatcher()
        await dispatcher.shutdown()
        dispatcher.send(.sendAddOne)

        #expect(store.state == 0)
        #expect(errors.values == ["sendAddOne: \(FluxionError.dispatcherShutDown(action: "sendAddOne"))"])
    }

    /// A cancelled task's dispatch is refused, and `onTaskError` hears of it: `onQueuedError` does not, too.
    @Test func aCancelledTasksRefusalIsReportedOnceAsATaskError() async throws {
        let (dispatcher, store, errors) = try makeDispatcher()
        let taskErrors = Recorder<TaskError.Kind>()
        dispatcher.onTaskError = { taskErrors.append($0.kind) }
        let (began, sent) = (Gate(), Gate())
        let task = dispatcher.dispatchTask(id: "sender") { dispatcher in
            began.open()
            try? await waitUntilCancelled()
            dispatcher.send(.sendAddOne)
            sent.open()
        }
        await onThread { began.wait() }
        dispatcher.cancelTasks(id: "sender")
        await onThread { sent.wait() }
        _ = await task.result

        #expect(store.state == 0)
        #expect(taskErrors.values == [.refused])
        #expect(errors.values.isEmpty)
    }
}
