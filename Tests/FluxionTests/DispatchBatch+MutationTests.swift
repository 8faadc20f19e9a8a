import Fluxion
import Testing

private struct MutCounter: Sendable, Equatable {
    var count = 0
}

extension ActionName where Payload == Int {
    fileprivate static var txnMutIncrement: Self { "txnMutIncrement" }
}

extension ActionName where Payload == Void {
    fileprivate static var txnMutFail: Self { "txnMutFail" }
}

private final class MutCounterStore: Store<MutCounter>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: MutCounter()) }

    override class var handlers: HandlerTable<MutCounter> {
        HandlerTable()
            .on(.txnMutIncrement) { state, action in state.count += action.payload }
            .on(.txnMutFail) { state, _ in
                state.count = -1
                throw TestError("txnMutFail")
            }
    }
}

/// Never registered.
private final class MutStrayStore: Store<MutCounter>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: MutCounter()) }
}

/// Created only on first need: the tests count its creations.
private final class MutLazyStore: Store<MutCounter>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: MutCounter()) }
}

private func makeCounter() throws -> (Dispatcher, MutCounterStore) {
    let dispatcher = Dispatcher()
    try dispatcher.register(MutCounterStore.self)
    return (dispatcher, try dispatcher.store(MutCounterStore.self))
}

@Suite struct DispatchBatchMutationTests {
    @Test func aMutationChangesTheStoreAndItsObserversHearItAsPartOfTheBatch() throws {
        let (dispatcher, store) = try makeCounter()
        let changes = Recorder<StoreChange<MutCounter>>()
        let token = store.observe { changes.append($0) }

        try dispatcher.batch { batch in try batch.mutate(MutCounterStore.self) { $0.count = 10 } }

        #expect(store.state.count == 10)
        #expect(changes.count == 1)
        let change = try #require(changes.values.first)
        #expect(change.oldState.count == 0)
        #expect(change.newState.count == 10)
        #expect(change.action.name == AnyAction.batchName)
        let actions = try #require(change.action.payload(as: [AnyAction].self))
        #expect(actions.map(\.name) == [AnyAction.mutationName])
        let mutation = try #require(actions.first?.payload(as: StoreMutation.self))
        #expect(ObjectIdentifier(mutation.storeType) == ObjectIdentifier(MutCounterStore.self))
        token.cancel()
    }

    @Test func theMiddlewareSeesTheMutationAction() throws {
        let (dispatcher, store) = try makeCounter()
        let seen = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                let storeType = action.payload(as: StoreMutation.self).map { "\($0.storeType)" } ?? "-"
                seen.append("\(action.name) \(storeType)")
                return try next(action)
            })

        try dispatcher.batch { batch in
            try batch.mutate(MutCounterStore.self) { $0.count = 10 }
            try batch.dispatch(.txnMutIncrement, payload: 1)
        }

        #expect(seen.values == ["\(AnyAction.mutationName) MutCounterStore", "txnMutIncrement -"])
        #expect(store.state.count == 11)
    }

    @Test func aMiddlewareThatDropsTheMutationKeepsItFromApplying() throws {
        let (dispatcher, store) = try makeCounter()
        let changes = Recorder<StoreChange<MutCounter>>()
        let token = store.observe { changes.append($0) }
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                action.name == AnyAction.mutationName ? [] : try next(action)
            })

        try dispatcher.batch { batch in try batch.mutate(MutCounterStore.self) { $0.count = 10 } }

        #expect(store.state.count == 0)
        #expect(changes.values.isEmpty)
        token.cancel()
    }

    @Test func theBatchListsItsActionsAsTheyReachedTheStores() throws {
        let (dispatcher, store) = try makeCounter()
        let batches = Recorder<[String]>()
        let token = store.observe { change in
            batches.append(change.action.payload(as: [AnyAction].self)?.map(\.name) ?? [])
        }
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                action.name == AnyAction.mutationName ? [] : try next(action)  // drops the first mutation
            })

        try dispatcher.batch { batch in
            try batch.mutate(MutCounterStore.self) { $0.count = 10 }
            try batch.dispatch(.txnMutIncrement, payload: 1)
        }

        #expect(batches.values == [["txnMutIncrement"]], "the dropped mutation never reached the store")
        token.cancel()
    }

    @Test func aMutationFollowedByAFailingActionIsRolledBack() throws {
        let (dispatcher, store) = try makeCounter()
        let changes = Recorder<StoreChange<MutCounter>>()
        let token = store.observe { changes.append($0) }

        #expect(throws: TestError("txnMutFail")) {
            try dispatcher.batch { batch in
                try batch.mutate(MutCounterStore.self) { $0.count = 10 }
                try batch.dispatch(.txnMutFail)
            }
        }

        #expect(store.state.count == 0)
        #expect(changes.values.isEmpty)
        token.cancel()
    }

    @Test func aThrowingMutationRollsTheBatchBackAndRethrows() throws {
        let (dispatcher, store) = try makeCounter()
        let changes = Recorder<StoreChange<MutCounter>>()
        let token = store.observe { changes.append($0) }

        #expect(throws: TestError("mutation")) {
            try dispatcher.batch { batch in
                try batch.dispatch(.txnMutIncrement, payload: 5)
                try batch.mutate(MutCounterStore.self) { state in
                    state.count = 99
                    throw TestError("mutation")
                }
            }
        }

        #expect(store.state.count == 0)
        #expect(changes.values.isEmpty)
        token.cancel()
    }

    @Test func mutatingAnUnregisteredStoreTypeThrowsStoreNotRegistered() throws {
        let (dispatcher, store) = try makeCounter()

        #expect(throws: FluxionError.storeNotRegistered("MutStrayStore")) {
            try dispatcher.batch { batch in
                try batch.dispatch(.txnMutIncrement, payload: 5)
                try batch.mutate(MutStrayStore.self) { $0.count = 1 }
            }
        }

        #expect(store.state.count == 0, "the batch rolls back")
        #expect(!dispatcher.isRegistered(MutStrayStore.self))
    }

    @Test func mutationsAndActionsApplyInTheirOrder() throws {
        let (dispatcher, store) = try makeCounter()
        let seenInside = LockedBox<[Int]>([])

        try dispatcher.batch { batch in
            try batch.mutate(MutCounterStore.self) { $0.count = 10 }
            seenInside.withValue { $0.append(store.state.count) }
            try batch.dispatch(.txnMutIncrement, payload: 1)
            seenInside.withValue { $0.append(store.state.count) }
            try batch.mutate(MutCounterStore.self) { $0.count *= 2 }
        }

        #expect(seenInside.value == [10, 11])
        #expect(store.state.count == 22)
    }

    @Test func aMutationOfAStoreNotCreatedYetCreatesIt() throws {
        let dispatcher = Dispatcher()
        let creations = LockedBox(0)
        try dispatcher.register(MutLazyStore.self) {
            creations.withValue { $0 += 1 }
            return MutLazyStore()
        }
        #expect(creations.value == 0)

        try dispatcher.batch { batch in try batch.mutate(MutLazyStore.self) { $0.count = 10 } }

        #expect(creations.value == 1)
        #expect(try dispatcher.store(MutLazyStore.self).state.count == 10)
        #expect(creations.value == 1)
    }
}
