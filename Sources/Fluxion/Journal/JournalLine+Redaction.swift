import Foundation

// Redaction by structure: a value under a redacted key never reaches a journal file, by any route.
//
// Payloads and states that are `Codable` are written as JSON with the values under the redacted keys
// replaced; their diffs, and the descriptions of actions and errors, are printed from the values'
// structure (`Mirror`) with the fields and dictionary entries under those keys hidden. A payload or a
// state that is not `Codable` has no structure the file can be sure of: with redacted keys, it is left
// out (a placeholder in its place), its step does not replay, and the journal warns once per action name.
extension JournalLine {
    /// A value a line left out, as it could not be redacted by its structure: the action it came with, and why.
    struct Unredactable: Equatable, Sendable {
        var action: String
        var reason: String
    }

    /// The line of a recorded step; `seen` holds the stores whose state before is written already, and
    /// `errorTypes` the error types recorded as values.
    init(
        _ entry: JournalEntries.Entry, redacting keys: Set<String>, errorTypes: ReplayableErrors,
        seen: inout Set<String>
    ) {
        var unredactable: [Unredactable] = []
        self.init(entry, redacting: keys, errorTypes: errorTypes, seen: &seen, unredactable: &unredactable)
    }

    /// The line of a recorded step; `unredactable` gets the values it left out, as they could not be redacted.
    init(
        _ entry: JournalEntries.Entry, redacting keys: Set<String>, errorTypes: ReplayableErrors,
        seen: inout Set<String>, unredactable: inout [Unredactable]
    ) {
        self.init(kind: .action, sequence: entry.sequence, time: entry.time)
        record(entry.action, redacting: keys, errorTypes: errorTypes, unredactable: &unredactable)
        cause = CauseRef(entry.cause)
        var statesWritten = true
        changes = entry.changes.map { change in
            if !keys.isEmpty, !Self.isRedactable(change.newState) {
                statesWritten = false
                unredactable.append(
                    Unredactable(
                        action: entry.action.name,
                        reason:
                            "the state of \(change.storeName), a \(typeName(type(of: change.newState))), is not Codable"
                    ))
            }
            return Change(change, before: seen.insert(change.seen.qualifiedName).inserted, redacting: keys)
        }
        replayable = statesWritten && replayedActions.allSatisfy(\.isReplayable)
    }

    /// Records `action`, or a batch's actions, the values under `keys` hidden.
    mutating func record(
        _ action: AnyAction, redacting keys: Set<String>, errorTypes: ReplayableErrors,
        unredactable: inout [Unredactable]
    ) {
        if action.name == AnyAction.batchName, let actions = action.payload as? [AnyAction] {
            self.action = Action(
                name: action.name, description: "\(AnyAction.batchName) of \(actions.count) action(s)")
            self.actions = actions.map {
                Action($0, redacting: keys, errorTypes: errorTypes, unredactable: &unredactable)
            }
        } else {
            self.action = Action(action, redacting: keys, errorTypes: errorTypes, unredactable: &unredactable)
        }
    }

    /// Whether a value can be redacted by its structure: it is `Codable`, so its JSON has object keys.
    static func isRedactable(_ value: Any) -> Bool {
        value is any Encodable
    }

    /// What a line writes in place of a value it left out.
    static func placeholder(for value: Any) -> String {
        "‹not written: \(typeName(type(of: value))) is not Codable›"
    }
}

extension JournalLine.Action {
    /// Records `action`, the values under `keys` hidden; see ``init(_:redacting:errorTypes:unredactable:)``.
    init(_ action: AnyAction, redacting keys: Set<String>, errorTypes: ReplayableErrors) {
        var unredactable: [JournalLine.Unredactable] = []
        self.init(action, redacting: keys, errorTypes: errorTypes, unredactable: &unredactable)
    }

    /// Records `action`: its payload as JSON if it can be (`null` for a payload-less action), its error as JSON
    /// with its type's name if `errorTypes` registers the type, the values under `keys` hidden; `unredactable`
    /// gets its payload if that cannot be redacted.
    init(
        _ action: AnyAction, redacting keys: Set<String>, errorTypes: ReplayableErrors,
        unredactable: inout [JournalLine.Unredactable]
    ) {
        name = action.name
        description = Self.describe(action)
        error = action.error.map { plainDescription(of: $0) }
        if let error = action.error, let recorded = errorTypes.record(error) {
            errorType = recorded.type
            errorValue = recorded.value
            if !keys.isEmpty {
                let parsed = recorded.value.parsed
                errorValue = parsed.redacting(keys)
                if errorValue != parsed { redacted = true }
            }
        }
        var isPayloadRedacted = false
        if let mutation = action.payload as? StoreMutation {
            store = mutation.storeName
        } else if action.payload is Void {
            payload = .null
        } else if let json = JSONValue(encoding: action.payload) {
            payload = json
            if !keys.isEmpty {
                let parsed = json.parsed
                payload = parsed.redacting(keys)
                isPayloadRedacted = payload != parsed
                if isPayloadRedacted { redacted = true }
            }
        }
        guard !keys.isEmpty else { return }
        error = action.error.map { StateDiff.describe($0, redacting: keys, qualified: false) }
        let text: String
        if isPayloadRedacted {
            text = StateDiff.redactedText
        } else if action.payload is StoreMutation || action.payload is Void || payload != nil {
            // NB: JSON with nothing to hide can still print a hidden field (one it does not encode).
            let printed = StateDiff.describe(action.payload, redacting: keys, qualified: false)
            text = printed == plainDescription(of: action.payload) ? printed : StateDiff.redactedText
        } else {
            text = JournalLine.placeholder(for: action.payload)
            unredactable.append(
                JournalLine.Unredactable(
                    action: name, reason: "its payload, a \(typeName(type(of: action.payload))), is not Codable"))
        }
        description = "\(name)(\(text))" + (error.map { " error: \($0)" } ?? "")
    }
}

extension JournalLine.Action {
    /// `action`'s description; an `Int`, `String` or `Bool` payload printed at once, as it prints.
    fileprivate static func describe(_ action: AnyAction) -> String {
        guard action.error == nil else { return "\(action)" }
        switch action.payload {
        case let payload as Int: return "\(action.name)(\(payload))"
        case let payload as String: return "\(action.name)(\(payload))"
        case let payload as Bool: return "\(action.name)(\(payload))"
        default: return "\(action)"
        }
    }
}

extension JournalLine.Change {
    /// A store's change: its states as JSON (redacted), the state before only when asked, and the diff.
    init(_ change: JournalEntries.Change, before: Bool, redacting keys: Set<String>) {
        store = change.storeName
        type = change.seen.qualifiedName
        self.before = before ? JSONValue(encoding: change.oldState)?.redacting(keys) : nil
        after = JSONValue(encoding: change.newState)?.redacting(keys)
        // NB: a resumed recording's states have no state before (`()`), and so no diff.
        if change.oldState is Void {
            diff = []
        } else if !keys.isEmpty, !JournalLine.isRedactable(change.newState) {
            diff = [JournalLine.placeholder(for: change.newState)]
        } else {
            diff = StateDiff.lines(from: change.oldState, to: change.newState, redacting: keys)
        }
    }
}
