import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Int {
    fileprivate static var recordDepth: Self { "depthRecordDepth" }
    fileprivate static var askForAnEffect: Self { "depthAskForAnEffect" }
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

/// Asks for one effect, which counts its runs: the path `.ci/dispatch-hops.py` follows, from `dispatch` to an
/// effect's task.
final class DepthEffectStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    /// How many of the effects ran.
    static let runs = Recorder<Int>()

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.askForAnEffect, with: .effects) { state, action, effects in
            state += action.payload
            effects.run { _ in
                DepthEffectStore.runs.append(1)  // NB: `.ci/dispatch-hops.py` stops here
            }
        }
    }
}

/// How far a maintainer must go from `dispatch` to a handler: the frames between them, counted in the build
/// the tests run in (a debug build, where nothing is inlined), printed for the record. Issue 42 asks for at most
/// 20 (33 before it, 35 for two stores; a store's first dispatch, which makes it, one frame more).
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

        let first = try framesToTheHandler(of: dispatcher)  // NB: makes the stores, on their first need
        let frames = try framesToTheHandler(of: dispatcher)

        let stores = reachingTwoStores ? "two stores" : "one store"
        print("frames from dispatch to the handler (\(stores)): \(frames); on the first dispatch, \(first)")
        #expect(frames <= 20)
        #expect(first <= 20)
    }

    /// The path `.ci/dispatch-hops.py` counts the hops of: one store, whose handler asks for one effect.
    @Test func anEffectAskedForByAHandlerRunsOnceItsActionCommits() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(DepthEffectStore.self)
        let before = DepthEffectStore.runs.values.count

        try dispatcher.dispatch(.askForAnEffect, payload: 1)
        await dispatcher.waitUntilDrained()

        #expect(DepthEffectStore.runs.values.count == before + 1)
        #expect(try dispatcher.store(DepthEffectStore.self).state == 1)
    }
}
