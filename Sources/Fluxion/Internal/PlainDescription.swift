/// `value` as Swift prints it — `String(describing:)`, or `String(reflecting:)` when `qualified` — but with
/// every `Optional` in it printed as the value it holds, or `nil`, and type names without their module
/// (see `TypeNames`): as users write values.
///
/// ```swift
/// plainDescription(of: Int?.some(0))                       // 0, not Optional(0)
/// plainDescription(of: [1, nil] as [Int?])                 // [1, nil]
/// plainDescription(of: Todo(due: 3), qualified: true)      // Todo(due: 3)
/// ```
///
/// Optionals are unwrapped at any depth: nested (`Int??`), as elements of arrays, sets and dictionaries,
/// as fields of structs and tuples, and as enum cases' values. A value whose type prints itself
/// (`CustomStringConvertible`, `CustomDebugStringConvertible` or `TextOutputStreamable`) prints as it says,
/// and a class instance as Swift prints it. This is the one place Fluxion describes a value: actions,
/// diffs, journals, logs and test failures all print through it.
package func plainDescription(of value: Any, qualified: Bool = false) -> String {
    var text = ""
    PlainPrinter.write(value, debug: qualified, into: &text, depth: 0)
    return text
}

/// The standard library's collections, which print their elements with `debugPrint`; a collection of
/// another type prints as its own description says.
private protocol ElementPrinting {
    /// The name `debugPrint` writes around the elements, as in `Set([1])`; `nil` for none.
    static var debugName: String? { get }
}

extension Array: ElementPrinting {
    static var debugName: String? { nil }
}

extension ArraySlice: ElementPrinting {
    static var debugName: String? { "ArraySlice" }
}

extension ContiguousArray: ElementPrinting {
    static var debugName: String? { "ContiguousArray" }
}

extension Set: ElementPrinting {
    static var debugName: String? { "Set" }
}

extension Dictionary: ElementPrinting {
    static var debugName: String? { nil }
}

/// Prints values as Swift's `print` and `debugPrint` do for values without a description of their own
/// (the standard library's `_adHocPrint`), but for `Optional`s.
private enum PlainPrinter {
    /// How deep a value is printed this way; deeper, as Swift prints it.
    static let maximumDepth = 64

    /// Appends `value` to `text`, as `debugPrint` would when `debug`, as `print` would otherwise.
    static func write(_ value: Any, debug: Bool, into text: inout String, depth: Int) {
        let mirror = Mirror(reflecting: value)
        let style = mirror.displayStyle
        if style == .optional {
            guard let wrapped = mirror.children.first?.value else {
                text += "nil"
                return
            }
            return write(wrapped, debug: debug, into: &text, depth: depth + 1)
        }
        guard depth < maximumDepth else {
            text += debug ? String(reflecting: value) : String(describing: value)
            return
        }
        if let collection = value as? any ElementPrinting {
            let name = debug ? type(of: collection).debugName : nil
            return writeElements(of: mirror, named: name, into: &text, depth: depth)
        }
        if value is any CustomStringConvertible || value is any CustomDebugStringConvertible
            || value is any TextOutputStreamable
        {
            text += debug ? reflecting(value) : String(describing: value)
            return
        }
        switch style {
        case .struct?:
            text += debug ? TypeNames.name(of: mirror.subjectType) : String(describing: mirror.subjectType)
            writeFields(mirror.children.filter { $0.label != nil }, into: &text, depth: depth)
        case .tuple?:
            writeFields(mirror.children, into: &text, depth: depth)
        case .enum? where !mirror.children.isEmpty:
            let (label, payload) = (mirror.children.first?.label ?? "", mirror.children.first?.value ?? ())
            text += debug ? "\(TypeNames.name(of: mirror.subjectType)).\(label)" : label
            guard Mirror(reflecting: payload).displayStyle == .tuple else {
                text += "("
                write(payload, debug: true, into: &text, depth: depth + 1)
                text += ")"
                return
            }
            write(payload, debug: true, into: &text, depth: depth + 1)
        default:
            // NB: a case without a value, a class instance, a metatype: Swift prints no optional in them.
            if let type = value as? any Any.Type {
                text += TypeNames.name(of: type)
            } else {
                text += debug ? reflecting(value) : TypeNames.shortening(String(describing: value), of: type(of: value))
            }
        }
    }

    /// `String(reflecting: value)`, with the name of the value's type at its start without its module.
    private static func reflecting(_ value: Any) -> String {
        TypeNames.shortening(String(reflecting: value), of: type(of: value))
    }

    /// A struct's or a tuple's fields, `(label: value, value)`; a label that starts with `.` is left out.
    private static func writeFields(_ fields: some Collection<Mirror.Child>, into text: inout String, depth: Int) {
        text += "("
        for (index, field) in fields.enumerated() {
            if index > 0 { text += ", " }
            if let label = field.label, !label.isEmpty, !label.hasPrefix(".") { text += "\(label): " }
            write(field.value, debug: true, into: &text, depth: depth + 1)
        }
        text += ")"
    }

    /// An array's, a set's or a dictionary's elements, as their descriptions print them: `[1, 2]`, `["a": 1]`,
    /// `[:]`; within `name(…)` when it is given, as in `Set([1, 2])`. A set's elements and a dictionary's
    /// entries, whose order is their hash seed's, print sorted: by value (by key) when it is `Comparable`,
    /// by their text otherwise.
    private static func writeElements(of mirror: Mirror, named name: String?, into text: inout String, depth: Int) {
        let isDictionary = mirror.displayStyle == .dictionary
        var elements: [(key: Any, text: String)] = mirror.children.map { element in
            var printed = ""
            let pair = isDictionary ? Array(Mirror(reflecting: element.value).children) : []
            guard pair.count == 2 else {
                write(element.value, debug: true, into: &printed, depth: depth + 1)
                return (element.value, printed)
            }
            write(pair[0].value, debug: true, into: &printed, depth: depth + 1)
            printed += ": "
            write(pair[1].value, debug: true, into: &printed, depth: depth + 1)
            return (pair[0].value, printed)
        }
        if isDictionary || mirror.displayStyle == .set {
            let byValue = elements.allSatisfy { $0.key is any Comparable }
            elements.sort { byValue ? (isLess($0.key, $1.key) ?? ($0.text < $1.text)) : $0.text < $1.text }
        }
        text += name.map { "\($0)([" } ?? "["
        text += elements.map(\.text).joined(separator: ", ")
        if isDictionary && elements.isEmpty { text += ":" }
        text += name == nil ? "]" : "])"
    }

    /// Whether `first` comes before `second`, when both are `Comparable` values of one type.
    private static func isLess(_ first: Any, _ second: Any) -> Bool? {
        func isLess<Value: Comparable>(_ first: Value) -> Bool? { (second as? Value).map { first < $0 } }
        return (first as? any Comparable).flatMap { isLess($0) }
    }
}
