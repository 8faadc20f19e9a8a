import Fluxion
import Foundation

struct Shelf: Codable, Equatable, Sendable {
    var books: [String] = []
    var owner = Owner()
    var lastScore: Int?
}

struct Owner: Codable, Equatable, Sendable {
    var name = ""
    var password = ""
}

/// A payload that is not `Codable`: its actions are recorded by description and do not replay.
struct Bookmark: Sendable {
    let page: Int
}

/// An error an action carries, or an effect throws.
struct ShelfError: Error, CustomStringConvertible {
    var description: String { "the shelf is full" }
}

/// Why a book cannot be lent: it is not on the shelf.
struct NotOnTheShelf: Error, Equatable {
    let title: String
}

extension ActionName where Payload == String {
    static var shelve: Self { "inspectorShelve" }
    /// Takes a book off the shelf; refused with ``NotOnTheShelf`` when it is not there.
    static var lend: Self { "inspectorLend" }
}

extension ActionName where Payload == Owner {
    static var signIn: Self { "inspectorSignIn" }
}

extension ActionName where Payload == Bookmark {
    static var bookmark: Self { "inspectorBookmark" }
}

extension ActionName where Payload == Int? {
    static var score: Self { "inspectorScore" }
}

extension ActionName where Payload == Bool {
    /// Starts an effect that finishes (`true`) or fails (`false`).
    static var fetch: Self { "inspectorFetch" }
}

/// Books on a shelf, and who owns it.
final class ShelfStore: Store<Shelf>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Shelf()) }

    override class var handlers: HandlerTable<Shelf> {
        HandlerTable()
            .on(.shelve) { shelf, action in shelf.books.append(action.payload) }
            .on(.signIn) { shelf, action in shelf.owner = action.payload }
            .on(.bookmark) { shelf, action in shelf.books.append("page \(action.payload.page)") }
            .on(.score) { shelf, action in shelf.lastScore = action.payload }
            .on(.lend) { shelf, action in
                guard let index = shelf.books.firstIndex(of: action.payload) else {
                    throw NotOnTheShelf(title: action.payload)
                }
                shelf.books.remove(at: index)
            }
            .on(.fetch, with: .effects) { _, action, effects in
                let succeeds = action.payload
                effects.run(id: succeeds ? "fetch" : "failing fetch") { _ in
                    if !succeeds { throw ShelfError() }
                }
            }
    }
}

/// Counts the books shelved, after the shelf.
final class TallyStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.shelve) { count, _ in count += 1 }
    }
}

/// A dispatcher with the inspector tests' stores registered.
func makeShelfDispatcher() throws -> Dispatcher {
    let dispatcher = Dispatcher()
    try dispatcher.register(ShelfStore.self)
    try dispatcher.register(TallyStore.self)
    return dispatcher
}

/// A fresh file URL in the temporary directory, ending with `ending`.
func temporaryURL(_ ending: String = ".jsonl") -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("inspector-\(UUID().uuidString)\(ending)")
}

/// The text of the page's `<script id="journal">` element, with `\u003c` read back as `<`.
func embeddedLines(of page: String) throws -> String {
    guard let start = page.range(of: #"<script type="application/x-ndjson" id="journal""#),
        let open = page[start.upperBound...].firstIndex(of: ">"),
        let end = page[open...].range(of: "</script>")
    else { throw EmbeddedLinesMissing() }
    return page[page.index(after: open)..<end.lowerBound].replacingOccurrences(of: #"\u003c"#, with: "<")
}

/// The page has no `<script id="journal">` element.
struct EmbeddedLinesMissing: Error {}

/// The JSON objects of a journal's lines.
func objects(ofLines text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
    }
}
