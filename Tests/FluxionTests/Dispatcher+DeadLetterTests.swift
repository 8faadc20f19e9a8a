import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var handled: Self { "deadLetterHandled" }
    fileprivate static var unhandled: Self { "deadLetterUnhandled" }
    fileprivate static var queuesUnhandled: Self { "deadLetterQueuesUnhandled" }
}

extension ActionName where Payload == Void {
    fileprivate static var unhandledVoid: Self { "deadLetterUnhandledVoid" }
}

/// Handles `.handled`; `.queuesUnhandled` queues an `.unhandled` with its payload.
final class DeadLetterStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .on(.handled) { state, action in state += action.payload }
            .route(.queuesUnhandled, to: DeadLetterStore.queueUnhandled)
    }

    func queueUnhandled(_ state: inout Int, _ action: Action<Int>) throws {
        state += 1
        try dispatcher?.dispatch(.unhandled, payload: action.payload)
    }
}

/// A new dispatcher with a ``DeadLetterStore``, created, whose dead letters go to `letters`.
private func makeDeadLetterStore(letters: Recorder<String>) throws -> (Dispatcher, DeadLetterStore) {
    let dispatcher = Dispatcher()
    try dispatcher.register(DeadLetterStore.self)
    dispatcher.onDeadLetter = { action in letters.append("\(action.name)(\(action.payload))") }
    return (dispatcher, try dispatcher.store(DeadLetterStore.self))
}

@Suite struct DispatcherDeadLetterTests {
    @Test func onDeadLetterHearsEachUnhandledActionAndTheCountAgrees() throws {
        let letters = Recorder<String>()
        let (dispatcher, store) = try makeDeadLetterStore(letters: letters)

        try dispatcher.dispatch(.handled, payload: 1)
        try dispatcher.dispatch(.unhandled, payload: 2)
        try dispatcher.dispatch(.unhandledVoid)
        try dispatcher.dispatch(AnyAction(name: "deadLetterUntyped", payload: "three"))
        try dispatcher.dispatch(.queuesUnhandled, payload: 4)
        try dispatcher.dispatch(AnyAction(name: "deadLetterHandled", payload: 5))

        #expect(
            letters.values == [
                "deadLetterUnhandled(2)",
                "deadLetterUnhandledVoid(())",
                "deadLetterUntyped(three)",
                "deadLetterUnhandled(4)",
            ])
        #expect(dispatcher.deadLetterCount == 4)
        #expect(store.state == 7)
    }

    @Test func deadLettersAreCountedWithoutAHook() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(DeadLetterStore.self)

        try dispatcher.dispatch(.unhandled, payload: 1)
        try dispatcher.dispatch(.handled, payload: 1)
        try dispatcher.batch { batch in try batch.dispatch(.unhandledVoid) }

        #expect(dispatcher.deadLetterCount == 2)
    }

    @Test func anActionDroppedByMiddlewareIsNoDeadLetter() throws {
        let letters = Recorder<String>()
        let (dispatcher, _) = try makeDeadLetterStore(letters: letters)
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                action.name == ActionName<Int>.unhandled.rawValue ? [] : try next(action)
            })

        try dispatcher.dispatch(.unhandled, payload: 1)
        try dispatcher.dispatch(.queuesUnhandled, payload: 2)
        try dispatcher.dispatch(.unhandledVoid)

        #expect(letters.values == ["deadLetterUnhandledVoid(())"])
        #expect(dispatcher.deadLetterCount == 1)
    }

    @Test func anActionRenamedByMiddlewareIsJudgedByItsNewName() throws {
        let letters = Recorder<String>()
        let (dispatcher, store) = try makeDeadLetterStore(letters: letters)
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                guard action.name == ActionName<Int>.unhandled.rawValue else { return try next(action) }
                return try next(AnyAction(name: ActionName<Int>.handled.rawValue, payload: action.payload))
            })

        try dispatcher.dispatch(.unhandled, payload: 3)

        #expect(letters.values == [])
        #expect(dispatcher.deadLetterCount == 0)
        #expect(store.state == 3)
    }
}
