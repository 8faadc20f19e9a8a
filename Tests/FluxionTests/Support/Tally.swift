import Fluxion

/// A state that remembers every payload its store handled.
struct Tally: Sendable, Equatable {
    var total = 0
    var calls = 0
    var payloads: [Int] = []

    mutating func add(_ value: Int) {
        total += value
        calls += 1
        payloads.append(value)
    }
}

extension ActionName where Payload == Int {
    static var counterAdd: Self { "supportCounterAdd" }
}

extension ActionName where Payload == Void {
    static var counterFail: Self { "supportCounterFail" }
}

/// A store that adds each `.counterAdd` payload to its tally; `.counterFail` throws.
final class CountingStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .on(.counterAdd) { state, action in state.add(action.payload) }
            .on(.counterFail) { _, _ in throw TestError("counterFail") }
    }
}

/// A new dispatcher with a `CountingStore`, created.
func makeCounterStore() throws -> (Dispatcher, CountingStore) {
    let dispatcher = Dispatcher()
    try dispatcher.register(CountingStore.self)
    return (dispatcher, try dispatcher.store(CountingStore.self))
}
