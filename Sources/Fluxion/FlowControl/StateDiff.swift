/// A field-by-field comparison of two values, read with `Mirror`, for logs.
package enum StateDiff {
    /// What a value under a redacted key prints as.
    package static let redactedText = "‹redacted›"

    /// One line per leaf that differs, as `path: old → new`; for example
    /// `items[1].isDone: false → true`, or `items[2]: + Todo(…)` for an added element.
    ///
    /// Values print as ``plainDescription(of:qualified:)`` prints them, qualified: an optional as its
    /// value or `nil` (`nickname: nil → "Ada"`), at any depth.
    ///
    /// A set's and a dictionary's order is no part of their value: a set's elements are matched by value
    /// (`tags: - "old"`, `tags: + "new"`), a dictionary's entries by key (`scores["ada"]: 1 → 2`,
    /// `scores["bob"]: + 3`), each in the order they print; two equal ones have no line, in any order.
    ///
    /// With `keys`, no value under one of them is printed, by its structure: a
    /// field or a dictionary entry named by a key that changed prints as
    /// `path: ‹redacted›`, and a whole value that is added, removed or replaced
    /// prints with such fields as `‹redacted›`, at any depth.
    package static func lines(from old: Any, to new: Any, redacting keys: Set<String> = []) -> [String] {
        var lines: [String] = []
        compare(old, new, at: "", keys: keys, into: &lines)
        return lines
    }

    /// `value` as ``plainDescription(of:qualified:)`` prints it, or, when a field or dictionary entry under
    /// one of `keys` is in it, printed from its structure with those as `‹redacted›`.
    package static func describe(_ value: Any, redacting keys: Set<String>, qualified: Bool = true) -> String {
        describe(value, keys: keys, qualified: qualified)
    }

    private static func describe(_ value: Any, keys: Set<String>, qualified: Bool = true) -> String {
        if !keys.isEmpty {
            var printer = RedactingPrinter(keys: keys)
            let text = printer.print(value, qualified: qualified)
            if printer.didRedact { return text }
        }
        return plainDescription(of: value, qualified: qualified)
    }

    static func compare(_ old: Any, _ new: Any, at path: String, keys: Set<String>, into lines: inout [String]) {
        // NB: `Mirror` is slow: an equal `Equatable` value has no diff, and a plain value's diff is its two descriptions.
        let shape = TypeShape.of(type(of: old))
        if let isEqual = shape.isEqual(old, new) {
            if isEqual { return }
            if shape.isPlain {
                let (oldText, newText) = (String(reflecting: old), String(reflecting: new))
                let type = Swift.type(of: old)
                return lines.append(
                    "\(name(path)): \(TypeNames.shortening(oldText, of: type)) → \(TypeNames.shortening(newText, of: type))"
                )
            }
        }
        // NB: a plain struct's fields are read straight from it, as `Mirror` would list them.
        if let fields = shape.fields, !fields.isEmpty, type(of: new) == type(of: old),
            let oldValues = shape.values(of: old), let newValues = shape.values(of: new)
        {
            for (index, field) in fields.enumerated() {
                let childPath = childPath(path, field.label, index)
                guard !keys.isEmpty, hides(field.label, keys) else {
                    compare(oldValues[index], newValues[index], at: childPath, keys: keys, into: &lines)
                    continue
                }
                compareRedacted(oldValues[index], newValues[index], at: childPath, into: &lines)
            }
            return
        }
        let oldMirror = Mirror(reflecting: old)
        let newMirror = Mirror(reflecting: new)
        let oldChildren = Array(oldMirror.children)
        let newChildren = Array(newMirror.children)
        // NB: two present optionals compare by their values, under the optional's own path.
        if oldMirror.displayStyle == .optional, newMirror.displayStyle == .optional,
            let oldValue = oldChildren.first?.value, let newValue = newChildren.first?.value
        {
            return compare(oldValue, newValue, at: path, keys: keys, into: &lines)
        }
        // NB: a set's or a dictionary's order is its hash seed's, which differs between two equal values: their
        // elements are matched by value, their entries by key.
        if oldMirror.displayStyle == .set, newMirror.displayStyle == .set {
            return compareSets(oldChildren, newChildren, at: path, keys: keys, into: &lines)
        }
        if oldMirror.displayStyle == .dictionary, newMirror.displayStyle == .dictionary {
            return compareEntries(oldChildren, newChildren, at: path, keys: keys, into: &lines)
        }
        let isCollection = oldMirror.displayStyle == .collection
        let sameShape =
            oldMirror.displayStyle == newMirror.displayStyle
            && (isCollection || (!oldChildren.isEmpty && oldChildren.map(\.label) == newChildren.map(\.label)))
        guard sameShape else {
            let (oldText, newText) = (
                plainDescription(of: old, qualified: true), plainDescription(of: new, qualified: true)
            )
            guard oldText != newText else { return }
            guard !keys.isEmpty else { return lines.append("\(name(path)): \(oldText) → \(newText)") }
            let (old, new) = (describe(old, keys: keys), describe(new, keys: keys))
            return lines.append("\(name(path)): \(old) → \(new)")
        }
        if isCollection,
            compareAligned(oldChildren.map(\.value), newChildren.map(\.value), at: path, keys: keys, into: &lines)
        {
            return
        }
        for (index, (oldChild, newChild)) in zip(oldChildren, newChildren).enumerated() {
            let childPath = childPath(path, oldChild.label, index)
            // NB: a field under a redacted key says that it changed, never what it was or became.
            guard !keys.isEmpty, hides(oldChild.label, keys) else {
                compare(oldChild.value, newChild.value, at: childPath, keys: keys, into: &lines)
                continue
            }
            compareRedacted(oldChild.value, newChild.value, at: childPath, into: &lines)
        }
        guard isCollection else { return }
        for index in newChildren.count..<max(newChildren.count, oldChildren.count) {
            lines.append("\(path)[\(index)]: - \(describe(oldChildren[index].value, keys: keys))")
        }
        for index in oldChildren.count..<max(oldChildren.count, newChildren.count) {
            lines.append("\(path)[\(index)]: + \(describe(newChildren[index].value, keys: keys))")
        }
    }

    /// Adds `path: ‹redacted›` when two values under a redacted key differ.
    private static func compareRedacted(_ old: Any, _ new: Any, at path: String, into lines: inout [String]) {
        var changed: [String] = []
        compare(old, new, at: path, keys: [], into: &changed)
        if !changed.isEmpty { lines.append("\(path): \(redactedText)") }
    }

    /// The elements only one of two sets holds: `path: - removed`, then `path: + added`, each sorted as printed.
    private static func compareSets(
        _ old: [Mirror.Child], _ new: [Mirror.Child], at path: String, keys: Set<String>, into lines: inout [String]
    ) {
        func missing(from other: [Mirror.Child], in elements: [Mirror.Child]) -> [String] {
            let others = Set(other.compactMap { $0.value as? AnyHashable })
            return elements.filter { element in (element.value as? AnyHashable).map { !others.contains($0) } ?? true }
                .map { describe($0.value, keys: keys) }.sorted()
        }
        lines += missing(from: new, in: old).map { "\(name(path)): - \($0)" }
        lines += missing(from: old, in: new).map { "\(name(path)): + \($0)" }
    }

    /// Two dictionaries' entries matched by key, in the order their keys print: `path[key]: old → new` for a
    /// value that changed (and the lines of its fields), `path[key]: - old` and `path[key]: + new` for the rest.
    private static func compareEntries(
        _ old: [Mirror.Child], _ new: [Mirror.Child], at path: String, keys: Set<String>, into lines: inout [String]
    ) {
        /// Each entry by its key as it prints: the key, as a value and as a redacted key names it, and its value.
        typealias Entry = (key: AnyHashable?, name: String, value: Any)
        func entries(_ children: [Mirror.Child]) -> [String: Entry] {
            var entries: [String: Entry] = [:]
            for child in children {
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { continue }
                let (key, value) = (pair[0].value, pair[1].value)
                entries[describe(key, keys: keys)] = (key as? AnyHashable, "\(key)", value)
            }
            return entries
        }
        let (oldEntries, newEntries) = (entries(old), entries(new))
        for key in Set(oldEntries.keys).union(newEntries.keys).sorted() {
            let entryPath = "\(path)[\(key)]"
            let keyName = (oldEntries[key] ?? newEntries[key])?.name ?? key
            let isRedacted = !keys.isEmpty && keys.contains(keyName)
            switch (oldEntries[key], newEntries[key]) {
            case (let old?, let new?) where old.key == new.key:
                guard isRedacted else {
                    compare(old.value, new.value, at: entryPath, keys: keys, into: &lines)
                    continue
                }
                compareRedacted(old.value, new.value, at: entryPath, into: &lines)
            case (let old, let new):
                let printed = { (value: Any) in isRedacted ? redactedText : describe(value, keys: keys) }
                if let old { lines.append("\(entryPath): - \(printed(old.value))") }
                if let new { lines.append("\(entryPath): + \(printed(new.value))") }
            }
        }
    }

    /// Whether a field labelled `label` is under a redacted key: its name, a property wrapper's storage of it
    /// (`_name`), or a `lazy var`'s (`$__lazy_storage_$_name`).
    fileprivate static func hides(_ label: String?, _ keys: Set<String>) -> Bool {
        guard var label else { return false }
        if label.hasPrefix(lazyStoragePrefix) { label.removeFirst(lazyStoragePrefix.count) }
        return keys.contains(label) || (label.hasPrefix("_") && keys.contains(String(label.drop { $0 == "_" })))
    }

    /// How Swift labels the storage of a `lazy var`.
    private static let lazyStoragePrefix = "$__lazy_storage_$_"

    private static func childPath(_ path: String, _ label: String?, _ index: Int) -> String {
        guard let label, !label.hasPrefix(".") else { return "\(path)[\(index)]" }
        return path.isEmpty ? label : "\(path).\(label)"
    }

    private static func name(_ path: String) -> String {
        path.isEmpty ? "state" : path
    }
}

