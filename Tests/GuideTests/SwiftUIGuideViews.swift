// The SwiftUI and UIKit code of "Using Fluxion with SwiftUI and UIKit". It compiles where SwiftUI
// (or UIKit) exists, on Apple platforms only; on Linux these regions are checked against the
// article as text, and SwiftUIGuideTests.swift runs what Observation and the main actor do for them.

#if canImport(SwiftUI)
import Fluxion
import SwiftUI

// article-environment-begin
private struct DispatcherKey: EnvironmentKey {
    static let defaultValue = Dispatcher.shared
}

extension EnvironmentValues {
    var dispatcher: Dispatcher {
        get { self[DispatcherKey.self] }
        set { self[DispatcherKey.self] = newValue }
    }
}
// article-environment-end

// article-counterView-begin
struct CounterView: View {
    let counter: CounterStore
    let settings: SettingsStore
    @Environment(\.dispatcher) private var dispatcher

    var body: some View {
        VStack {
            Text("\(settings.title): \(counter.count)")  // this view follows `title` and `count` alone
            HStack {
                Button("−\(settings.step)") { dispatcher.send(.decrement, payload: settings.step) }
                    .disabled(counter.count < settings.step)
                Button("+\(settings.step)") { dispatcher.send(.increment, payload: settings.step) }
            }
        }
    }
}
// article-counterView-end

// article-binding-begin
extension Dispatcher {
    /// A binding to one value of a store's state: read through the store, so that Observation
    /// follows that value alone, and written by dispatching `action` with the new value.
    func binding<State, Value: Sendable>(
        _ store: Store<State>,
        _ value: KeyPath<State, Value> & Sendable,
        dispatching action: ActionName<Value>
    ) -> Binding<Value> {
        Binding(
            get: { store[dynamicMember: value] },
            set: { newValue in self.send(action, payload: newValue) }
        )
    }
}
// article-binding-end

// article-settingsView-begin
struct SettingsView: View {
    let settings: SettingsStore
    @Environment(\.dispatcher) private var dispatcher

    var body: some View {
        Form {
            TextField("Title", text: dispatcher.binding(settings, \.title, dispatching: .setTitle))
            Toggle("Count by ten", isOn: dispatcher.binding(settings, \.countsByTen, dispatching: .setCountsByTen))
        }
    }
}
// article-settingsView-end

// article-app-begin
struct CounterApp: App {  // mark it @main in your app
    let model = try! AppModel.live()

    var body: some Scene {
        WindowGroup {
            VStack {
                CounterView(counter: model.counter, settings: model.settings)
                SettingsView(settings: model.settings)
            }
            .environment(\.dispatcher, model.dispatcher)
        }
    }
}
// article-app-end

// article-preview-begin
struct CounterViewPreviews: PreviewProvider {
    static let model = try! AppModel.preview(count: 41, settings: CounterSettings(countsByTen: true))

    static var previews: some View {
        CounterView(counter: model.counter, settings: model.settings)
            .environment(\.dispatcher, model.dispatcher)
    }
}
// article-preview-end
#endif

#if canImport(UIKit) && !os(watchOS)
import Fluxion
import UIKit

// article-uikit-begin
final class CounterViewController: UIViewController {
    private let counter: CounterStore
    private let dispatcher: Dispatcher
    private let countLabel = UILabel()

    init(counter: CounterStore, dispatcher: Dispatcher) {
        self.counter = counter
        self.dispatcher = dispatcher
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { fatalError("init(coder:) is not supported") }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(countLabel)
        // On the main actor whatever thread dispatched, first with the current count, until the controller goes.
        counter.observeOnMainActor(owner: self, sendingCurrentState: true) { controller, change in
            controller.countLabel.text = "\(change.newState.count)"
        }
    }

    @objc func increaseTapped() {
        dispatcher.send(.increment, payload: 1)
    }
}
// article-uikit-end
#endif
