import Fluxion
import FluxionTesting
import Testing

/// The shop of "Designing Stores", run.
@Suite(.timeLimit(.minutes(10))) struct DesigningStoresTests {
    private let prices = PriceList(prices: ["tea": 450, "mug": 1_200])

    private func makeShop() throws -> Dispatcher {
        let prices = prices
        // article-register-begin
        let dispatcher = Dispatcher()
        try dispatcher.register(SessionStore.self)
        try dispatcher.register(CartStore.self) { CartStore(prices: prices) }
        try dispatcher.register(CheckoutStore.self, derivedFrom: SessionStore.self, CartStore.self) { session, cart in
            CheckoutStore(session: session, cart: cart)
        }
        // article-register-end
        return dispatcher
    }

    @Test func oneActionReachesEveryStoreThatHandlesIt() async throws {
        let test = TestDispatcher(try makeShop())
        try test.track(SessionStore.self)
        try test.track(CartStore.self)
        try test.track(CheckoutStore.self)

        try test.dispatch(.logIn, payload: "ada") { $0.modify(SessionStore.self) { $0.user = "ada" } }
        try test.dispatch(.addToCart, payload: "tea") {
            $0.modify(CartStore.self) { $0.items = [CartItem(sku: "tea", price: 450)] }
            $0.modify(CheckoutStore.self) { $0.isPossible = true }
        }
        try test.dispatch(.logOut) {
            $0.modify(SessionStore.self) { $0.user = nil }
            $0.modify(CartStore.self) { $0.items = [] }
            $0.modify(CheckoutStore.self) { $0.isPossible = false }
        }
        await test.finish()
    }

    @Test func aDerivedStoreStartsFromItsSourcesAsTheyAre() throws {
        let prices = prices
        let dispatcher = Dispatcher()
        try dispatcher.register(SessionStore.self, initialState: Session(user: "ada"))
        try dispatcher.register(CartStore.self, initialState: Cart(items: [CartItem(sku: "tea", price: 450)])) {
            CartStore(prices: prices)
        }
        try dispatcher.register(CheckoutStore.self, derivedFrom: SessionStore.self, CartStore.self) { session, cart in
            CheckoutStore(session: session, cart: cart)
        }

        #expect(try dispatcher.store(CheckoutStore.self).state.isPossible, "no action has run yet")
    }

    @Test func aClosureHandlerReachesItsStoresDependency() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(PriceCheckStore.self) { PriceCheckStore(prices: PriceList(prices: ["tea": 450])) }

        try dispatcher.dispatch(.checkPrice, payload: "tea")
        #expect(throws: ShopError.unknownProduct("cake")) { try dispatcher.dispatch(.checkPrice, payload: "cake") }

        #expect(try dispatcher.store(PriceCheckStore.self).state == 450)
    }

    @Test func aTestHandsTheCartItsOwnPrices() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(CartStore.self) { CartStore(prices: PriceList(prices: ["tea": 1])) }

        try dispatcher.dispatch(.addToCart, payload: "tea")
        #expect(throws: ShopError.unknownProduct("mug")) { try dispatcher.dispatch(.addToCart, payload: "mug") }

        #expect(try dispatcher.store(CartStore.self).state.total == 1)
    }

    @Test func aBatchCommitsAllOfItsActionsOrNone() throws {
        let dispatcher = try makeShop()
        let session = try dispatcher.store(SessionStore.self)
        let cart = try dispatcher.store(CartStore.self)
        let heard = Recorder<Int>()
        let token = cart.observe { change in heard.append(change.newState.items.count) }

        try restoreSession(user: "ada", cart: ["tea", "mug"], into: dispatcher)
        #expect(heard.values == [2], "one change for the whole batch")
        #expect(try dispatcher.store(CheckoutStore.self).state.isPossible)

        try dispatcher.dispatch(.logOut)
        #expect(throws: ShopError.unknownProduct("cake")) {
            try restoreSession(user: "ada", cart: ["tea", "cake"], into: dispatcher)
        }
        #expect(session.state.user == nil, "the log-in rolled back with the batch")
        #expect(cart.state.items.isEmpty)
        token.cancel()
    }

    @Test func theMiddlewareSeesEveryActionAndChangesNothing() throws {
        let dispatcher = try makeShop()
        let tracked = Recorder<String>()
        dispatcher.addMiddleware(AnalyticsMiddleware { name in tracked.append(name) })

        try dispatcher.dispatch(.logIn, payload: "ada")
        try dispatcher.dispatch(.addToCart, payload: "tea")

        #expect(tracked.values == ["logIn", "addToCart"])
        #expect(try dispatcher.store(CartStore.self).state.total == 450)
    }

    @Test func aCatchAllReducerTakesEveryActionSoNoneIsADeadLetter() throws {
        let dispatcher = try makeShop()
        try dispatcher.register(ActivityStore.self)

        try dispatcher.dispatch(.logIn, payload: "ada")
        try dispatcher.dispatch(AnyAction(name: "somethingNoStoreNames"))
        try dispatcher.dispatch(.logIn, payload: "grace")

        #expect(try dispatcher.store(ActivityStore.self).state.counts == ["logIn": 2, "somethingNoStoreNames": 1])
        #expect(dispatcher.deadLetterCount == 0)
    }

    @Test func aComputedStoreFollowsEveryActionOfItsSources() throws {
        let dispatcher = try makeShop()
        try registerBuyButton(on: dispatcher)
        let button = try dispatcher.store(BuyButtonStore.self)
        #expect(button.state == BuyButton())

        try dispatcher.dispatch(.addToCart, payload: "tea")
        #expect(button.state == BuyButton(itemCount: 1, isEnabled: false))
        try dispatcher.dispatch(.logIn, payload: "ada")
        #expect(button.state == BuyButton(itemCount: 1, isEnabled: true))
        try dispatcher.dispatch(.logOut)  // NB: it empties the cart too
        #expect(button.state == BuyButton())
    }

    @Test func theArticleShowsThisCode() throws {
        try ArticleCode.expect(
            article: "DesigningStores",
            holdsTheRegionsOf: ["DesigningStoresModel.swift", "DesigningStoresTests.swift"],
            named: ["concerns", "cart", "factory", "waitFor", "computed", "batch", "register"])
    }
}
