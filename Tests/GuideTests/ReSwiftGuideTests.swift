import Fluxion
import Testing

// The Fluxion side of "Migrating from ReSwift". The counter itself is Getting Started's
// (GettingStartedTests.swift) and its view controller the UIKit guide's (SwiftUIGuideViews.swift):
// the article shows those regions too, and the test below checks them.

// article-port-begin
/// A ReSwift reducer ported as it is: one function over the whole state, switching on the action's name.
final class PortedCounterStore: Store<Counter>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    override class var handlers: Handlers {
        HandlerTable().otherwise { state, action in
            switch action.name {
            case "CounterActionIncrease": state.count += 1
            case "CounterActionDecrease": state.count -= 1
            default: break
            }
        }
    }
}
// article-port-end

@Suite struct ReSwiftGuideTests {
    @Test func aPortedReducerTakesTheOldActionsByName() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(PortedCounterStore.self)
        // article-portDispatch-begin
        try dispatcher.dispatch(AnyAction(name: "CounterActionIncrease"))
        // article-portDispatch-end
        try dispatcher.dispatch(AnyAction(name: "CounterActionIncrease"))
        try dispatcher.dispatch(AnyAction(name: "CounterActionDecrease"))
        try dispatcher.dispatch(.increment, payload: 5)  // another name: the reducer's `default`

        #expect(try dispatcher.store(PortedCounterStore.self).count == 1)
    }

    @Test func aSelectingObserverHearsOnlyItsValue() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(CounterStore.self)
        let counter = try dispatcher.store(CounterStore.self)
        let label = CounterLabel()
        let heard = Recorder<Int>()
        counter.observe(owner: label, \.count) { label, count in
            label.show(count.newValue)  // only when the count changed; count.oldValue is the one before
        }
        counter.observe(owner: label, \.count) { _, count in heard.append(count.newValue) }

        try dispatcher.dispatch(.increment, payload: 2)
        try dispatcher.dispatch(.reset)
        try dispatcher.dispatch(.reset)  // no change: not heard
        try? dispatcher.dispatch(.decrement, payload: 1)  // refused: not heard

        #expect(heard.values == [2, 0])
        withExtendedLifetime(label) {}
    }

    @Test func theArticleShowsThisCode() throws {
        try ArticleCode.expect(
            article: "MigratingFromReSwift", holdsTheRegionsOf: ["ReSwiftGuideTests.swift"],
            named: ["port", "portDispatch"])
        try ArticleCode.expect(
            article: "MigratingFromReSwift", holdsRegions: ["store"], of: "GettingStartedTests.swift")
    }
}
