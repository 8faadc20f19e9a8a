import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var lazyPing: Self { "lazyPing" }
    fileprivate static var lazyOther: Self { "lazyOther" }
}

extension ActionName where Payload == Void {
    fileprivate static var lazyNobody: Self { "lazyNobody" }
}

/// Handles `.lazyPing` only.
final class LazyPingStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.lazyPing) { state, action in state.add(action.payload) }
    }
}

/// Handles `.lazyOther` only.
final class LazyOtherStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.lazyOther) { state, action in state.add(action.payload) }
    }
}

/// Created by a factory that asks for this same store.
final class LazyRecursiveStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.lazyPing) { state, action in state.add(action.payload) }
    }
}

/// Depends on ``LazyPingStore``, which its factory asks the dispatcher for.
final class LazyDependentStore: Store<Tally>, @unchecked Sendable {  // locked by Store
    let ping: LazyPingStore

    init(ping: LazyPingStore) {
        self.ping = ping
        super.init(initialState: Tally())
    }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.lazyOther) { state, action in state.add(action.payload) }
    }
}

/// A store type with a subclass, for registering a subclass through the superclass's metatype.
class LazyBaseStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    required init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.lazyPing) { state, action in state.add(action.payload) }
    }
}

final class LazySubStore: LazyBaseStore, @unchecked Sendable {}  // locked by Store

@Suite struct DispatcherStoreCreationTests {
    @Test func registeringDoesNotCreateTheStore() throws {
        let creations = LockedBox(0)
        let dispatcher = Dispatcher()

        try dispatcher.register(LazyPingStore.self) {
            creations.withValue { $0 += 1 }
            return LazyPingStore()
        }

        #expect(creations.value == 0)
        #expect(dispatcher.isRegistered(LazyPingStore.self))
        #expect(creations.value == 0)
    }

    @Test func dispatchingANameTheStoreDoesNotHandleDoesNotCreateIt() throws {
        let creations = LockedBox(0)
        let dispatcher = Dispatcher()
        try dispatcher.register(LazyPingStore.self) {
            creations.withValue { $0 += 1 }
            return LazyPingStore()
        }
        try dispatcher.register(LazyOtherStore.self)

        try dispatcher.dispatch(.lazyOther, payload: 1)
        try dispatcher.dispatch(.lazyNobody)
        try dispatcher.dispatch(AnyAction(name: "lazyUnknown", payload: 3))

        #expect(creations.value == 0)
    }

    @Test func theFirstStoreAccessCreatesTheStoreOnce() throws {
        let creations = LockedBox(0)
        let dispatcher = Dispatcher()
        try dispatcher.register(LazyPingStore.self) {
            creations.withValue { $0 += 1 }
            return LazyPingStore()
        }

        let first = try dispatcher.store(LazyPingStore.self)
        #expect(creations.value == 1)

        let second = try dispatcher.store(LazyPingStore.self)
        try dispatcher.dispatch(.lazyPing, payload: 2)

        #expect(first === second)
        #expect(creations.value == 1)
        #expect(first.state.total == 2)
        #expect(first.dispatcher === dispatcher)
    }

    @Test func theFirstDispatchOfAHandledNameCreatesTheStoreOnce() throws {
        let creations = LockedBox(0)
        let dispatcher = Dispatcher()
        try dispatcher.register(LazyPingStore.self) {
            creations.withValue { $0 += 1 }
            return LazyPingStore()
        }

        try dispatcher.dispatch(.lazyPing, payload: 5)
        #expect(creations.value == 1)

        try dispatcher.dispatch(.lazyPing, payload: 6)
        let store = try dispatcher.store(LazyPingStore.self)

        #expect(creations.value == 1)
        #expect(store.state == Tally(total: 11, calls: 2, payloads: [5, 6]))
    }

