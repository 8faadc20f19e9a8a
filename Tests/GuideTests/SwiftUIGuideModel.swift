import Fluxion

// The Linux part of "Using Fluxion with SwiftUI and UIKit": the settings store and the app's model,
// which the views in SwiftUIGuideViews.swift read and the tests in SwiftUIGuideTests.swift run.

// article-settings-begin
struct CounterSettings: DefaultInitializable, Equatable, Sendable {
    var title = "Count"
    var countsByTen = false

    var step: Int { countsByTen ? 10 : 1 }
}

extension ActionName where Payload == String {
    static var setTitle: Self { "setTitle" }
}

extension ActionName where Payload == Bool {
    static var setCountsByTen: Self { "setCountsByTen" }
}

final class SettingsStore: Store<CounterSettings>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    override class var handlers: Handlers {
        HandlerTable()
            .on(.setTitle) { state, action in state.title = action.payload }
            .on(.setCountsByTen) { state, action in state.countsByTen = action.payload }
    }
}
// article-settings-end

// article-model-begin
/// The app's dispatcher and the stores its views read: made once, at launch, and handed down.
final class AppModel: Sendable {
    let dispatcher: Dispatcher
    let counter: CounterStore
    let settings: SettingsStore

    /// Wraps a dispatcher whose store types are registered.
    init(dispatcher: Dispatcher) throws {
        self.dispatcher = dispatcher
        counter = try dispatcher.store(CounterStore.self)
        settings = try dispatcher.store(SettingsStore.self)
    }

    /// The app's model: every store from its initial state.
    static func live() throws -> AppModel {
        let dispatcher = Dispatcher()
        try dispatcher.register(CounterStore.self)
        try dispatcher.register(SettingsStore.self)
        return try AppModel(dispatcher: dispatcher)
    }
}
// article-model-end

// article-previewModel-begin
extension AppModel {
    /// A model for previews: the stores seeded with the states to show.
    static func preview(count: Int = 41, settings: CounterSettings = CounterSettings()) throws -> AppModel {
        let dispatcher = Dispatcher()
        try dispatcher.register(CounterStore.self, initialState: Counter(count: count))
        try dispatcher.register(SettingsStore.self, initialState: settings)
        return try AppModel(dispatcher: dispatcher)
    }
}
// article-previewModel-end
