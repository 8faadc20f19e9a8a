/// How a replay compares a store's state with the state a journal recorded: as values, never as text.
///
/// The recorded state is decoded as the store's state type, and the two are compared with `==` when the
/// type is `Equatable`; otherwise, or when the recording redacted part of the state, their canonical forms
/// are (``CanonicalEncoder``: sets and dictionaries in one order, redacted values hidden on both sides).
/// What a state does not encode is not compared, as the recording cannot hold it. A difference is named
/// field by field by ``StateDiff``; one that its `Mirror` reading cannot see, by the canonical forms. So a
/// state that differs always says where, and one whose only difference is the order its sets were written
/// in does not differ.
enum StateComparison {
    /// How `state`, the state of `store` now, differs from `recorded`, the state the journal recorded for it
    /// with the values under `keys` redacted: one line per difference, none when they match.
    static func differences(
        of state: any Sendable, in store: any StateReplacing, from recorded: JSONValue?, redacting keys: Set<String>
    ) -> [String] {
        guard let recorded else {
            // NB: a state that did not encode was recorded as none: the same as long as it still does not.
            guard JSONValue(encoding: state) != nil else { return [] }
            return ["state: nothing recorded → \(StateDiff.describe(state, redacting: keys))"]
        }
        let hasRedactedValues = !keys.isEmpty && recorded.parsed.containsKey(in: keys)
        // NB: a redacted value no longer decodes as its type; the replayed value at its place stands in, so that
        // the rest decodes (both sides hide it before they are compared).
        let source = hasRedactedValues ? recorded.parsed.filling(keys, from: JSONValue(encoding: state)) : recorded
        let old: any Sendable
        do {
            old = try store.decodeState(source)
        } catch {
            return [undecodable(error)]
        }
        let isEqual = hasRedactedValues ? nil : store.statesAreEqual(old, state)
        if isEqual == true { return [] }
        let encoder = CanonicalEncoder(redactedKeys: keys)
        let oldForm = Result { try encoder.encode(old) }
        if isEqual == nil, case .success(let form) = oldForm, (try? encoder.encode(state)) == form { return [] }
        // NB: what a state does not encode, the recording cannot hold: the decoded recording has its type's
        // defaults there (and what does not encode as it was, the value it decodes to). So the replayed state is
        // compared as the journal holds it too, decoded from its JSON.
        let replayed = (try? JSONValue(encoding: state).map { try store.decodeState($0) }) ?? state
        if isEqual != nil, store.statesAreEqual(old, replayed) == true { return [] }
        let newForm = Result { try encoder.encode(replayed) }
        if isEqual == nil, case .success(let form) = oldForm, case .success(form) = newForm { return [] }
        let lines = StateDiff.lines(from: old, to: replayed, redacting: keys)
        guard lines.isEmpty else { return lines }
        // NB: what `Mirror` cannot see (a value with its own mirror, say) still shows in the encoding.
        switch (oldForm, newForm) {
        case (.success(let oldForm), .success(let newForm)):
            let lines = oldForm.differences(to: newForm, at: "")
            return lines.isEmpty ? ["state: differs from the recording by `==`, though no field shows it"] : lines
        case (.failure(let error), _), (_, .failure(let error)):
            return ["state: differs from the recording, and does not encode to say where: \(error)"]
        }
    }

    /// Why the recorded state does not decode, naming where.
    private static func undecodable(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "state: the recorded state does not decode: \(error)" }
        let (context, missing): (DecodingError.Context?, (any CodingKey)?) =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                (context, nil)
            case .keyNotFound(let key, let context): (context, key)
            @unknown default: (nil, nil)
            }
        let path = ((context?.codingPath ?? []) + (missing.map { [$0] } ?? [])).reduce("") { path, key in
            key.intValue.map { "\(path)[\($0)]" } ?? (path.isEmpty ? key.stringValue : "\(path).\(key.stringValue)")
        }
        let reason = context?.debugDescription ?? "\(error)"
        return "\(path.isEmpty ? "state" : path): the recorded state does not decode: \(reason)"
    }
}

extension JSONValue {
    /// Whether an object in this value, at any depth, has one of `keys`.
    fileprivate func containsKey(in keys: Set<String>) -> Bool {
        switch self {
        case .object(let members): members.contains { keys.contains($0.key) || $0.value.containsKey(in: keys) }
        case .array(let values): values.contains { $0.containsKey(in: keys) }
        case .text: parsed.containsKey(in: keys)
        default: false
        }
    }

    /// This value with the value of each object key in `keys` taken from `other` at the same place, where
    /// `other` has one: array elements by their index.
    fileprivate func filling(_ keys: Set<String>, from other: JSONValue?) -> JSONValue {
        switch (self, other?.parsed) {
        case (.object(let members), .object(let others)?):
            var filled: [String: JSONValue] = [:]
            for (key, value) in members {
                filled[key] = keys.contains(key) ? others[key] ?? value : value.filling(keys, from: others[key])
            }
            return .object(filled)
        case (.array(let values), .array(let others)?):
            return .array(values.indices.map { values[$0].filling(keys, from: $0 < others.count ? others[$0] : nil) })
        default:
            return self
        }
    }

    /// One line per place where `other` differs from this value, as `path: old → new` with their JSON text,
    /// `path: + new` or `path: - old`.
    fileprivate func differences(to other: JSONValue, at path: String) -> [String] {
        let name = path.isEmpty ? "state" : path
        switch (parsed, other.parsed) {
        case (.object(let old), .object(let new)):
            return Set(old.keys).union(new.keys).sorted().flatMap { key -> [String] in
                let member = path.isEmpty ? key : "\(path).\(key)"
                switch (old[key], new[key]) {
                case (let old?, let new?): return old.differences(to: new, at: member)
                case (let old?, nil): return ["\(member): - \(old.jsonText)"]
                case (nil, let new?): return ["\(member): + \(new.jsonText)"]
                case (nil, nil): return []
                }
            }
        case (.array(let old), .array(let new)):
            let changed = zip(old, new).enumerated().flatMap { $1.0.differences(to: $1.1, at: "\(path)[\($0)]") }
            let removed = old.indices.dropFirst(new.count).map { "\(path)[\($0)]: - \(old[$0].jsonText)" }
            let added = new.indices.dropFirst(old.count).map { "\(path)[\($0)]: + \(new[$0].jsonText)" }
            return changed + removed + added
        case (let old, let new):
            return old == new ? [] : ["\(name): \(old.jsonText) → \(new.jsonText)"]
        }
    }

    /// This value as JSON text.
    private var jsonText: String {
        var text: [UInt8] = []
        write(to: &text)
        return String(decoding: text, as: UTF8.self)
    }
}