/// Prints a value from its structure, as `String(reflecting:)` would (an optional as its value or `nil`, as
/// `plainDescription(of:qualified:)` does), with the values under redacted keys as `‹redacted›`; `didRedact`
/// says whether it hid one.
private struct RedactingPrinter {
    /// How deep a value is printed: deeper (or a cycle of references), it prints as `…`, counted as redacted.
    static let maximumDepth = 32

    let keys: Set<String>
    private(set) var didRedact = false

    init(keys: Set<String>) {
        self.keys = keys
    }

    mutating func print(_ value: Any, qualified: Bool = true, depth: Int = 0) -> String {
        guard depth < Self.maximumDepth else {
            didRedact = true
            return "…"
        }
        let mirror = Mirror(reflecting: value)
        let children = Self.children(of: mirror)
        let typeName = qualified ? TypeNames.name(of: mirror.subjectType) : String(describing: mirror.subjectType)
        switch mirror.displayStyle {
        case _ where children.isEmpty:
            return qualified
                ? TypeNames.shortening(String(reflecting: value), of: type(of: value)) : String(describing: value)
        case .optional?:
            return print(children[0].value, qualified: qualified, depth: depth + 1)
        case .collection?:
            return "[\(children.map { print($0.value, depth: depth + 1) }.joined(separator: ", "))]"
        case .set?:
            return "Set([\(children.map { print($0.value, depth: depth + 1) }.joined(separator: ", "))])"
        case .dictionary?:
            let entries = children.map { entry -> String in
                let pair = Self.children(of: Mirror(reflecting: entry.value))
                guard pair.count == 2 else { return print(entry.value, depth: depth + 1) }
                return "\(print(pair[0].value, depth: depth + 1)): \(entryValue(pair, depth))"
            }
            return "[\(entries.joined(separator: ", "))]"
        case .tuple?:
            return "(\(fields(children, depth)))"
        case .enum?:
            let (label, payload) = (children[0].label ?? "", children[0].value)
            if StateDiff.hides(label, keys) {
                didRedact = true
                return "\(typeName).\(label)(\(StateDiff.redactedText))"
            }
            let printed = print(payload, depth: depth + 1)
            return Mirror(reflecting: payload).displayStyle == .tuple
                ? "\(typeName).\(label)\(printed)" : "\(typeName).\(label)(\(printed))"
        default:
            return "\(typeName)(\(fields(children, depth)))"
        }
    }

    /// The value of a dictionary entry `(key, value)`: redacted when its key is a redacted key.
    private mutating func entryValue(_ pair: [Mirror.Child], _ depth: Int) -> String {
        guard keys.contains(String(describing: pair[0].value)) else { return print(pair[1].value, depth: depth + 1) }
        didRedact = true
        return StateDiff.redactedText
    }

    /// Labelled fields as `label: value`, unlabelled ones as `value`.
    private mutating func fields(_ children: [Mirror.Child], _ depth: Int) -> String {
        children.map { child -> String in
            guard let label = child.label, !label.hasPrefix(".") else { return print(child.value, depth: depth + 1) }
            guard !StateDiff.hides(label, keys) else {
                didRedact = true
                return "\(label): \(StateDiff.redactedText)"
            }
            return "\(label): \(print(child.value, depth: depth + 1))"
        }.joined(separator: ", ")
    }

    /// A value's children, a class's inherited stored properties first.
    private static func children(of mirror: Mirror) -> [Mirror.Child] {
        (mirror.superclassMirror.map(children(of:)) ?? []) + Array(mirror.children)
    }
}
