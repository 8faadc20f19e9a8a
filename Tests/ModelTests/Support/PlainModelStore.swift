import Fluxion
import Foundation

/// What one `model.poke` action does: store H's handler edits its items as `edit` says (`tag` is what an
/// `.append` appends), then, if `readsOwnState`, reads its own store's `state` (through the store the
/// dispatching thread lent it: see ``StoreH/lent``).
struct Poke: Codable, Sendable, Equatable, CustomStringConvertible {
    var tag: Int
    var edit: Edit
    var readsOwnState = false

    var description: String {
        "Poke(tag: \(tag), edit: \(edit)" + (readsOwnState ? ", readsOwnState: true" : "") + ")"
    }
}

extension ActionName where Payload == Poke {
    /// The action only store H handles.
    static var poke: Self { "model.poke" }
}

/// A store whose one handler cannot throw, and the only one of `model.poke`: observed by a key path (no
/// observer needs its state from before), its handler changes its state in place.
final class StoreH: Store<Items>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    override class var handlers: Handlers {
        HandlerTable().on(.poke) { state, action in
            action.payload.edit.apply(to: &state.items, value: action.payload.tag)
            if action.payload.readsOwnState { _ = lent?.state }
        }
    }

    /// The store H the calling thread lent its handler (a captured store, as an app's closure would hold).
    static var lent: StoreH? {
        Thread.current.threadDictionary[lentKey] as? StoreH
    }

    /// Runs `body` with `store` lent to the handlers `body` runs on this thread.
    static func lending<Result>(_ store: StoreH?, _ body: () throws -> Result) rethrows -> Result {
        Thread.current.threadDictionary[lentKey] = store
        defer { Thread.current.threadDictionary.removeObject(forKey: lentKey) }
        return try body()
    }

    private static let lentKey = "ModelTests.StoreH.lent"
}
