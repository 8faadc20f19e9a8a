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
            try ModelHandler.handle(0, store: store, state: &state.items, action.payload, effects)
        }
    }
}

final class StoreB: Store<Items>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    override class var handlers: Handlers {
        HandlerTable().on(.op, in: StoreB.self, with: .effects) { store, state, action, effects in
            try ModelHandler.handle(1, store: store, state: &state.items, action.payload, effects)
        }
    }
}

final class StoreC: Store<Items>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    override class var handlers: Handlers {
        HandlerTable().on(.op, in: StoreC.self, with: .effects) { store, state, action, effects in
            try ModelHandler.handle(2, store: store, state: &state.items, action.payload, effects)
        }
    }
}

final class StoreD: Store<OpaqueItems>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    override class var handlers: Handlers {
        HandlerTable().on(.op, in: StoreD.self, with: .effects) { store, state, action, effects in
            try ModelHandler.handle(3, store: store, state: &state.items, action.payload, effects)
        }
    }
}

/// The one handler of every model store, told which store it runs for.
enum ModelHandler {
    static let storeNames = ["StoreA", "StoreB", "StoreC", "StoreD"]

    /// The order the stores' handlers run in for `command`: registration order, but for store 0
    /// waiting for store 2 first.
    static func order(_ command: Command) -> [Int] {
        command.waits ? [2, 0, 1, 3] : [0, 1, 2, 3]
    }

    static func handle<S: AnyObject>(
        _ index: Int, store: S, state: inout [Int], _ command: Command, _ effects: Effects
    ) throws where S: StoreWaiting {
        if index == 0, command.waits { try store.waitForStoreC() }
        if command.throwsIn == index { throw Rejected(tag: command.tag) }
        guard command.touches.contains(index), let dispatcher = store.dispatcher,
            let context = ProgramContext.of(dispatcher)
        else { return }
        state.append(context.divergence == index ? command.tag + 1_000 : command.tag)
        let touched = order(command).filter(command.touches.contains)
        if touched.first == index {
            context.keepEffects(effects)
            for follow in command.then {
                switch follow {
                case .dispatch(let next): try dispatcher.dispatch(.op, payload: next)
                case .effect(let plan): context.ask(effects, for: plan)
                }
            }
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
