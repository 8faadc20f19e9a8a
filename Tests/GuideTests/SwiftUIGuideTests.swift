import Dispatch
import Fluxion
import Observation
import Testing

/// What the SwiftUI and UIKit views of "Using Fluxion with SwiftUI and UIKit" rely on, run on Linux:
/// Observation tells a view only of the values it read, and main-actor observers hear each change.
@Suite(.timeLimit(.minutes(10))) struct SwiftUIGuideTests {
    @Test func aBodyIsToldOnlyWhenAValueItReadChanges() throws {
        let model = try AppModel.live()
        let told = Recorder<String>()
        withObservationTracking {
            _ = (model.settings.title, model.counter.count, model.settings.step)  // what CounterView's body reads
        } onChange: {
            told.append("CounterView")
        }
        try? model.dispatcher.dispatch(.decrement, payload: 1)  // refused, so nothing changed: not told
        try model.dispatcher.dispatch(.setTitle, payload: "Count")  // the same title: not told
        #expect(told.values.isEmpty)

        try model.dispatcher.dispatch(.increment, payload: 1)  // the count changed: told
        #expect(told.values == ["CounterView"])
    }

    @Test func aValueReadThroughTheStoreIgnoresTheStatesOtherValues() throws {
        let model = try AppModel.live()
        let told = Recorder<String>()
        withObservationTracking {
            _ = model.settings.countsByTen  // what the binding's `get` reads
        } onChange: {
            told.append("countsByTen")
        }
        withObservationTracking {
            _ = model.settings.state.countsByTen  // the whole state
        } onChange: {
            told.append("state")
        }

        try model.dispatcher.dispatch(.setTitle, payload: "Laps")

        #expect(told.values == ["state"])
    }

    @Test func theBindingsSetterIsADispatch() throws {
        let model = try AppModel.live()
        try model.dispatcher.dispatch(.setCountsByTen, payload: true)  // what `set` does with the toggle's value
        #expect(model.settings.countsByTen)
        #expect(model.settings.step == 10)
    }

    @Test func aPreviewModelStartsFromTheSeededStates() throws {
        let model = try AppModel.preview(count: 41, settings: CounterSettings(countsByTen: true))
        #expect(model.counter.count == 41)
        #expect(model.settings.step == 10)
        try model.dispatcher.dispatch(.increment, payload: model.settings.step)
        #expect(model.counter.count == 51)
    }

    @Test @MainActor func aMainActorObserverHearsTheCurrentStateThenEachChange() async throws {
        let model = try AppModel.preview(count: 41)
        let screen = CounterScreen()
        model.counter.observeOnMainActor(owner: screen, sendingCurrentState: true) { screen, change in
            screen.text = "\(change.newState.count)"  // as CounterViewController sets its label
        }
        await drainMainQueue()
        #expect(screen.text == "41")

        await Task.detached { try? model.dispatcher.dispatch(.increment, payload: 1) }.value
        await drainMainQueue()
        #expect(screen.text == "42")
    }

    @Test func theArticleShowsThisCode() throws {
        try ArticleCode.expect(
            article: "UsingFluxionWithSwiftUIAndUIKit",
            holdsTheRegionsOf: ["SwiftUIGuideModel.swift", "SwiftUIGuideViews.swift", "SwiftUIGuideTests.swift"],
            named: [
                "settings", "model", "previewModel", "environment", "counterView", "binding", "settingsView", "app",
                "preview", "uikit",
            ])
    }
}

/// A main-actor screen without UIKit, standing in for `CounterViewController`.
@MainActor private final class CounterScreen {
    var text = ""
}

/// Waits on the main queue for every call queued on it before this one.
@MainActor private func drainMainQueue() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
    }
}
