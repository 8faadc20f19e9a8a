import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Int {
    fileprivate static var recordDepth: Self { "depthRecordDepth" }
}

/// Records the call stack its handler runs on, to count the frames from `dispatch` to the handler.
final class DepthStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    /// The depth of the call stack of the last handler call; only the test's thread touches it.
    nonisolated(unsafe) static var depth = 0

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.recordDepth) { state, action in
            state += action.payload
            DepthStore.depth = Thread.callStackReturnAddresses.count
        }
    }
}

/// A second store of the same action, so that the action stages and commits as a transaction of two stores.
final class DepthWitnessStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.recordDepth) { state, action in state += action.payload }
    }
}

/// How far a maintainer must go from `dispatch` to a handler: the frames between them, counted in the build
/// the tests run in (a debug build, where nothing is inlined), printed for the record.
@Suite(.serialized) struct DispatchDepthTests {
    /// Dispatches from a frame of its own, and returns the number of frames between `dispatch` and the
    /// handler's closure (neither counted).
    @inline(never)
    private func framesToTheHandler(of dispatcher: Dispatcher) throws -> Int {
        // NB: here, the stack holds this frame and those below it; in the handler, also the handler's closure,
        // the frames between, and `dispatch`.
        let here = Thread.callStackReturnAddresses.count
        try dispatcher.dispatch(.recordDepth, payload: 1)
        return DepthStore.depth - here - 2
    }

    @Test(arguments: [false, true]) func aDispatchReachesItsHandlerThroughAFewFrames(reachingTwoStores: Bool) throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(DepthStore.self)
        if reachingTwoStores { try dispatcher.register(DepthWitnessStore.self) }

        let frames = try framesToTheHandler(of: dispatcher)

        print("frames from dispatch to the handler (\(reachingTwoStores ? "two stores" : "one store")): \(frames)")
        #expect(frames > 0)
    }
}
