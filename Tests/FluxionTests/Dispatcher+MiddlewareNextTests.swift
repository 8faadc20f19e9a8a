import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "middlewareAdd" }
    fileprivate static var follow: Self { "middlewareFollow" }
}

/// The `next` a middleware kept past its call.
private final class KeptNext: @unchecked Sendable {  // written by the middleware, then read after the dispatch returned
    var next: MiddlewareNext?
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct DispatcherMiddlewareNextTests {
    /// A dispatcher whose middleware keeps the `next` of each `.add`, and passes every action on.
    private func makeKeepingDispatcher() throws -> (Dispatcher, MiddlewareLogStore, KeptNext) {
        let (dispatcher, store) = try makeLogStore(log: Recorder<String>())
        let kept = KeptNext()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                if action.name == ActionName<Int>.add.rawValue { kept.next = next }
                return try next(action)
            })
        return (dispatcher, store, kept)
    }

    @Test func aNextCalledAfterItsMiddlewareReturnedIsRefused() throws {
        let (dispatcher, store, kept) = try makeKeepingDispatcher()
        try dispatcher.dispatch(.add, payload: 1)
        let next = try #require(kept.next)

        #expect(throws: FluxionError.middlewareNextOutsideDispatch("middlewareAdd")) {
            try next(AnyAction(name: "middlewareAdd", payload: 2))
        }
        #expect(store.state == [1], "the late action never reached the store")
        #expect(!dispatcher.isDispatching)
    }

    @Test func aNextKeptFromAnEarlierActionIsRefusedInsideALaterOne() throws {
        let (dispatcher, store) = try makeLogStore(log: Recorder<String>())
        let kept = KeptNext()
        let refusals = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                if action.name == ActionName<Int>.add.rawValue {
                    kept.next = next
                } else if let stale = kept.next {
                    // NB: this thread holds the turn, inside another run of the chain.
                    do {
                        _ = try stale(AnyAction(name: "middlewareAdd", payload: 99))
                    } catch {
                        refusals.append("\(error)")
                    }
                }
                return try next(action)
            })
        try dispatcher.dispatch(.add, payload: 1)

        try dispatcher.dispatch(.follow, payload: 2)

        #expect(refusals.values == ["\(FluxionError.middlewareNextOutsideDispatch("middlewareAdd"))"])
        #expect(store.state == [1, 2], "the later action went through; the stale one did not")
    }

    @Test func aNextCalledFromAnotherThreadWhileItsMiddlewareRunsIsRefused() throws {
        let (dispatcher, store) = try makeLogStore(log: Recorder<String>())
        let outcomes = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                let handed = KeptNext()
                handed.next = next
                let done = DispatchGroup()
                done.enter()
                Thread.detachNewThread {
                    do {
                        _ = try handed.next?(action)
                        outcomes.append("passed")
                    } catch {
                        outcomes.append("\(error)")
                    }
                    done.leave()
                }
                done.wait()  // NB: the middleware still runs, holding the turn, while the other thread calls
                return try next(action)
            })

        try dispatcher.dispatch(.add, payload: 1)

        #expect(outcomes.values == ["\(FluxionError.middlewareNextOutsideDispatch("middlewareAdd"))"])
        #expect(store.state == [1], "the action went through once, from the middleware's own thread")
    }

    @Test func aKeptNextKeepsItsDispatcherAlive() throws {
        let kept = KeptNext()
        weak var released: Dispatcher?
        try {
            let (dispatcher, _, keeping) = try makeKeepingDispatcher()
            try dispatcher.dispatch(.add, payload: 1)
            // NB: taken out of the middleware's own box, which its dispatcher holds.
            swap(&kept.next, &keeping.next)
            released = dispatcher
        }()

        #expect(released != nil, "the kept next holds its dispatcher")
        #expect(kept.next?.dispatcher.isDispatching == false)
        #expect(throws: FluxionError.middlewareNextOutsideDispatch("middlewareAdd")) {
            try kept.next?(AnyAction(name: "middlewareAdd", payload: 2))
        }
        kept.next = nil
        #expect(released == nil, "and lets it go with the last copy")
    }

    @Test func aNextCalledByAnObserverOfTheActionItPassedOnIsRefused() throws {
        let (dispatcher, store, kept) = try makeKeepingDispatcher()
        let refusals = Recorder<String>()
        let token = store.observe { change in
            guard change.newState.count == 1 else { return }
            do {
                _ = try kept.next?(AnyAction(name: "middlewareAdd", payload: 99))
            } catch {
                refusals.append("\(error)")
            }
        }

        try dispatcher.dispatch(.add, payload: 1)

        #expect(refusals.values == ["\(FluxionError.middlewareNextOutsideDispatch("middlewareAdd"))"])
        #expect(store.state == [1])
        token.cancel()
    }

    @Test func aNextCalledTwiceByItsMiddlewarePassesTheActionOnTwice() throws {
        let (dispatcher, store) = try makeLogStore(log: Recorder<String>())
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                _ = try next(action)
                return try next(action)
            })

        try dispatcher.dispatch(.add, payload: 1)

        #expect(store.state == [1, 1])
    }

    @Test func theRefusalNamesTheAction() {
        let message = FluxionError.middlewareNextOutsideDispatch("middlewareAdd").description
        #expect(message.contains("'middlewareAdd'"))
        #expect(message.contains("outside its dispatch(_:next:)"))
    }
}
