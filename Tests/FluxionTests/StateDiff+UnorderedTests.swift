import Testing

@testable import Fluxion

/// A state with a dictionary whose values are not `Equatable` (tuples), so that the diff reads its entries.
private struct Ledger: Sendable {
    var tags: Set<String> = []
    var byName: [String: (Int, Int)] = [:]
}

/// A set's order and a dictionary's are their hash seeds': a diff matches a set's elements by value and a
/// dictionary's entries by key.
@Suite struct StateDiffUnorderedTests {
    /// The letters, in a set (or dictionary) of its own capacity: two of them hold their elements in two orders.
    private func ledger(capacity: Int) -> Ledger {
        var ledger = Ledger()
        ledger.tags.reserveCapacity(capacity)
        ledger.byName.reserveCapacity(capacity)
        for letter in "abcdefghijklmnopqrstuvwxyz" {
            ledger.tags.insert("\(letter)")
            ledger.byName["\(letter)"] = (1, 2)
        }
        return ledger
    }

    @Test func equalSetsAndDictionariesInOtherOrdersHaveNoLines() throws {
        let (old, new) = (ledger(capacity: 0), ledger(capacity: 1_000))
        try #require(Array(old.tags) != Array(new.tags) && Array(old.byName.keys) != Array(new.byName.keys))

        #expect(StateDiff.lines(from: old, to: new).isEmpty)
    }

    @Test func aSetsLinesAreTheElementsRemovedThenAdded() {
        var old = ledger(capacity: 0)
        var new = ledger(capacity: 1_000)
        old.tags.remove("m")
        new.tags.remove("c")
        new.tags.insert("zz")
        new.tags.insert("aa")

        #expect(
            StateDiff.lines(from: old, to: new) == [
                #"tags: - "c""#, #"tags: + "aa""#, #"tags: + "m""#, #"tags: + "zz""#,
            ])
        #expect(StateDiff.lines(from: Set([1, 2]), to: Set([2, 3])) == ["state: - 1", "state: + 3"])
    }

    @Test func aDictionarysEntriesAreMatchedByKey() {
        var old = ledger(capacity: 0)
        var new = ledger(capacity: 1_000)
        old.byName["a"] = nil
        new.byName["b"] = (1, 3)
        new.byName["c"] = nil

        #expect(
            StateDiff.lines(from: old, to: new) == [
                #"byName["a"]: + (1, 2)"#, #"byName["b"][1]: 2 → 3"#, #"byName["c"]: - (1, 2)"#,
            ])
    }

    @Test func aDictionaryEntryUnderARedactedKeySaysOnlyThatItChanged() {
        var old = ledger(capacity: 0)
        var new = old
        old.byName["password"] = (1, 1)
        new.byName["password"] = (4, 7)
        new.byName["pin"] = (4, 7)

        #expect(
            StateDiff.lines(from: old, to: new, redacting: ["password", "pin"]) == [
                #"byName["password"]: ‹redacted›"#, #"byName["pin"]: + ‹redacted›"#,
            ])
    }
}
