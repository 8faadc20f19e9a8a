/// Type names as users write them: without their module (`ImportPhase`, not `BudgetCore.ImportPhase`),
/// unless two types printed in this process share a name, which then both print with their modules.
///
/// ```swift
/// TypeNames.name(of: [BudgetCore.Category].self)  // Array<Category>
/// ```
enum TypeNames {
    /// Each type's name as `String(reflecting:)` gives it, and without its modules.
    private struct Entry {
        let qualified: String
        let short: String
    }

    private struct Names {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// The qualified names seen under each short name: two or more make it ambiguous.
        var qualifiedByShort: [String: Set<String>] = [:]
    }

    private static let names = Guarded(Names())

    /// The name of `type`: without its modules, unless another type printed here has the same short name.
    static func name(of type: Any.Type) -> String {
        let entry = self.entry(of: type)
        return isAmbiguous(entry) ? entry.qualified : entry.short
    }

    /// `text` — `String(reflecting:)` of a value of `type` — with the type's qualified name at its start
    /// shortened as ``name(of:)`` shortens it: `BudgetCore.ImportPhase.idle` becomes `ImportPhase.idle`.
    static func shortening(_ text: String, of type: Any.Type) -> String {
        let entry = self.entry(of: type)
        guard text.hasPrefix(entry.qualified), !isAmbiguous(entry) else { return text }
        return entry.short + text.dropFirst(entry.qualified.count)
    }

    private static func isAmbiguous(_ entry: Entry) -> Bool {
        names.withLock { ($0.qualifiedByShort[entry.short]?.count ?? 0) > 1 }
    }

    private static func entry(of type: Any.Type) -> Entry {
        let key = ObjectIdentifier(type)
        if let entry = names.withLock({ $0.entries[key] }) { return entry }
        let qualified = String(reflecting: type)
        let entry = Entry(qualified: qualified, short: unqualified(qualified))
        names.withLock { names in
            names.entries[key] = entry
            names.qualifiedByShort[entry.short, default: []].insert(qualified)
        }
        return entry
    }

    /// `name` with the first component of each dotted path (its module) and every
    /// `(unknown context at $…)` (a private type's) left out: `Swift.Optional<App.(unknown context at
    /// $1f).Tag>` becomes `Optional<Tag>`.
    static func unqualified(_ name: String) -> String {
        var text = name
        while let range = text.range(of: "(unknown context at $") {
            guard let end = text[range.upperBound...].range(of: ").") else { break }
            text.removeSubrange(range.lowerBound..<end.upperBound)
        }
        var result = ""
        var path = ""
        func endPath() {
            if let dot = path.firstIndex(of: ".") { result += path[path.index(after: dot)...] } else { result += path }
            path = ""
        }
        for character in text {
            if character.isLetter || character.isNumber || character == "_" || character == "." {
                path.append(character)
            } else {
                endPath()
                result.append(character)
            }
        }
        endPath()
        return result
    }
}
