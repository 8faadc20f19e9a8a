import Fluxion
import Foundation

/// A custom storage over memory that records its saves and can fail or hold them on demand.
final class ScriptedStorage: StateStorage, @unchecked Sendable {  // vars guarded by lock
    private let base = InMemoryStateStorage()
    private let lock = NSLock()
    private var savedData: [Data] = []
    private var savedOn: [String] = []
    private var failure: TestError?
    private var hold: (entered: ArrivalCounter, release: Gate, failure: TestError?)?

    init() {}

    /// The data of every save attempt, failed ones included, in order.
    var saves: [Data] {
        lock.withLock { savedData }
    }

    /// The name of the thread each save ran on, in order.
    var saveThreads: [String] {
        lock.withLock { savedOn }
    }

    /// The archives held now.
    var archives: [String: Data] {
        base.archives
    }

    /// Makes every later save throw `error`, or succeed again with `nil`.
    func failSaves(with error: TestError?) {
        lock.withLock { failure = error }
    }

    /// Makes the next save arrive at `entered`, then wait for `release` to open.
    ///
    /// With `error`, that save then throws it, whatever ``failSaves(with:)`` says.
    func holdNextSave(entered: ArrivalCounter, release: Gate, thenFailWith error: TestError? = nil) {
        lock.withLock { hold = (entered, release, error) }
    }

    func load(key: String) throws -> Data? {
        base.load(key: key)
    }

    func save(_ data: Data, key: String) throws {
        let thread = currentThreadName()
        lock.lock()
        savedData.append(data)
        savedOn.append(thread)
        let hold = self.hold
        let failure = hold?.failure ?? self.failure
        self.hold = nil
        lock.unlock()
        if let hold {
            hold.entered.arrive()
            hold.release.wait()
        }
        if let failure { throw failure }
        base.save(data, key: key)
    }

    func setAside(key: String, suffix: String) throws -> String {
        base.setAside(key: key, suffix: suffix)
    }
}
