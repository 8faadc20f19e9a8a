import Fluxion
import Testing

extension ActionName where Payload == String {
    fileprivate static var note: Self { "suspensionNote" }
}

extension ActionName where Payload == Void {
    fileprivate static var fail: Self { "suspensionFail" }
}

@Suite struct DispatcherSuspensionTests {
    @Test func aDispatchWhileSuspendedReturnsAtOnceAndChangesNothing() throws {
        let (dispatcher, store) = try makeNotesStore()
        let observed = LockedBox(0)
        let token = store.observe { _ in observed.withValue { $0 += 1 } }

        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")
        try dispatcher.dispatch(.fail)

        #expect(dispatcher.isSuspended)
        #expect(!dispatcher.isDispatching)
        #expect(store.state == [])
        #expect(observed.value == 0)
        #expect(!suspension.isReleased)
        suspension.release()
        token.cancel()
    }

    @Test func releasingRunsTheWaitingActionsInTheOrderTheyWereDispatched() throws {
        let (dispatcher, store) = try makeNotesStore()
        let seen = Recorder<[String]>()
        let token = store.observe { seen.append($0.newState) }

        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")
        try dispatcher.dispatch(.bell)
        try dispatcher.dispatch(AnyAction(name: "suspensionNote", payload: "c"))
        suspension.release()

        #expect(store.state == ["a", "bell", "c"])
        #expect(seen.values == [["a"], ["a", "bell"], ["a", "bell", "c"]])
        #expect(!dispatcher.isSuspended)
        #expect(suspension.isReleased)
        token.cancel()
    }

    @Test func nestedSuspensionsRunTheWaitingActionsWhenTheLastIsReleased() throws {
        let (dispatcher, store) = try makeNotesStore()

        let outer = dispatcher.suspend()
        let inner = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")
        outer.release()

        #expect(dispatcher.isSuspended)
        #expect(store.state == [])

        try dispatcher.dispatch(.note, payload: "b")
        inner.release()

        #expect(!dispatcher.isSuspended)
        #expect(store.state == ["a", "b"])
    }

    @Test func aSuspensionLetGoWithoutReleaseReleasesItself() throws {
        let (dispatcher, store) = try makeNotesStore()
        var suspension: DispatchSuspension? = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")
        #expect(suspension?.isReleased == false)
        #expect(store.state == [])

        suspension = nil

        #expect(!dispatcher.isSuspended)
        #expect(store.state == ["a"])
    }

    @Test func releasingTwiceIsHarmless() throws {
        let (dispatcher, store) = try makeNotesStore()
        let first = dispatcher.suspend()
        let second = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")

        first.release()
        first.release()

        #expect(dispatcher.isSuspended, "the second release of the first suspension did not end the second")
        #expect(store.state == [])

        second.release()
        second.release()

        #expect(store.state == ["a"])
        #expect(!dispatcher.isSuspended)
        let third = dispatcher.suspend()
        #expect(dispatcher.isSuspended, "a repeated release does not undercount later suspensions")
        third.release()
    }

    @Test func dispatchBypassingSuspensionRunsWhileSuspendedBeforeTheWaitingActions() throws {
        let (dispatcher, store) = try makeNotesStore()
        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "waiting")

        try dispatcher.dispatchBypassingSuspension(.note, payload: "typed")
        try dispatcher.dispatchBypassingSuspension(.bell)
        try dispatcher.dispatchBypassingSuspension(AnyAction(name: "suspensionNote", payload: "untyped"))

        #expect(store.state == ["typed", "bell", "untyped"])
        #expect(dispatcher.isSuspended)

        suspension.release()

        #expect(store.state == ["typed", "bell", "untyped", "waiting"])
    }

    @Test func dispatchBypassingSuspensionThrowsItsHandlersError() throws {
        let (dispatcher, store) = try makeNotesStore()
        let suspension = dispatcher.suspend()

        #expect(throws: TestError("suspensionFail")) { try dispatcher.dispatchBypassingSuspension(.fail) }
        #expect(store.state == [])
        suspension.release()
    }

    @Test func errorsOfTheReleasedActionsGoToOnQueuedError() throws {
        let (dispatcher, store) = try makeNotesStore()
        let queuedErrors = Recorder<String>()
        dispatcher.onQueuedError = { action, error in queuedErrors.append("\(action.name): \(error)") }
        let changeErrors = Recorder<String>()
        let token = store.observe { change in changeErrors.append(change.action.name) }

        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.fail)
        try dispatcher.dispatch(.note, payload: "after")
        suspension.release()

        #expect(queuedErrors.values == ["suspensionFail: TestError(suspensionFail)"])
        #expect(changeErrors.values == ["suspensionNote"])  // the failed action is no change
        #expect(store.state == ["after"])
        token.cancel()
    }

    @Test func waitingActionsPassThroughTheMiddlewareWhenReleased() throws {
        let (dispatcher, store) = try makeNotesStore()
        let seen = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                seen.append(action.name)
                return try next(action)
            })

        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")
        #expect(seen.values == [])
        suspension.release()

        #expect(seen.values == ["suspensionNote"])
        #expect(store.state == ["a"])
    }
}
