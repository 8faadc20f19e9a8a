import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "middlewareAdd" }
}

/// A `next` a middleware kept past its call.
private final class KeptNext: @unchecked Sendable {  // written by the middleware, read after the dispatch returned
    var next: MiddlewareNext?
}

/// A middleware that passes every action on and holds `capture`, so that a test sees when it is released.
private func capturing(_ capture: MiddlewareCapture, keeping kept: KeptNext? = nil) -> ClosureMiddleware {
    ClosureMiddleware { action, next in
        withExtendedLifetime(capture) { kept?.next = next }
        return try next(action)
    }
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct DispatcherMiddlewareLifetimeTests {
    @Test func aRemovedMiddlewareIsReleasedWhenRemoveMiddlewareReturns() throws {
        let (dispatcher, store) = try makeLogStore(log: Recorder<String>())
        var capture: MiddlewareCapture? = MiddlewareCapture()
        weak let released = capture
        let kept = dispatcher.addMiddleware(ClosureMiddleware { action, next in try next(action) })
        let removed = dispatcher.addMiddleware(capturing(capture!))
        capture = nil
        try dispatcher.dispatch(.add, payload: 1)

        #expect(dispatcher.removeMiddleware(removed))

        #expect(released == nil, "no cached run of the chain keeps the removed middleware")
        try dispatcher.dispatch(.add, payload: 2)
        #expect(store.state == [1, 2])
        #expect(dispatcher.removeMiddleware(kept))
    }

    @Test func theLastMiddlewareRemovedIsReleasedThoughNoActionFollows() throws {
        let (dispatcher, _) = try makeLogStore(log: Recorder<String>())
        var capture: MiddlewareCapture? = MiddlewareCapture()
        weak let released = capture
        let id = dispatcher.addMiddleware(capturing(capture!))
        capture = nil
        for payload in 1...3 { try dispatcher.dispatch(.add, payload: payload) }

        dispatcher.removeMiddleware(id)

        #expect(released == nil)
    }

    @Test func aKeptNextDoesNotKeepARemovedMiddlewareAlive() throws {
        let (dispatcher, _) = try makeLogStore(log: Recorder<String>())
        let kept = KeptNext()
        var capture: MiddlewareCapture? = MiddlewareCapture()
        weak let released = capture
        let id = dispatcher.addMiddleware(capturing(capture!, keeping: kept))
        capture = nil
        try dispatcher.dispatch(.add, payload: 1)

        dispatcher.removeMiddleware(id)

        #expect(released == nil, "the kept next's run holds no middleware")
        #expect(throws: FluxionError.middlewareNextOutsideDispatch("middlewareAdd")) {
            try kept.next?(AnyAction(name: "middlewareAdd", payload: 2))
        }
    }

    @Test func aMiddlewareThatRemovesItselfFinishesItsActionAndIsReleasedWhenTheDispatchReturns() throws {
        let (dispatcher, store) = try makeLogStore(log: Recorder<String>())
        let id = LockedBox<MiddlewareID?>(nil)
        var capture: MiddlewareCapture? = MiddlewareCapture()
        weak let released = capture
        let passes = Recorder<String>()
        id.value = dispatcher.addMiddleware(
            ClosureMiddleware { [capture] action, next in
                _ = capture
                if let own = id.value { next.dispatcher.removeMiddleware(own) }
                let changes = try next(action)  // NB: removed, and still running
                passes.append(action.name)
                return changes
            })
        capture = nil

        try dispatcher.dispatch(.add, payload: 1)

        #expect(released == nil, "released once its action left it")
        #expect(passes.values == ["middlewareAdd"])
        try dispatcher.dispatch(.add, payload: 2)
        #expect(passes.count == 1)
        #expect(store.state == [1, 2])
    }

    @Test func aMiddlewareRemovedWhileAnotherThreadRunsItIsReleasedWhenRemoveMiddlewareReturns() throws {
        let (dispatcher, store) = try makeLogStore(log: Recorder<String>())
        let entered = Gate()
        let proceed = Gate()
        var capture: MiddlewareCapture? = MiddlewareCapture()
        weak let released = capture
        let id = dispatcher.addMiddleware(
            ClosureMiddleware { [capture] action, next in
                _ = capture
                entered.open()
                proceed.wait()
                return try next(action)
            })
        capture = nil
        let releasedOnReturn = LockedBox(false)

        let finished = finishesInTime {
            let threads = DispatchGroup()
            threads.runOnNewThread { try? dispatcher.dispatch(.add, payload: 1) }
            entered.wait()
            threads.runOnNewThread {
                // NB: waits for the action inside the middleware to leave it, as a dispatch would.
                dispatcher.removeMiddleware(id)
                releasedOnReturn.value = released == nil
            }
            proceed.open()
            threads.wait()
        }

        try #require(finished, "the removal waits for the running action, which does not wait for it")
        #expect(releasedOnReturn.value)
        #expect(store.state == [1], "the running action kept the chain it started with")
    }

    @Test func aStoppedJournalsRecorderIsReleased() throws {
        let (dispatcher, _) = try makeLogStore(log: Recorder<String>())
        dispatcher.addMiddleware(ClosureMiddleware { action, next in try next(action) })
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.add, payload: 1)
        let recorder = try #require(dispatcher.journalRecorderReference)
        #expect(recorder.object != nil)

        journal.stop()

        #expect(recorder.object == nil, "nothing keeps the journal's recorder: not the chain, nor its kept run")
        try dispatcher.dispatch(.add, payload: 2)
        #expect(journal.records.count == 1)
    }
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct DispatcherMiddlewareNextRefusalTests {
    /// A dispatcher whose first middleware hands each `next` to `handle`, and whose second logs what reaches it.
    private func makeChain(
        _ handle: @escaping @Sendable (AnyAction, MiddlewareNext) -> Void
    ) throws -> (Dispatcher, MiddlewareLogStore, Recorder<String>) {
        let (dispatcher, store) = try makeLogStore(log: Recorder<String>())
        let reached = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                handle(action, next)
                return try next(action)
            })
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                reached.append("\(action.name)(\(action.payload(as: Int.self) ?? 0))")
                return try next(action)
            })
        return (dispatcher, store, reached)
    }

    @Test func aKeptNextIsRefusedBeforeTheRestOfTheChainRuns() throws {
        let kept = KeptNext()
        let (dispatcher, store, reached) = try makeChain { _, next in kept.next = next }
        try dispatcher.dispatch(.add, payload: 1)
        let next = try #require(kept.next)

        #expect(throws: FluxionError.middlewareNextOutsideDispatch("middlewareAdd")) {
            try next(AnyAction(name: "middlewareAdd", payload: 2))
        }

        #expect(reached.values == ["middlewareAdd(1)"], "the second middleware never saw the late action")
        #expect(store.state == [1])
    }

    @Test func aNextCalledFromAnotherThreadIsRefusedBeforeTheRestOfTheChainRuns() throws {
        let outcomes = Recorder<String>()
        let (dispatcher, store, reached) = try makeChain { action, next in
            let handed = KeptNext()
            handed.next = next
            let done = DispatchGroup()
            done.runOnNewThread {
                do {
                    _ = try handed.next?(AnyAction(name: action.name, payload: 99))
                    outcomes.append("passed")
                } catch {
                    outcomes.append("\(error)")
                }
            }
            done.wait()  // NB: the middleware still runs, holding the turn, while the other thread calls
        }

        try dispatcher.dispatch(.add, payload: 1)

        #expect(outcomes.values == ["\(FluxionError.middlewareNextOutsideDispatch("middlewareAdd"))"])
        #expect(reached.values == ["middlewareAdd(1)"], "the rest of the chain ran on the turn's thread only")
        #expect(store.state == [1])
    }

    @Test func aNextCalledByAHandlerOfTheActionItPassedOnIsRefusedBeforeTheRestOfTheChainRuns() throws {
        let kept = KeptNext()
        let refusals = Recorder<String>()
        let (dispatcher, store, reached) = try makeChain { _, next in kept.next = next }
        let token = store.observe { change in
            guard change.newState == [1] else { return }
            do {
                _ = try kept.next?(AnyAction(name: "middlewareAdd", payload: 99))
            } catch {
                refusals.append("\(error)")
            }
        }

        try dispatcher.dispatch(.add, payload: 1)

        #expect(refusals.values == ["\(FluxionError.middlewareNextOutsideDispatch("middlewareAdd"))"])
        #expect(reached.values == ["middlewareAdd(1)"])
        #expect(store.state == [1])
        token.cancel()
    }
}
