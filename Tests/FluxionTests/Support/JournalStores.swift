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

// MARK: A lamp: a store that changes alone

struct Lamp: Codable, Equatable, Sendable {
    var isOn = false
}

extension ActionName where Payload == Void {
    static var toggleLamp: Self { "journalToggleLamp" }
}

/// A lamp, switched by its own action: a step that changes no other store.
final class LampStore: Store<Lamp>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Lamp()) }

    override class var handlers: HandlerTable<Lamp> {
        HandlerTable().on(.toggleLamp) { lamp, _ in lamp.isOn.toggle() }
    }
}

// MARK: A vault: secrets inside whole values, and values that are not Codable

struct Credentials: Codable, Equatable, Sendable {
    var password: String
    var pin: Int
}

struct Vault: Codable, Equatable, Sendable {
    var byName: [String: Credentials] = [:]
    var list: [Credentials] = []
    var settings: [String: String] = [:]
}

/// A payload that is not `Codable`, holding a secret under a redacted key.
struct Whisper: Sendable {
    let password: String
}

/// An error carrying a secret under a redacted key.
struct LockedOut: Error, Sendable {
    let password: String
}

extension ActionName where Payload == String {
    /// Adds credentials named by the payload, whose password the handler makes: `S3CRET-<name>`.
    static var addCredentials: Self { "journalAddCredentials" }
    /// Removes the credentials named by the payload.
    static var dropCredentials: Self { "journalDropCredentials" }
    /// Sets the `password` setting to `S3CRET-<payload>`.
    static var setPasswordSetting: Self { "journalSetPasswordSetting" }
}

extension ActionName where Payload == Void {
    /// Asks for an effect that fails with `LockedOut(password: "S3CRET-effect")`.
    static var unlockVault: Self { "journalUnlockVault" }
}

/// A payload that is `Codable` but leaves its password out of its JSON: its description still holds it.
struct Login: Codable, Equatable, Sendable {
    var user: String
    var password = ""

    private enum CodingKeys: String, CodingKey {
        case user
    }
}

extension ActionName where Payload == Login {
    static var vaultLogIn: Self { "journalLogIn" }
}

extension ActionName where Payload == Whisper {
    static var whisper: Self { "journalWhisper" }
    static var murmur: Self { "journalMurmur" }
}

/// Credentials kept whole, in a dictionary and an array: their secrets must not reach a journal file.
final class VaultStore: Store<Vault>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Vault()) }

    override class var handlers: HandlerTable<Vault> {
        HandlerTable()
            .on(.addCredentials) { vault, action in
                let credentials = Credentials(password: "S3CRET-\(action.payload)", pin: 4711)
                vault.byName[action.payload] = credentials
                vault.list.append(credentials)
            }
            .on(.dropCredentials) { vault, action in
                vault.byName[action.payload] = nil
                vault.list.removeAll { $0.password == "S3CRET-\(action.payload)" }
            }
            .on(.setPasswordSetting) { vault, action in vault.settings["password"] = "S3CRET-\(action.payload)" }
            .on(.whisper) { vault, _ in vault.settings["whispers", default: ""] += "." }
            .on(.murmur) { vault, _ in vault.settings["murmurs", default: ""] += "." }
            .on(.vaultLogIn) { vault, action in vault.settings["user"] = action.payload.user }
            .on(.unlockVault, with: .effects) { _, _, effects in
                effects.run(id: "unlock") { _ in throw LockedOut(password: "S3CRET-effect") }
            }
    }
}

/// A state that is not `Codable`, with a secret under a redacted key.
struct Diary: Equatable, Sendable {
    var password = ""
    var entries = 0
}

extension ActionName where Payload == String {
    /// Locks the diary with the password `S3CRET-<payload>`.
    static var lockDiary: Self { "journalLockDiary" }
}

final class DiaryStore: Store<Diary>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Diary()) }

    override class var handlers: HandlerTable<Diary> {
        HandlerTable().on(.lockDiary) { diary, action in
            diary.password = "S3CRET-\(action.payload)"
            diary.entries += 1
        }
    }
}
