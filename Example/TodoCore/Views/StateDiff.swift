/// The differences between two values of a state, one a line: `items[1].isDone: false → true`.
///
/// It walks both values with `Mirror`: structures field by field, arrays
/// index by index (`+` for an added element, `-` for a removed one),
/// optionals through their value; anything else that differs is a leaf,
/// printed as `old → new`.
enum StateDiff {
    /// The lines describing what changed from `old` to `new`; none when nothing did.
    static func lines(from old: Any, to new: Any, at path: String = "") -> [String] {
        guard String(reflecting: old) != String(reflecting: new) else { return [] }
        let oldMirror = Mirror(reflecting: old)
        let newMirror = Mirror(reflecting: new)
        switch (oldMirror.displayStyle, newMirror.displayStyle) {
        case (.struct, .struct), (.class, .class):
            let newFields = Dictionary(
                newMirror.children.compactMap { child in child.label.map { ($0, child.value) } },
                uniquingKeysWith: { first, _ in first })
            return oldMirror.children.flatMap { child -> [String] in
                guard let label = child.label, let value = newFields[label] else { return [] }
                return lines(from: child.value, to: value, at: path.isEmpty ? label : "\(path).\(label)")
            }
        case (.collection, .collection):
            let oldElements = oldMirror.children.map(\.value)
            let newElements = newMirror.children.map(\.value)
            return (0..<max(oldElements.count, newElements.count)).flatMap { index -> [String] in
                let elementPath = "\(path)[\(index)]"
                if index >= oldElements.count { return ["\(elementPath): + \(describe(newElements[index]))"] }
                if index >= newElements.count { return ["\(elementPath): - \(describe(oldElements[index]))"] }
                return lines(from: oldElements[index], to: newElements[index], at: elementPath)
            }
        case (.optional, .optional):
            if let oldValue = oldMirror.children.first?.value, let newValue = newMirror.children.first?.value {
                return lines(from: oldValue, to: newValue, at: path)
            }
        default:
            break
        }
        return ["\(path.isEmpty ? "" : "\(path): ")\(describe(old)) → \(describe(new))"]
    }

    /// A value as the log shows it: strings quoted, `nil` for an empty optional, else its description.
    static func describe(_ value: Any) -> String {
        if let string = value as? String { return String(reflecting: string) }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            return mirror.children.first.map { describe($0.value) } ?? "nil"
        }
        return String(describing: value)
    }
}
