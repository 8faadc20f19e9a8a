import Fluxion
import Testing

struct Thermostat: DefaultInitializable, Equatable, Sendable {
    var celsius = 19
}

extension ActionName where Payload == Int {
    fileprivate static var warm: Self { "defaultInitWarm" }
}

/// A minimal store: no initializer of its own, its table named through `Handlers`.
final class ThermostatStore: Store<Thermostat>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    override class var handlers: Handlers {
        HandlerTable().on(.warm) { state, action in state.celsius += action.payload }
    }
}

/// A store over the same state that starts elsewhere: its own `init()` wins.
final class WarmThermostatStore: Store<Thermostat>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Thermostat(celsius: 25)) }
}

/// A store that needs a dependency: no `init()` is inherited, it registers with a factory.
final class OffsetThermostatStore: Store<Thermostat>, @unchecked Sendable {  // locked by Store
    init(offset: Int) { super.init(initialState: Thermostat(celsius: 19 + offset)) }
}

@Suite struct DefaultInitializableTests {
    @Test func aStoreOverADefaultInitializableStateInheritsInitStartingFromStateInit() {
        #expect(ThermostatStore().state == Thermostat())
    }

    @Test func theDispatcherCreatesAMinimalStoreAndRunsItsHandlers() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(ThermostatStore.self)

        try dispatcher.dispatch(.warm, payload: 2)

        #expect(try dispatcher.store(ThermostatStore.self).state.celsius == 21)
    }

    @Test func aMinimalStoreCanBeSeeded() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(ThermostatStore.self, initialState: Thermostat(celsius: 5))

        #expect(try dispatcher.store(ThermostatStore.self).state.celsius == 5)
    }

    @Test func aStoresOwnInitWinsOverTheInheritedOne() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(WarmThermostatStore.self)

        #expect(try dispatcher.store(WarmThermostatStore.self).state.celsius == 25)
    }

    @Test func aStoreWithDependenciesRegistersWithAFactory() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(OffsetThermostatStore.self) { OffsetThermostatStore(offset: 3) }

        #expect(try dispatcher.store(OffsetThermostatStore.self).state.celsius == 22)
    }

    @Test func handlersIsTheStoresHandlerTableType() {
        #expect(ThermostatStore.Handlers.self == HandlerTable<Thermostat>.self)
    }
}
