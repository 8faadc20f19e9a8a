/// The route list of each action name, found in one short probe.
///
/// A dictionary keyed by `String` hashes every name with SipHash, and
/// compares names by canonical equivalence, which costs a dispatch of a name
/// not dispatched just before more than the rest of its lookup. Action names
/// are the program's own, not an attacker's, and almost always ASCII, whose
/// strings are equivalent only when their bytes are equal: so this table
/// keeps the lists of ASCII names a second time, in slots found by hashing a
/// name's bytes eight at a time with a multiply-xorshift mix, probed linearly
/// and at most half full. Every other lookup goes to the dictionary.
struct RouteTable {
    private struct Entry {
        let name: String
        let hash: Int
        var list: RouteList
    }

    /// Every name's list, its keys compared as Swift compares strings.
    private var lists: [String: RouteList] = [:]
    /// The lists of the ASCII keys of `lists`, again; a power of two of slots.
    private var entries = [Entry?](repeating: nil, count: 8)
    private var asciiCount = 0

    /// The names that have a list, in no particular order.
    var names: [String] { Array(lists.keys) }

    /// The list of `name`, or `nil` when no store handles it.
    subscript(name: String) -> RouteList? {
        get {
            // NB: an ASCII name missing from the slots may still equal a key of `lists` that is not ASCII.
            guard let hash = Self.asciiHash(of: name) else { return lists[name] }
            var index = hash & mask
            while let candidate = entries[index]?.hash {
                if candidate == hash, let entry = entries[index], entry.name == name { return entry.list }
                index = (index + 1) & mask
            }
            return lists[name]
        }
        set {
            // NB: the dictionary keeps the key it has for an equal name: that key is the slots' one.
            let key = lists.index(forKey: name).map { lists[$0].key } ?? name
            lists[name] = newValue
            if let hash = Self.asciiHash(of: key) { setSlot(of: key, hash: hash, to: newValue) }
        }
    }

    /// Sets the list of an ASCII name in the slots.
    private mutating func setSlot(of name: String, hash: Int, to list: RouteList?) {
        var index = hash & mask
        while let entry = entries[index] {
            if entry.hash == hash, entry.name == name {
                if let list { entries[index]?.list = list } else { remove(at: index) }
                return
            }
            index = (index + 1) & mask
        }
        guard let list else { return }
        entries[index] = Entry(name: name, hash: hash, list: list)
        asciiCount += 1
        if asciiCount * 2 > entries.count { grow() }
    }

    private var mask: Int { entries.count - 1 }

    /// Empties the slot at `index`, moving back each later entry of the run that
    /// the hole would cut off from its home slot.
    private mutating func remove(at index: Int) {
        entries[index] = nil
        asciiCount -= 1
        var hole = index
        var next = (index + 1) & mask
        while let entry = entries[next] {
            // NB: the entry may fill the hole when the hole lies between its home slot and its slot.
            if (next - (entry.hash & mask)) & mask >= (next - hole) & mask {
                entries[hole] = entry
                entries[next] = nil
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    /// Doubles the slots, placing every entry anew.
    private mutating func grow() {
        let old = entries
        entries = [Entry?](repeating: nil, count: old.count * 2)
        for case let entry? in old {
            var index = entry.hash & mask
            while entries[index] != nil { index = (index + 1) & mask }
            entries[index] = entry
        }
    }

    /// The hash of an ASCII name's bytes, eight at a time; `nil` for a name that is not ASCII.
    static func asciiHash(of name: String) -> Int? {
        name.utf8.withContiguousStorageIfAvailable(asciiHash(of:))
            ?? Array(name.utf8).withUnsafeBufferPointer(asciiHash(of:))
    }

    private static func asciiHash(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = UInt64(bytes.count) &* multiplier
        /// Every byte, or-ed together: its high bit is set when a byte is not ASCII.
        var bits: UInt64 = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            var offset = 0
            while offset + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                bits |= word
                hash = (hash ^ word) &* multiplier
                hash ^= hash >> 32
                offset += 8
            }
            var tail: UInt64 = 0
            while offset < bytes.count {
                tail = tail << 8 | UInt64(bytes[offset])
                offset += 1
            }
            bits |= tail
            hash = (hash ^ tail) &* multiplier
        }
        guard bits & 0x8080_8080_8080_8080 == 0 else { return nil }
        hash ^= hash >> 29
        return Int(truncatingIfNeeded: hash)
    }
}
