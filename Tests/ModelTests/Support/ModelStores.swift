import Fluxion

/// The state of the model's `Codable` stores: the tags of the steps that reached them, in order.
struct Items: Codable, Equatable, Sendable, DefaultInitializable, ItemList {
    var items: [Int] = []
}

/// The state of the model's store that is not `Codable`: its journal steps cannot be written as JSON.
struct OpaqueItems: Equatable, Sendable, DefaultInitializable, ItemList {
    var items: [Int] = []
}

/// What the model reads of every store's state.
protocol ItemList: Sendable {
    var items: [Int] { get set }
}

final class StoreA: Store<Items>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    override class var handlers: Handlers {
        HandlerTable().on(.op, in: StoreA.self, with: .effects) { store, state, action, effects in
            try ModelHandler.handle(0, store: store, state: &state.items, action.payload, action.error, effects)
        }
    }
}

final class StoreB: Store<Items>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    override class var handlers: Handlers {
        HandlerTable().on(.op, in: StoreB.self, with: .effects) { store, state, action, effects in
            try ModelHandler.handle(1, store: store, state: &state.items, action.payload, action.error, effects)
        }
    }
}

final class StoreC: Store<Items>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    override class var handlers: Handlers {
        HandlerTable().on(.op, in: StoreC.self, with: .effects) { store, state, action, effects in
            try ModelHandler.handle(2, store: store, state: &state.items, action.payload, action.error, effects)
        }
    }
}

final class StoreD: Store<OpaqueItems>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    override class var handlers: Handlers {
        HandlerTable().on(.op, in: StoreD.self, with: .effects) { store, state, action, effects in
            try ModelHandler.handle(3, store: store, state: &state.items, action.payload, action.error, effects)
        }
    }
}

/// Computed from stores A and B: their items, A's first (`Derivation.e`). It has no handler: the dispatcher
/// computes it inside every step that changes A or B. F and G, computed too, are in `ComputedModelStores.swift`.
final class StoreE: Store<Items>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    /// Registers it on `dispatcher`, computed from A and B.
    static func register(on dispatcher: Dispatcher) throws {
        try dispatcher.register(StoreE.self, computedFrom: StoreA.self, StoreB.self) { a, b in
            Items(items: Derivation.e(a.items, b.items))
        }
    }
}

/// The one handler of every model store, told which store it runs for.
enum ModelHandler {
    static let storeNames = ["StoreA", "StoreB", "StoreC", "StoreD", "StoreE", "StoreF", "StoreG", "StoreH"]

    /// The order the stores' handlers run in for `command`, given the stores in registration order (a store
    /// registered again comes last): registration order, but for store 0 waiting for store 2 first.
    static func order(_ command: Command, registered: [Int] = Array(0..<ModelStoreSet.count)) -> [Int] {
        var order = registered.filter { $0 < 4 }
        if command.waits, let c = order.firstIndex(of: 2), let a = order.firstIndex(of: 0), c > a {
            order.remove(at: c)
            order.insert(2, at: a)
        }
        return order
    }

    /// Appends the command's tag (`-tag` when the action carries the command's ``ModelFailure``: the
    /// failure handler), or edits the state as the command says, and does what the command says.
    static func handle<S: AnyObject>(
        _ index: Int, store: S, state: inout [Int], _ command: Command, _ error: (any Error)?, _ effects: Effects
    ) throws where S: StoreWaiting {
        if index == 0, command.waits { try store.waitForStoreC() }
        if command.throwsIn == index { throw Rejected(tag: command.tag) }
        guard let dispatcher = store.dispatcher, let context = ProgramContext.of(dispatcher) else { return }
        if command.readsIn == index {
            let states = dispatcher.read { ModelStoreSet.states(of: dispatcher) }
            context.noteRead(by: "\(storeNames[index])'s handler", states)
        }
        guard command.touches.contains(index) else { return }
        let value = (error as? ModelFailure)?.tag == command.tag ? -command.tag : command.tag
        command.edit.apply(to: &state, value: context.divergence == index ? value + 1_000 : value)
        let touched = order(command, registered: context.registered).filter(command.touches.contains)
        if touched.first == index {
            context.keepEffects(effects)
            for follow in command.then {
                switch follow {
                case .dispatch(let next): try dispatcher.dispatch(.op, payload: next, error: next.error)
                case .effect(let plan): context.ask(effects, for: plan)
                case .cancel(let id): effects.cancel(id: id)
                case .cancelFromAnotherThread(let id): context.cancelFromAnotherThread(id, on: dispatcher)
                }
            }
            context.pauseIfInFlight(command)
        }
        if command.reusesEffects, touched.count > 1, touched.last == index, let kept = context.keptEffects {
            context.ask(kept, for: TaskPlan(id: "late", gate: 100_000 + command.tag, dispatches: nil))
        }
    }
}

/// What a model store's handler needs of its store.
protocol StoreWaiting {
    var dispatcher: Dispatcher? { get }
    func waitForStoreC() throws
}

extension StoreA: StoreWaiting {
    func waitForStoreC() throws { _ = try waitFor(StoreC.self) }
}
extension StoreB: StoreWaiting {
    func waitForStoreC() throws { _ = try waitFor(StoreC.self) }
}
extension StoreC: StoreWaiting {
    func waitForStoreC() throws { _ = try waitFor(StoreC.self) }
}
extension StoreD: StoreWaiting {
    func waitForStoreC() throws { _ = try waitFor(StoreC.self) }
}
