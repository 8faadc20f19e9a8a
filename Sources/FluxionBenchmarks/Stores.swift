import Fluxion

struct Tally: Codable, Sendable {
    var count = 0
    /// A field no W10 dispatch changes.
    var label = 0
}

extension ActionName where Payload == Int {
    static var increment: Self { "increment" }
    static var chain: Self { "chain" }
}

final class CounterStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.increment) { state, action in state.count &+= action.payload }
    }
}

// Distinct store types made from one generic class: `ManyStore<Zero<One<Leaf>>>`
// and so on, each handling the action named after its tag.
enum Leaf {}
enum Zero<Tag> {}
enum One<Tag> {}

final class ManyStore<Tag>: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    static var actionName: ActionName<Int> { ActionName(String(describing: Tag.self)) }

    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(actionName) { state, action in state.count &+= action.payload }
    }
}

/// Registers `limit` distinct store types and returns their action names;
/// `observe` is called with each store once it is registered.
func registerManyStores(
    limit: Int,
    with dispatcher: Dispatcher,
    observe: (Store<Tally>) throws -> Void = { _ in }
) throws -> [ActionName<Int>] {
    var names: [ActionName<Int>] = []
    // A binary tree of tags: depth 13 holds 16,383 types.
    func register<Tag>(_ tag: Tag.Type, depth: Int) throws {
        guard names.count < limit, depth < 14 else { return }
        try dispatcher.register(ManyStore<Tag>.self)
        try observe(dispatcher.store(ManyStore<Tag>.self))
        names.append(ManyStore<Tag>.actionName)
        try register(Zero<Tag>.self, depth: depth + 1)
        try register(One<Tag>.self, depth: depth + 1)
    }
    try register(Leaf.self, depth: 0)
    return names
}

// W6: three stores handling one action; the first waits for the second, which waits for the third.
final class ChainHeadStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> { HandlerTable().route(.chain, to: ChainHeadStore.handle) }

    func handle(_ state: inout Tally, _ action: Action<Int>) throws {
        state.count = try waitFor(ChainMiddleStore.self).state.count &+ action.payload
    }
}

final class ChainMiddleStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // Store's lock
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> { HandlerTable().route(.chain, to: ChainMiddleStore.handle) }

    func handle(_ state: inout Tally, _ action: Action<Int>) throws {
        state.count = try waitFor(ChainTailStore.self).state.count &+ action.payload
    }
}

final class ChainTailStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.chain) { state, action in state.count &+= action.payload }
    }
}
