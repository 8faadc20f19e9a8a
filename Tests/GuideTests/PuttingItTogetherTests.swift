import Fluxion
import FluxionTesting
import Testing

private let tea = Product(id: "tea", price: 450)
private let mug = Product(id: "mug", price: 1_200)

extension Catalog {
    /// A fake catalogue: the products whose id starts with the query.
    static let fake = Catalog { query in [tea, mug].filter { $0.id.hasPrefix(query) } }
}

/// A shop whose search, saved basket, derived total, badge and time travel run together: the parts
/// the guides show one at a time (the article "Putting It Together" was folded into Building the Todo App).
@Suite(.timeLimit(.minutes(10))) struct PuttingItTogetherTests {
    @Test func searchingAndFillingTheBasket() async throws {
        let test = TestDispatcher()
        try ShopApp.register(in: test.dispatcher, catalog: .fake, storage: InMemoryStateStorage(), clock: test.clock)
        try test.track(ProductSearchStore.self)
        try test.track(BasketStore.self)
        try test.track(BasketTotalStore.self)

        try test.dispatch(.searchProducts, payload: "te") {
            $0.modify(ProductSearchStore.self) {
                $0.query = "te"
                $0.isLoading = true
            }
        }
        await test.clock.advance(by: .milliseconds(300))
        try await test.receive(.productsFound, payload: [tea]) {
            $0.modify(ProductSearchStore.self) {
                $0.results = [tea]
                $0.isLoading = false
            }
        }

        try test.dispatch(.addToBasket, payload: tea) {
            $0.modify(BasketStore.self) { $0.products = [tea] }
            $0.modify(BasketTotalStore.self) { $0 = BasketTotal(Basket(products: [tea])) }
        }
        #expect(throws: BasketError.alreadyInBasket("tea")) {
            try test.dispatch(.addToBasket, payload: tea)  // refused: no store changes
        }
        await test.finish()
    }

    @Test func typingAgainCancelsTheSearchUnderWay() async throws {
        let test = TestDispatcher(exhaustivity: .off)
        try ShopApp.register(in: test.dispatcher, catalog: .fake, storage: InMemoryStateStorage(), clock: test.clock)

        try test.dispatch(.searchProducts, payload: "t")
        await test.clock.advance(by: .milliseconds(200))
        try test.dispatch(.searchProducts, payload: "m")
        await test.clock.advance(by: .milliseconds(300))
        try await test.receive(.productsFound, payload: [mug])
        await test.finish()
    }

    @Test func theBadgeIsToldOnlyWhenTheCountChanges() throws {
        let app = try ShopApp(catalog: .fake, storage: InMemoryStateStorage())
        let shown = Recorder<Int>()
        let badge = BasketBadge(totals: try app.dispatcher.store(BasketTotalStore.self)) { count in
            shown.append(count)
        }
        badge.startShowing()

        try app.dispatcher.dispatch(.addToBasket, payload: tea)
        try app.dispatcher.dispatch(.searchProducts, payload: "mu")  // not the basket: the badge hears nothing
        try app.dispatcher.dispatch(.addToBasket, payload: mug)
        #expect(shown.values == [0, 1, 2])
        app.dispatcher.cancelAllTasks()
    }

    @Test func quittingInThePastKeepsThePresentAndTheTotalStartsFromIt() async throws {
        let storage = InMemoryStateStorage()
        let app = try ShopApp(catalog: .fake, storage: storage)
        try app.dispatcher.dispatch(.addToBasket, payload: tea)
        try app.dispatcher.dispatch(.addToBasket, payload: mug)

        try app.journal.stepBack()  // the stores show the basket with tea alone
        await app.dispatcher.shutdown()  // the app quits here: the present is saved, not the past

        let reopened = try ShopApp(catalog: .fake, storage: storage)
        let total = try reopened.dispatcher.store(BasketTotalStore.self).state  // derived from the restored basket
        // total.count == 2, total.cents == 1_650
        #expect(try app.dispatcher.store(BasketStore.self).state.products == [tea])
        #expect(try reopened.dispatcher.store(BasketStore.self).state.products == [tea, mug])
        #expect(total == BasketTotal(Basket(products: [tea, mug])))
        #expect(total.count == 2 && total.cents == 1_650)
    }
}
