import Fluxion

// The stores of "Designing Stores": a small shop. DesigningStoresTests.swift runs them.

// article-concerns-begin
struct Session: DefaultInitializable, Equatable, Sendable {
    var user: String?
}

extension ActionName where Payload == String {
    static var logIn: Self { "logIn" }
    static var addToCart: Self { "addToCart" }
}

extension ActionName where Payload == Void {
    static var logOut: Self { "logOut" }
}

final class SessionStore: Store<Session>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    override class var handlers: Handlers {
        HandlerTable()
            .on(.logIn) { session, action in session.user = action.payload }
            .on(.logOut) { session, _ in session.user = nil }
    }
}
// article-concerns-end

// article-cart-begin
struct CartItem: Equatable, Sendable {
    var sku: String
    var price: Int  // in cents
}

struct Cart: Equatable, Sendable {
    var items: [CartItem] = []

    var total: Int { items.reduce(0) { $0 + $1.price } }  // derived, so computed rather than stored
}
// article-cart-end

// article-factory-begin
/// The shop's prices: a dependency of the cart, handed to it by its factory.
struct PriceList: Sendable {
    var prices: [String: Int]

    func price(of sku: String) throws -> Int {
        guard let price = prices[sku] else { throw ShopError.unknownProduct(sku) }
        return price
    }
}

enum ShopError: Error, Equatable {
    case unknownProduct(String)
}

final class CartStore: Store<Cart>, @unchecked Sendable {  // state guarded by Store's lock; `prices` never changes
    let prices: PriceList

    init(prices: PriceList) {
        self.prices = prices
        super.init(initialState: Cart())
    }

    override class var handlers: Handlers {
        HandlerTable()
            .route(.addToCart, to: CartStore.add)
            .on(.logOut) { cart, _ in cart.items.removeAll() }
    }

    func add(_ cart: inout Cart, _ action: Action<String>) throws {
        cart.items.append(CartItem(sku: action.payload, price: try prices.price(of: action.payload)))
    }
}
// article-factory-end

extension ActionName where Payload == String {
    static var checkPrice: Self { "checkPrice" }
}

/// The price of the last product asked about: a closure handler that reaches the store's dependency.
final class PriceCheckStore: Store<Int?>, @unchecked Sendable {  // locked by Store; `prices` never changes
    let prices: PriceList

    init(prices: PriceList) {
        self.prices = prices
        super.init(initialState: nil)
    }

    override class var handlers: Handlers {
        HandlerTable()
            .on(.checkPrice, in: PriceCheckStore.self) { store, price, action in
                price = try store.prices.price(of: action.payload)
            }
    }
}

// article-waitFor-begin
struct Checkout: Equatable, Sendable {
    var isPossible: Bool

    /// Derived from the session and the cart: the one rule, used to start and on every change.
    init(session: Session, cart: Cart) {
        isPossible = session.user != nil && !cart.items.isEmpty
    }
}

final class CheckoutStore: Store<Checkout>, @unchecked Sendable {  // locked by Store
    init(session: Session, cart: Cart) {
        super.init(initialState: Checkout(session: session, cart: cart))
    }

    override class var handlers: Handlers {
        HandlerTable()
            .route(.logIn, to: CheckoutStore.update)
            .route(.logOut, to: CheckoutStore.update)
            .route(.addToCart, to: CheckoutStore.update)
    }

    /// Runs after the session's and the cart's handlers of the same action, and reads their new states.
    func update<Payload>(_ checkout: inout Checkout, _ action: Action<Payload>) throws {
        let session = try waitFor(SessionStore.self)
        let cart = try waitFor(CartStore.self)
        checkout = Checkout(session: session.state, cart: cart.state)
    }
}
// article-waitFor-end

// article-computed-begin
/// How many items the cart holds, and whether someone is logged in to buy them: computed, never stale.
struct BuyButton: Equatable, Sendable {
    var itemCount = 0
    var isEnabled = false
}

final class BuyButtonStore: Store<BuyButton>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: BuyButton()) }
}

/// Registers the buy button as computed from the session and the cart.
func registerBuyButton(on dispatcher: Dispatcher) throws {
    try dispatcher.register(BuyButtonStore.self, computedFrom: SessionStore.self, CartStore.self) { session, cart in
        BuyButton(itemCount: cart.items.count, isEnabled: session.user != nil && !cart.items.isEmpty)
    }
}
// article-computed-end

// article-batch-begin
/// Restores a saved session, the user and their cart, as one change of each store, or not at all.
func restoreSession(user: String, cart skus: [String], into dispatcher: Dispatcher) throws {
    try dispatcher.batch { batch in
        try batch.dispatch(.logIn, payload: user)
        for sku in skus { try batch.dispatch(.addToCart, payload: sku) }
    }
}
// article-batch-end

/// Reports the name of every action to an analytics service; changes no state.
struct AnalyticsMiddleware: Middleware {
    let track: @Sendable (String) -> Void

    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        track(action.name)
        return try next(action)
    }
}

struct Activity: DefaultInitializable, Equatable, Sendable {
    var counts: [String: Int] = [:]
}

final class ActivityStore: Store<Activity>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    override class var handlers: Handlers {
        HandlerTable().otherwise { activity, action in
            activity.counts[action.name, default: 0] += 1
        }
    }
}
