import Foundation

/// One line of a journal file (JSON Lines): the header, a recorded action, where recording resumed
/// after time travel, an effect's start or end, or a refused action.
struct JournalLine: Codable, Sendable {
    enum Kind: String, Codable, Sendable {
        /// The first line: the format and its version.
        case header
        /// An action that reached the stores, with the changes it made.
        case action
        /// Time travel resumed from an earlier step: the stores were set to `changes`' states.
        case resume
        /// An effect of step `sequence` started or ended.
        case effect
        /// An action refused after step `sequence`: it changed nothing (version 4).
        case refusal
    }

    /// An action as recorded: its payload as JSON when it is `Encodable`, its description always.
    struct Action: Codable, Sendable {
        var name: String
        var payload: JSONValue?
        var description: String
        /// The error's description.
        var error: String?
        /// The error's type, qualified, when it is registered for replay (version 3); `errorValue` holds it.
        var errorType: String?
        /// The error as JSON, when its type is registered for replay (version 3).
        var errorValue: JSONValue?
        /// Where a batch's inline mutation went; it is not replayable.
        var store: String?
        /// Whether redaction hid part of the payload or the error (and of the description); it is not replayable.
        var redacted: Bool?

        init(name: String, payload: JSONValue? = nil, description: String) {
            self.name = name
            self.payload = payload
            self.description = description
        }

        // NB: written by hand to tell a `null` payload (an action without payload) from none recorded.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            payload = container.contains(.payload) ? try container.decode(JSONValue.self, forKey: .payload) : nil
            description = try container.decode(String.self, forKey: .description)
            error = try container.decodeIfPresent(String.self, forKey: .error)
            errorType = try container.decodeIfPresent(String.self, forKey: .errorType)
            errorValue = try container.decodeIfPresent(JSONValue.self, forKey: .errorValue)
            store = try container.decodeIfPresent(String.self, forKey: .store)
            redacted = try container.decodeIfPresent(Bool.self, forKey: .redacted)
        }
    }

    /// Why an action was refused, and with what error.
    struct Refusal: Codable, Sendable {
        /// The error's description.
        var error: String
        /// The error's type, qualified, when it is registered for replay; `errorValue` holds it.
        var errorType: String?
        /// The error as JSON, when its type is registered for replay.
        var errorValue: JSONValue?
        var reason: JournalRefusal.Reason
        /// Whether redaction hid part of the error's value; such a refusal does not replay.
        var redacted: Bool?
    }

    /// The change of one store: its state before (the first time the store appears), after, and the diff.
    struct Change: Codable, Sendable {
        /// The store type's name, as it prints.
        var store: String
        /// The store type's name qualified by its module, which tells two stores of one name apart; `nil`
        /// in files written before it was recorded.
        var type: String?
        var before: JSONValue?
        var after: JSONValue?
        var diff: [String]

        /// What tells the store apart from every other: its qualified type name, or its name in older files.
        var identity: String { type ?? store }
    }

    static let format = "fluxion-journal"
    /// 2 adds steps' causes and effect lines; a version 1 file reads as steps from outside. 3 writes times to
    /// the microsecond (a file of an earlier version keeps whole seconds) and the errors of registered types
    /// as JSON, with their types' names. 4 adds refusal lines.
    static let version = 4

    var kind: Kind
    var format: String?
    var version: Int?
    /// The header's keys whose values were redacted; replay redacts them before comparing states.
    var redactedKeys: [String]?
    var sequence: Int?
    var time: Date?
    var action: Action?
    /// A batch's actions, in order.
    var actions: [Action]?
    var replayable: Bool?
    var changes: [Change]?
    /// What made the step run; `nil` for a dispatch from outside.
    var cause: CauseRef?
    /// An effect line's event.
    var effect: EffectEvent?
    /// A refusal line's error and reason.
    var refusal: Refusal?

    static func header(at time: Date, redacting redacted: Set<String>) -> JournalLine {
        JournalLine(
            kind: .header, format: format, version: version, redactedKeys: redacted.isEmpty ? nil : redacted.sorted(),
            time: time)
    }

    /// The actions to dispatch again: a batch's, or the action itself.
    var replayedActions: [Action] {
        actions ?? (action.map { [$0] } ?? [])
    }
}

extension JournalLine.Action {
    /// Whether replay can dispatch it again: a payload recorded as JSON, no error or one recorded as JSON with
    /// its type, not an inline mutation, nothing redacted.
    var isReplayable: Bool {
        payload != nil && (error == nil || (errorType != nil && errorValue != nil)) && store == nil && redacted != true
    }
}

extension JournalLine {
    /// The lines of a journal file's text, numbered from 1; blank lines are left out.
    static func decode(_ text: String) -> [(number: Int, line: Result<JournalLine, any Error>)] {
        let decoder = makeDecoder()
        var lines: [(Int, Result<JournalLine, any Error>)] = []
        for (index, text) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !text.isEmpty {
            lines.append((index + 1, Result { try decoder.decode(JournalLine.self, from: Data(text.utf8)) }))
        }
        return lines
    }
}
