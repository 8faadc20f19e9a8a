// How two arrays' elements are matched for a diff: by id, by value, or (beyond a size, or for elements that are
// neither `Identifiable` nor `Equatable`) by position.
extension StateDiff {
    /// How many elements two arrays may hold together to be diffed as insertions and removals; larger ones
    /// are compared by position, as finding the fewest insertions and removals grows with their product.
    package static let alignedElementLimit = 2_000

    /// The lines of two arrays compared as insertions and removals, when their elements can be matched:
    /// `Identifiable` elements by id (an element whose id stayed shows the changes of its fields, and one
    /// that moved says from where), `Equatable` ones by value (the elements that changed between two equal
    /// ones are compared by position). `false` when they cannot be (the caller compares them by position).
    static func compareAligned(
        _ old: [Any], _ new: [Any], at path: String, keys: Set<String>, into lines: inout [String]
    ) -> Bool {
        guard old.count + new.count <= alignedElementLimit, let first = old.first ?? new.first else { return false }
        if first is any Identifiable {
            guard let oldIDs = ids(of: old), let newIDs = ids(of: new) else { return false }
            compareByID(old, oldIDs, new, newIDs, at: path, keys: keys, into: &lines)
            return true
        }
        let shape = TypeShape.of(type(of: first))
        guard shape.isEqual(first, first) != nil else { return false }
        let difference = new.difference(from: old) { shape.isEqual($0, $1) ?? false }
        let removed = Set(difference.removals.map(\.index))
        let inserted = Set(difference.insertions.map(\.index))
        var (oldIndex, newIndex) = (0, 0)
        // NB: between two elements that stayed, what was removed and what was inserted pair up by position.
        while oldIndex < old.count || newIndex < new.count {
            let isRemoved = oldIndex < old.count && removed.contains(oldIndex)
            let isInserted = newIndex < new.count && inserted.contains(newIndex)
            switch (isRemoved, isInserted) {
            case (true, true):
                compare(old[oldIndex], new[newIndex], at: "\(path)[\(newIndex)]", keys: keys, into: &lines)
                (oldIndex, newIndex) = (oldIndex + 1, newIndex + 1)
            case (true, false):
                lines.append("\(path)[\(oldIndex)]: - \(describe(old[oldIndex], redacting: keys))")
                oldIndex += 1
            case (false, true):
                lines.append("\(path)[\(newIndex)]: + \(describe(new[newIndex], redacting: keys))")
                newIndex += 1
            case (false, false):
                (oldIndex, newIndex) = (oldIndex + 1, newIndex + 1)
            }
        }
        return true
    }

    /// Elements matched by id: `path[i]: - …` for an id removed, `path[j]: + …` for one inserted,
    /// `path[j]: moved from [i]` for one that moved, and the changes of each that stayed under its new index.
    private static func compareByID(
        _ old: [Any], _ oldIDs: [AnyHashable], _ new: [Any], _ newIDs: [AnyHashable], at path: String,
        keys: Set<String>, into lines: inout [String]
    ) {
        let difference = newIDs.difference(from: oldIDs).inferringMoves()
        var movedFrom: [Int: Int] = [:]
        for case .remove(let offset, _, let associated?) in difference.removals { movedFrom[associated] = offset }
        for case .remove(let offset, _, nil) in difference.removals {
            lines.append("\(path)[\(offset)]: - \(describe(old[offset], redacting: keys))")
        }
        let oldIndexByID = Dictionary(oldIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var inserted = Set<Int>()
        for case .insert(let offset, _, nil) in difference.insertions { inserted.insert(offset) }
        for (newIndex, id) in newIDs.enumerated() {
            let elementPath = "\(path)[\(newIndex)]"
            if inserted.contains(newIndex) {
                lines.append("\(elementPath): + \(describe(new[newIndex], redacting: keys))")
                continue
            }
            if let oldIndex = movedFrom[newIndex] { lines.append("\(elementPath): moved from [\(oldIndex)]") }
            guard let oldIndex = movedFrom[newIndex] ?? oldIndexByID[id] else { continue }
            compare(old[oldIndex], new[newIndex], at: elementPath, keys: keys, into: &lines)
        }
    }

    /// Each element's id, when every element is `Identifiable`.
    private static func ids(of elements: [Any]) -> [AnyHashable]? {
        func id<Element: Identifiable>(of element: Element) -> AnyHashable { AnyHashable(element.id) }
        var ids: [AnyHashable] = []
        ids.reserveCapacity(elements.count)
        for element in elements {
            guard let element = element as? any Identifiable else { return nil }
            ids.append(id(of: element))
        }
        return ids
    }
}

extension CollectionDifference.Change {
    /// Where the element was removed from, or inserted at.
    fileprivate var index: Int {
        switch self {
        case .insert(let offset, _, _), .remove(let offset, _, _): offset
        }
    }
}
