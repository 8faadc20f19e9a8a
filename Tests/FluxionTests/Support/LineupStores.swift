import Fluxion

/// What both lineup states hold: a small state with each kind of collection whose JSON order is not its
/// value's, to replay many times over.
protocol LineupFields {
    /// A set.
    var tags: Set<String> { get set }
    /// A dictionary keyed by neither a `String` nor an `Int`: `JSONEncoder` writes its keys and values in turn.
    var numbers: [Int8: Int] { get set }
    /// A set of sets.
    var teams: Set<Set<Int>> { get set }
}

/// A lineup whose state is `Equatable`: replay compares it with `==`.
struct Lineup: LineupFields, Codable, Equatable, Sendable {
    var tags: Set<String> = []
    var numbers: [Int8: Int] = [:]
    var teams: Set<Set<Int>> = []
}

/// The same lineup, not `Equatable`: replay compares its canonical form.
struct LineupLog: LineupFields, Codable, Sendable {
    var tags: Set<String> = []
    var numbers: [Int8: Int] = [:]
    var teams: Set<Set<Int>> = []
}

extension ActionName where Payload == Void {
    static var fillLineup: Self { "lineupFill" }
}

/// The lineup handlers, for either state.
private func lineupHandlers<State: LineupFields & Sendable>() -> HandlerTable<State> {
    HandlerTable().on(.fillLineup) { lineup, _ in
        lineup.tags = ["Ada", "Grace", "Alan", "Edsger"]
        lineup.numbers = [1: 10, 2: 20, 3: 30]
        lineup.teams = [[1, 2], [3, 4]]
    }
}

final class LineupStore: Store<Lineup>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Lineup()) }

    override class var handlers: HandlerTable<Lineup> { lineupHandlers() }
}

final class LineupLogStore: Store<LineupLog>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: LineupLog()) }

    override class var handlers: HandlerTable<LineupLog> { lineupHandlers() }
}

/// A dispatcher with one lineup store registered: the `Equatable` one, or the other.
func makeLineupDispatcher(equatable: Bool) throws -> Dispatcher {
    let dispatcher = Dispatcher()
    if equatable {
        try dispatcher.register(LineupStore.self)
    } else {
        try dispatcher.register(LineupLogStore.self)
    }
    return dispatcher
}
