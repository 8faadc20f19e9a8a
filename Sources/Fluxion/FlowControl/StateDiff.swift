/// A field-by-field comparison of two values, read with `Mirror`, for logs.
package enum StateDiff {
    /// One line per leaf that differs, as `path: old → new`; for example
    /// `items[1].isDone: false → true`, or `items[2]: + Todo(…)` for an added element.
    package static func lines(from old: Any, to new: Any) -> [String] {
        var lines: [String] = []
        compare(old, new, at: "", into: &lines)
        return lines
    }

    private static func compare(_ old: Any, _ new: Any, at path: String, into lines: inout [String]) {
        let oldMirror = Mirror(reflecting: old)
        let newMirror = Mirror(reflecting: new)
        let oldChildren = Array(oldMirror.children)
        let newChildren = Array(newMirror.children)
        // NB: two present optionals compare by their values, under the optional's own path.
        if oldMirror.displayStyle == .optional, newMirror.displayStyle == .optional,
            let oldValue = oldChildren.first?.value, let newValue = newChildren.first?.value
        {
            return compare(oldValue, newValue, at: path, into: &lines)
        }
        let isCollection = [.collection, .set, .dictionary].contains(oldMirror.displayStyle)
        let sameShape =
            oldMirror.displayStyle == newMirror.displayStyle
            && (isCollection || (!oldChildren.isEmpty && oldChildren.map(\.label) == newChildren.map(\.label)))
        guard sameShape else {
            let (oldText, newText) = (String(reflecting: old), String(reflecting: new))
            if oldText != newText { lines.append("\(name(path)): \(oldText) → \(newText)") }
            return
        }
        for (index, (oldChild, newChild)) in zip(oldChildren, newChildren).enumerated() {
            compare(oldChild.value, newChild.value, at: childPath(path, oldChild.label, index), into: &lines)
        }
        guard isCollection else { return }
        for index in newChildren.count..<max(newChildren.count, oldChildren.count) {
            lines.append("\(path)[\(index)]: - \(String(reflecting: oldChildren[index].value))")
        }
        for index in oldChildren.count..<max(oldChildren.count, newChildren.count) {
            lines.append("\(path)[\(index)]: + \(String(reflecting: newChildren[index].value))")
        }
    }

    private static func childPath(_ path: String, _ label: String?, _ index: Int) -> String {
        guard let label, !label.hasPrefix(".") else { return "\(path)[\(index)]" }
        return path.isEmpty ? label : "\(path).\(label)"
    }

    private static func name(_ path: String) -> String {
        path.isEmpty ? "state" : path
    }
}
