import Fluxion
import Foundation

/// A seat: a dictionary key that is neither a `String` nor an `Int`, so `JSONEncoder` writes a dictionary
/// keyed by it as a flat array of keys and values.
struct Seat: Codable, Hashable, Sendable {
    var row: Int
    var number: Int
}

/// A group of names: a set element that holds a set.
struct NameGroup: Codable, Hashable, Sendable {
    var initial: String
    var members: Set<String>
}

/// A value whose mirror shows nothing and whose description is constant: a diff read with `Mirror` cannot
/// see it change, its encoding can.
struct Opaque: Codable, Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    var hidden = 0

    var description: String { "Opaque" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// What both roster states hold: every collection whose JSON order is not its value's.
protocol RosterFields {
    var tags: Set<String> { get set }
    var scores: [String: Int] { get set }
    var names: [Int: String] { get set }
    var seats: [Seat: String] { get set }
    var groups: Set<NameGroup> { get set }
    var pin: Int? { get set }
    var opaque: Opaque { get set }
    var lastEnrolled: String { get set }
}

extension RosterFields {
    /// Adds `name` to every collection.
    mutating func enroll(_ name: String) {
        let count = names.count
        lastEnrolled = name
        tags.insert(name)
        scores[name, default: 0] += name.count
        names[count] = name
        seats[Seat(row: count / 3, number: count % 3)] = name
        let initial = String(name.prefix(1))
        var group = groups.first { $0.initial == initial } ?? NameGroup(initial: initial, members: [])
        groups.remove(group)
        group.members.insert(name)
        groups.insert(group)
    }
}

/// A roster whose state is `Equatable`: replay compares it with `==`. It does not encode `lastEnrolled`, so
/// a journal cannot hold it.
struct Roster: RosterFields, Codable, Equatable, Sendable {
    var tags: Set<String> = []
    var scores: [String: Int] = [:]
    var names: [Int: String] = [:]
    var seats: [Seat: String] = [:]
    var groups: Set<NameGroup> = []
    var pin: Int?
    var opaque = Opaque()
    var lastEnrolled = ""

    private enum CodingKeys: String, CodingKey {
        case tags, scores, names, seats, groups, pin, opaque
    }
}

/// The same roster, not `Equatable`: replay compares its canonical form.
struct RosterLog: RosterFields, Codable, Sendable {
    var tags: Set<String> = []
    var scores: [String: Int] = [:]
    var names: [Int: String] = [:]
    var seats: [Seat: String] = [:]
    var groups: Set<NameGroup> = []
    var pin: Int?
    var opaque = Opaque()
    var lastEnrolled = ""
}

extension ActionName where Payload == String {
    static var enroll: Self { "rosterEnroll" }
}

extension ActionName where Payload == Int {
    static var setPin: Self { "rosterSetPin" }
}

/// The roster handlers, for either state.
private func rosterHandlers<State: RosterFields & Sendable>() -> HandlerTable<State> {
    HandlerTable()
        .on(.enroll) { roster, action in roster.enroll(action.payload) }
        .on(.setPin) { roster, action in roster.pin = action.payload }
}

final class RosterStore: Store<Roster>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Roster()) }

    override class var handlers: HandlerTable<Roster> { rosterHandlers() }
}

final class RosterLogStore: Store<RosterLog>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: RosterLog()) }

    override class var handlers: HandlerTable<RosterLog> { rosterHandlers() }
}

/// A dispatcher with the roster stores registered: the `Equatable` one, the other, or both.
func makeRosterDispatcher(equatable: Bool? = nil) throws -> Dispatcher {
    let dispatcher = Dispatcher()
    if equatable != false { try dispatcher.register(RosterStore.self) }
    if equatable != true { try dispatcher.register(RosterLogStore.self) }
    return dispatcher
}
