// A shop: a product search, a basket and its total, with effects, persistence and time travel.
// PuttingItTogetherTests.swift runs it.

import Fluxion
import Observation

struct Product: Codable, Equatable, Sendable {
    var id: String
    var price: Int  // in cents
}

/// The product catalogue: a server in the app, a fake in tests.
struct Catalog: Sendable {
    var search: @Sendable (String) async throws -> [Product]
}

enum BasketError: Error, Equatable {
    case alreadyInBasket(String)
}

extension ActionName where Payload == String {
    static var searchProducts: Self { "searchProducts" }
    static var removeFromBasket: Self { "removeFromBasket" }
}

extension ActionName where Payload == [Product]? {
    static var productsFound: Self { "productsFound" }  // the results, or the error with `nil`
}

extension ActionName where Payload == Product {
    static var addToBasket: Self { "addToBasket" }
}

struct ProductSearch: Equatable, Sendable {
    var query = ""
    var results: [Product] = []
    var isLoading = false
}

final class ProductSearchStore: Store<ProductSearch>, @unchecked Sendable {  // locked by Store; the rest never changes
    let catalog: Catalog
    let clock: any Clock<Duration>

    init(catalog: Catalog, clock: any Clock<Duration>) {
        self.catalog = catalog
        self.clock = clock
        super.init(initialState: ProductSearch())
    }

    override class var handlers: Handlers {
        HandlerTable()
            .on(.searchProducts, in: ProductSearchStore.self, with: .effects) { store, search, action, effects in
                search.query = action.payload
                search.isLoading = true
                let (catalog, clock, query) = (store.catalog, store.clock, action.payload)
                effects.run(id: "search", cancelInFlight: true) { dispatcher in
                    try await clock.sleep(for: .milliseconds(300))  // the next keystroke cancels it meanwhile
                    do {
                        try dispatcher.dispatch(.productsFound, result: .success(try await catalog.search(query)))
                    } catch let error where !(error is CancellationError) {
                        try dispatcher.dispatch(.productsFound, result: .failure(error))  // shown, not lost
                    }
                }
            }
            .on(.productsFound) { search, action in
                search.results = action.payload ?? []
                search.isLoading = false
            }
    }
}

struct Basket: Codable, Equatable, Sendable {
    var products: [Product] = []
}

final class BasketStore: Store<Basket>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Basket()) }

    override class var handlers: Handlers {
        HandlerTable()
            .on(.addToBasket) { basket, action in
                guard !basket.products.contains(action.payload) else {
                    throw BasketError.alreadyInBasket(action.payload.id)  // refused: nothing changes
                }
                basket.products.append(action.payload)
            }
            .on(.removeFromBasket) { basket, action in basket.products.removeAll { $0.id == action.payload } }
    }
}

struct BasketTotal: Equatable, Sendable {
    var count: Int
    var cents: Int

    init(_ basket: Basket) {
        count = basket.products.count
        cents = basket.products.reduce(0) { $0 + $1.price }
    }
}

/// Derived from the basket: it starts from the basket as restored, then follows it.
final class BasketTotalStore: Store<BasketTotal>, @unchecked Sendable {  // locked by Store
    init(basket: Basket) { super.init(initialState: BasketTotal(basket)) }

    override class var handlers: Handlers {
        HandlerTable()
            .route(.addToBasket, to: BasketTotalStore.recount)
            .route(.removeFromBasket, to: BasketTotalStore.recount)
    }

    func recount<Payload>(_ total: inout BasketTotal, _ action: Action<Payload>) throws {
        total = BasketTotal(try waitFor(BasketStore.self).state)
    }
}

final class ShopApp: Sendable {
    let dispatcher: Dispatcher
    let journal: Journal

    init(catalog: Catalog, storage: any StateStorage, clock: any Clock<Duration> = ContinuousClock()) throws {
        dispatcher = Dispatcher()
        try Self.register(in: dispatcher, catalog: catalog, storage: storage, clock: clock)
        journal = try Journal(recording: dispatcher)  // for time travel; `writingTo:` would keep a file
    }

    /// The stores, registered: the tests use it with their own dispatcher and clock.
    static func register(
        in dispatcher: Dispatcher, catalog: Catalog, storage: any StateStorage, clock: any Clock<Duration>
    ) throws {
        try dispatcher.register(ProductSearchStore.self) { ProductSearchStore(catalog: catalog, clock: clock) }
        try dispatcher.register(BasketStore.self, persistence: Persistence(storage: storage, key: "basket"))
        try dispatcher.register(BasketTotalStore.self, derivedFrom: BasketStore.self) { basket in
            BasketTotalStore(basket: basket)
        }
    }
}

/// The basket's badge: told only when the count changes, not for the total or a search.
final class BasketBadge: Sendable {
    let totals: BasketTotalStore
    let show: @Sendable (Int) -> Void

    init(totals: BasketTotalStore, show: @escaping @Sendable (Int) -> Void) {
        self.totals = totals
        self.show = show
    }

    func startShowing() {
        withObservationTracking {
            show(totals.count)
        } onChange: { [self] in
            startShowing()  // `onChange` fires once: track again
        }
    }
}