    @Test func aFactoryAskingForItsOwnStoreGetsRecursiveStoreCreation() throws {
        let errors = Recorder<FluxionError>()
        let creations = LockedBox(0)
        let dispatcher = Dispatcher()
        try dispatcher.register(LazyRecursiveStore.self) { [weak dispatcher] in
            creations.withValue { $0 += 1 }
            do {
                _ = try dispatcher?.store(LazyRecursiveStore.self)
            } catch let error as FluxionError {
                errors.append(error)
            } catch {
                Issue.record(error)
            }
            return LazyRecursiveStore()
        }

        let store = try dispatcher.store(LazyRecursiveStore.self)

        #expect(errors.values == [.recursiveStoreCreation("LazyRecursiveStore")])
        #expect(creations.value == 1)
        #expect(try dispatcher.store(LazyRecursiveStore.self) === store)
    }

    @Test func aFactoryAskingForItsOwnStoreDuringADispatchGetsRecursiveStoreCreation() throws {
        let errors = Recorder<FluxionError>()
        let dispatcher = Dispatcher()
        try dispatcher.register(LazyRecursiveStore.self) { [weak dispatcher] in
            let again = try? dispatcher?.store(LazyRecursiveStore.self)
            if again == nil { errors.append(.recursiveStoreCreation("recorded by try?")) }
            return LazyRecursiveStore()
        }

        try dispatcher.dispatch(.lazyPing, payload: 1)

        #expect(errors.count == 1)
        #expect(try dispatcher.store(LazyRecursiveStore.self).state.total == 1)
        #expect(errors.count == 1)
    }

    @Test func aFactoryCanAskForAnotherStore() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(LazyPingStore.self)
        try dispatcher.register(LazyDependentStore.self) { [weak dispatcher] in
            // The test fails below if the dependency is not the dispatcher's store.
            let ping = (try? dispatcher?.store(LazyPingStore.self)) ?? LazyPingStore()
            return LazyDependentStore(ping: ping)
        }

        try dispatcher.dispatch(.lazyOther, payload: 1)

        #expect(try dispatcher.store(LazyDependentStore.self).ping === dispatcher.store(LazyPingStore.self))
        #expect(try dispatcher.store(LazyDependentStore.self).state.total == 1)
    }

    @Test func aSubclassPassedAsItsSuperclassMetatypeIsRefused() throws {
        let dispatcher = Dispatcher()
        let type: LazyBaseStore.Type = LazySubStore.self

        #expect(throws: FluxionError.storeTypeUpcast("LazySubStore", as: "LazyBaseStore")) {
            try dispatcher.register(type)
        }
        #expect(throws: FluxionError.storeTypeUpcast("LazySubStore", as: "LazyBaseStore")) {
            try dispatcher.register(type) { LazyBaseStore() }
        }
        #expect(!dispatcher.isRegistered(LazySubStore.self))
        #expect(!dispatcher.isRegistered(LazyBaseStore.self))
    }

    @Test func aStoreTypeIsLookedUpByItsStaticType() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(LazySubStore.self)
        let type: LazyBaseStore.Type = LazySubStore.self

        #expect(throws: FluxionError.storeNotRegistered("LazyBaseStore")) { try dispatcher.store(type) }
        #expect(!dispatcher.isRegistered(type))
        #expect(!dispatcher.unregister(type))
        #expect(dispatcher.isRegistered(LazySubStore.self))
    }

    @Test func aFactoryReturningAStoreAnotherDispatcherOwnsIsRefused() throws {
        let shared = LazyPingStore()
        let first = Dispatcher()
        let second = Dispatcher()
        try first.register(LazyPingStore.self) { shared }
        try second.register(LazyPingStore.self) { shared }
        _ = try first.store(LazyPingStore.self)

        #expect(throws: FluxionError.storeAlreadyOwned("LazyPingStore")) {
            try second.store(LazyPingStore.self)
        }
        #expect(throws: FluxionError.storeAlreadyOwned("LazyPingStore")) {
            try second.dispatch(.lazyPing, payload: 1)
        }
        try first.dispatch(.lazyPing, payload: 2)

        #expect(shared.dispatcher === first)
        #expect(shared.state.payloads == [2])
        #expect(!second.isDispatching)
    }
}
