import Foundation
import Testing

@testable import Fluxion

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "middlewareAdd" }
}

/// A class payload, and a subclass of it, for actions whose payload is stored as another class than its own.
private class Shape: @unchecked Sendable {}  // immutable
private final class Square: Shape, @unchecked Sendable {}  // immutable

/// Keeps how many `Square` payloads it took.
private final class SquareStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on("squareAdded" as ActionName<Square>) { state, _ in state += 1 }
    }
}

/// How an action goes through the middleware chain: the run of the chain each action borrows, and
/// the payload type it reaches the stores with.
@Suite(.timeLimit(.minutes(10))) struct DispatcherMiddlewareRunTests {
    @Test func eachActionBorrowsTheChainsRunInTurnAndAThrowingMiddlewareGivesItBack() throws {
        let log = Recorder<String>()
        let runs = Recorder<ObjectIdentifier>()
        let (dispatcher, store) = try makeLogStore(log: log)
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                log.append("outer \(action.payload)")
                runs.append(ObjectIdentifier(next.run))
                return try next(action)
            })
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                log.append("inner \(action.payload)")
                if action.payload(as: Int.self) == 2 { throw FluxionError.storeNotRegistered("inner") }
                return try next(action)
            })

        try dispatcher.dispatch(.add, payload: 1)
        #expect(throws: FluxionError.self) { try dispatcher.dispatch(.add, payload: 2) }
        try dispatcher.dispatch(.add, payload: 3)

        #expect(store.state == [1, 3])
        #expect(
            log.values == [
                "outer 1", "inner 1", "store middlewareAdd(1)", "outer 2", "inner 2", "outer 3", "inner 3",
                "store middlewareAdd(3)",
            ])
        #expect(Set(runs.values).count == 1, "each action borrowed the one run, and gave it back")
    }

    @Test func aPayloadStoredAsItsSuperclassReachesTheHandlerOfItsOwnClass() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(SquareStore.self)
        dispatcher.addMiddleware(ClosureMiddleware { action, next in try next(action) })
        let shape: Shape = Square()

        try dispatcher.dispatch(AnyAction(name: "squareAdded", payload: shape))
        #expect(throws: FluxionError.self) { try dispatcher.dispatch(AnyAction(name: "squareAdded", payload: Shape())) }

        #expect(try dispatcher.store(SquareStore.self).state == 1)
    }
}
