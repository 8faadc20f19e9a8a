import Fluxion
import Observation
import Testing

extension ActionName where Payload == Void {
    fileprivate static var fail: Self { "batchFail" }
}

/// How tests write a change: `name old→new`, with the total of each tally.
private func describe(_ change: StoreChange<Tally>) -> String {
    "\(change.action.name) \(change.oldState.total)→\(change.newState.total)"
}

/// The names and payloads of a batch action's actions.
private func batchedActions(of action: AnyAction) -> [String] {
    (action.payload(as: [AnyAction].self) ?? []).map { "\($0.name)(\($0.payload))" }
}

@Suite struct DispatcherBatchTests {
    @Test func eachStoresObserversHearOneChangeFromBeforeTheBatchToAfterIt() throws {
        let (dispatcher, first, second) = try makeBatchStores()
        let firstChanges = Recorder<StoreChange<Tally>>()
        let secondChanges = Recorder<StoreChange<Tally>>()
        let firstToken = first.observe { firstChanges.append($0) }
        let secondToken = second.observe { secondChanges.append($0) }
        let before = (first.state, second.state)

        try dispatcher.batch { batch in
            try batch.dispatch(.first, payload: 2)
            try batch.dispatch(.shared, payload: 3)
            try batch.dispatch(.second, payload: 4)
        }

        #expect(firstChanges.count == 1)
        #expect(secondChanges.count == 1)
        let firstChange = try #require(firstChanges.values.first)
        let secondChange = try #require(secondChanges.values.first)
        #expect(firstChange.oldState == before.0)
        #expect(firstChange.newState == Tally(total: 6, calls: 3, payloads: [1, 2, 3]))
        #expect(firstChange.newState == first.state)
        #expect(secondChange.oldState == before.1)
        #expect(secondChange.newState == Tally(total: 44, calls: 3, payloads: [10, 30, 4]))
        #expect(secondChange.newState == second.state)
        for change in [firstChange, secondChange] {
            #expect(change.action.name == AnyAction.batchName)
            #expect(batchedActions(of: change.action) == ["batchFirst(2)", "batchShared(3)", "batchSecond(4)"])
        }
        firstToken.cancel()
        secondToken.cancel()
    }

    @Test func aNestedBatchFoldsIntoTheOuterOne() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        let changes = Recorder<StoreChange<Tally>>()
        let token = first.observe { changes.append($0) }

        try dispatcher.batch { outer in
            try outer.dispatch(.first, payload: 2)
            try dispatcher.batch { inner in
                try inner.dispatch(.first, payload: 3)
            }
            try outer.dispatch(.first, payload: 4)
        }

        #expect(changes.values.map(describe) == ["Fluxion.batch 1→10"])
        #expect(
            changes.values.map { batchedActions(of: $0.action) } == [
                ["batchFirst(2)", "batchFirst(3)", "batchFirst(4)"]
            ])
        token.cancel()
    }

    @Test func batchReturnsTheClosuresValue() throws {
        let (dispatcher, first, _) = try makeBatchStores()

        let value = try dispatcher.batch { batch -> String in
            try batch.dispatch(.first, payload: 2)
            return "total \(first.state.total)"
        }

        #expect(value == "total 3")
    }

    @Test func aPlainDispatchInsideTheBatchRunsAfterIt() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        let changes = Recorder<String>()
        let token = first.observe { changes.append(describe($0)) }
        let totalAfterPlainDispatch = LockedBox(0)

        try dispatcher.batch { batch in
            try dispatcher.dispatch(.first, payload: 100)
            totalAfterPlainDispatch.value = first.state.total
            try batch.dispatch(.first, payload: 2)
        }

        #expect(totalAfterPlainDispatch.value == 1, "queued, not run")
        #expect(changes.values == ["Fluxion.batch 1→3", "batchFirst 3→103"])
        token.cancel()
    }

    @Test func wholeDispatcherObserversHearOneChangePerStore() throws {
        let (dispatcher, _, _) = try makeBatchStores()
        let changes = Recorder<String>()
        let token = dispatcher.observe { change in
            let tally = change.change(as: Tally.self)
            changes.append(
                "\(change.storeType) \(change.action.name) \(tally?.oldState.total ?? -1)→\(tally?.newState.total ?? -1)"
            )
        }

        try dispatcher.batch { batch in
            try batch.dispatch(.first, payload: 2)
            try batch.dispatch(.shared, payload: 3)
            try batch.dispatch(.second, payload: 4)
        }

        #expect(
            changes.values == [
                "BatchFirstStore Fluxion.batch 1→6",
                "BatchSecondStore Fluxion.batch 10→44",
            ])
        token.cancel()
    }

    @Test func observationTrackingIsToldOnceAfterABatchAndNotForAFailedOne() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        let told = Recorder<Int>()
        let track = {
            _ = withObservationTracking {
                first.state
            } onChange: {
                told.append(first.state.total)
            }
        }

        track()
        #expect(throws: TestError("batchFail")) {
            try dispatcher.batch { batch in
                try batch.dispatch(.first, payload: 2)
                try batch.dispatch(.fail)
            }
        }
        // No other thread can have seen a state of the batch: a rollback is no change.
        #expect(told.values == [], "not told: the batch rolled back")
        #expect(first.state.total == 1)

        try dispatcher.batch { batch in
            try batch.dispatch(.first, payload: 2)
            try batch.dispatch(.first, payload: 3)
        }

        #expect(told.values == [6], "told once, after the batch committed")
    }

    @Test func aBatchRunsWhileTheDispatcherIsSuspended() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.first, payload: 100)

        try dispatcher.batch { batch in try batch.dispatch(.first, payload: 2) }

        #expect(first.state.payloads == [1, 2])
        suspension.release()
        #expect(first.state.payloads == [1, 2, 100])
    }

    @Test func theMiddlewareSeesEachActionOfTheBatchAndNoChangesInside() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        let seen = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                let changes = try next(action)
                seen.append("\(action.name) \(changes.count)")
                return changes
            })

        try dispatcher.batch { batch in
            try batch.dispatch(.first, payload: 2)
            try batch.dispatch(.shared, payload: 3)
        }

        #expect(seen.values == ["batchFirst 0", "batchShared 0"])
        #expect(first.state.total == 6)
    }

    @Test func aBatchThatTouchesNoStoreTellsNoObserver() throws {
        let (dispatcher, first, second) = try makeBatchStores()
        let observed = LockedBox(0)
        let tokens = [
            first.observe { _ in observed.withValue { $0 += 1 } },
            second.observe { _ in observed.withValue { $0 += 1 } },
        ]

        try dispatcher.batch { batch in try batch.dispatch(.second, payload: 1) }
        try dispatcher.batch { _ in }

        #expect(observed.value == 1, "only the store whose handler ran")
        for token in tokens { token.cancel() }
    }
}
