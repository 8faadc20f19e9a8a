import Fluxion
import Testing

extension ActionName where Payload == Void {
    fileprivate static var markFirst: Self { "batchOrderMarkFirst" }
    fileprivate static var markSecond: Self { "batchOrderMarkSecond" }
}

/// Registered first; handles `.markFirst`.
private final class FirstRegisteredStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> { HandlerTable().on(.markFirst) { state, _ in state += 1 } }
}

/// Registered second; handles `.markSecond`.
private final class SecondRegisteredStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> { HandlerTable().on(.markSecond) { state, _ in state += 1 } }
}

@Suite struct DispatchBatchDeliveryOrderTests {
    /// A dispatcher with both stores, and what their observers, and the dispatcher's, hear.
    private func makeStores() throws -> (Dispatcher, Recorder<String>, ObserverOwner) {
        let dispatcher = Dispatcher()
        try dispatcher.register(FirstRegisteredStore.self)
        try dispatcher.register(SecondRegisteredStore.self)
        let heard = Recorder<String>()
        let owner = ObserverOwner()
        try dispatcher.store(FirstRegisteredStore.self).observe(owner: owner) { _, _ in heard.append("store: first") }
        try dispatcher.store(SecondRegisteredStore.self).observe(owner: owner) { _, _ in heard.append("store: second") }
        dispatcher.observe(owner: owner) { _, change in
            heard.append(change.store(as: FirstRegisteredStore.self) == nil ? "all: second" : "all: first")
        }
        return (dispatcher, heard, owner)
    }

    /// An inline mutation stages its store where the registration order puts it, as a handler's change does.
    @Test func aMutationOfALaterStoreBeforeADispatchToAnEarlierOneIsHeardInRegistrationOrder() throws {
        let (dispatcher, heard, owner) = try makeStores()

        try dispatcher.batch { batch in
            try batch.mutate(SecondRegisteredStore.self) { $0 = 5 }
            try batch.dispatch(.markFirst)
        }

        #expect(heard.values.filter { $0.hasPrefix("store") } == ["store: first", "store: second"])
        #expect(heard.values.filter { $0.hasPrefix("all") } == ["all: first", "all: second"])
        #expect(try dispatcher.store(FirstRegisteredStore.self).state == 1)
        #expect(try dispatcher.store(SecondRegisteredStore.self).state == 5)
        withExtendedLifetime(owner) {}
    }

    @Test func aMutationOfAnEarlierStoreAfterADispatchToALaterOneIsHeardInRegistrationOrder() throws {
        let (dispatcher, heard, owner) = try makeStores()

        try dispatcher.batch { batch in
            try batch.dispatch(.markSecond)
            try batch.mutate(FirstRegisteredStore.self) { $0 = 5 }
        }

        #expect(heard.values.filter { $0.hasPrefix("store") } == ["store: first", "store: second"])
        #expect(heard.values.filter { $0.hasPrefix("all") } == ["all: first", "all: second"])
        withExtendedLifetime(owner) {}
    }
}
