import Fluxion
import Testing

extension ActionName where Payload == String {
    fileprivate static var price: Self { "storeClosurePrice" }
    fileprivate static var fetch: Self { "storeClosureFetch" }
}

extension ActionName where Payload == Int? {
    fileprivate static var fetched: Self { "storeClosureFetched" }
}

/// A store whose closure handlers reach its dependency through the store they are given.
private final class PricingStore: Store<[Int]>, @unchecked Sendable {  // locked by Store; `prices` never changes
    let prices: [String: Int]

    init(prices: [String: Int]) {
        self.prices = prices
        super.init(initialState: [])
    }

    override class var handlers: Handlers {
        HandlerTable()
            .on(.price, in: PricingStore.self) { store, list, action in
                guard let price = store.prices[action.payload] else { throw TestError(action.payload) }
                list.append(price)
            }
            .on(.fetch, in: PricingStore.self, with: .effects) { store, _, action, effects in
                effects.run { [prices = store.prices] dispatcher in
                    try dispatcher.dispatch(.fetched, payload: prices[action.payload])
                }
            }
            .on(.fetched) { list, action in list.append(action.payload ?? -1) }
    }
}

/// Declares a handler for `PricingStore` in another store type's table: a mistake the dispatcher names.
private final class MisdeclaredStore: Store<[Int]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: Handlers {
        HandlerTable().on(.price, in: PricingStore.self) { _, list, _ in list.append(0) }
    }
}

@Suite(.timeLimit(.minutes(10))) struct HandlerTableStoreClosureTests {
    @Test func aClosureGivenItsStoreReachesTheStoresDependencies() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(PricingStore.self) { PricingStore(prices: ["tea": 450]) }

        try dispatcher.dispatch(.price, payload: "tea")
        #expect(throws: TestError("cake")) { try dispatcher.dispatch(.price, payload: "cake") }

        #expect(try dispatcher.store(PricingStore.self).state == [450])
    }

    @Test func aClosureGivenItsStoreCanAskForEffects() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(PricingStore.self) { PricingStore(prices: ["tea": 450]) }

        try dispatcher.dispatch(.fetch, payload: "tea")
        await dispatcher.waitUntilDrained()
        try dispatcher.dispatch(.fetch, payload: "cake")
        await dispatcher.waitUntilDrained()

        #expect(try dispatcher.store(PricingStore.self).state == [450, -1])
    }

    @Test func aClosureForAnotherStoreTypeIsAnErrorNamingBoth() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(MisdeclaredStore.self)

        #expect(
            throws: FluxionError.storeTypeMismatch(
                action: "storeClosurePrice", expected: "PricingStore", actual: "MisdeclaredStore")
        ) { try dispatcher.dispatch(.price, payload: "tea") }
    }
}
