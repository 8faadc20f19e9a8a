import Fluxion
import Foundation

struct Shelf: Codable, Equatable, Sendable {
    var books: [String] = []
    var owner = Owner()
}

struct Owner: Codable, Equatable, Sendable {
    var name = ""
    var password = ""
}

struct ReadCount: Codable, Equatable, Sendable {
    var count = 0
}

/// A payload that is not `Codable`: its actions are recorded by description and do not replay.
struct Bookmark: Sendable {
    let page: Int
}

extension ActionName where Payload == String {
    static var shelve: Self { "journalShelve" }
}

extension ActionName where Payload == Owner {
    static var signIn: Self { "journalSignIn" }
}

extension ActionName where Payload == Bookmark {
    static var bookmark: Self { "journalBookmark" }
}

extension ActionName where Payload == Void {
    static var drift: Self { "journalDrift" }
}

/// Books on a shelf, and who owns it.
final class ShelfStore: Store<Shelf>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Shelf()) }

    override class var handlers: HandlerTable<Shelf> {
        HandlerTable()
            .on(.shelve) { shelf, action in shelf.books.append(action.payload) }
            .on(.signIn) { shelf, action in shelf.owner = action.payload }
            .on(.bookmark) { shelf, action in shelf.books.append("page \(action.payload.page)") }
    }
}

/// Counts the books shelved, after the shelf.
final class TallyReadingStore: Store<ReadCount>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: ReadCount()) }

    override class var handlers: HandlerTable<ReadCount> {
        HandlerTable().on(.shelve) { reading, _ in reading.count += 1 }
    }
}

/// Not deterministic: `.drift` adds a number that differs between runs of one process.
final class DriftStore: Store<ReadCount>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    private static let drift = Drift()

    init() { super.init(initialState: ReadCount()) }

    override class var handlers: HandlerTable<ReadCount> {
        HandlerTable().on(.drift) { reading, _ in reading.count += DriftStore.drift.next() }
    }
}

/// A number that grows each time it is read.
final class Drift: @unchecked Sendable {  // `value` is touched only with `lock` held
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}

/// A dispatcher with the journal tests' stores registered.
func makeShelfDispatcher(drifting: Bool = false) throws -> Dispatcher {
    let dispatcher = Dispatcher()
    try dispatcher.register(ShelfStore.self)
    try dispatcher.register(TallyReadingStore.self)
    if drifting { try dispatcher.register(DriftStore.self) }
    return dispatcher
}

/// A fresh file URL in the temporary directory.
func temporaryJournalURL() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString).jsonl")
}
