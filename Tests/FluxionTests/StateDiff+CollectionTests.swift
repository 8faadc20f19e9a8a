import Testing

@testable import Fluxion

private struct BudgetCategory: Identifiable, Equatable, Sendable {
    let id: Int
    var name: String
    var budget = 100
}

/// A value that is neither `Equatable` nor `Identifiable`: its arrays diff by position.
private struct UnmatchedValue: Sendable {
    var value: Int
}

/// A state holding one array, whose lines name it `items`.
private struct Listing<Element: Sendable>: Sendable {
    var items: [Element]
}

private func diff<Element: Sendable>(
    _ old: [Element], to new: [Element], redacting keys: Set<String> = []
) -> [String] {
    StateDiff.lines(from: Listing(items: old), to: Listing(items: new), redacting: keys)
}

/// Issue 45.3: arrays diff as insertions and removals — by id for `Identifiable` elements, by value for
/// `Equatable` ones — and by position beyond a size, or for elements that are neither.
@Suite struct StateDiffCollectionTests {
    @Test func oneElementInsertedAtTheFrontOfAHundredIsOneInsertion() {
        let old = Array(1...100)
        let lines = diff(old, to: [0] + old)
        #expect(lines == ["items[0]: + 0"])
    }

    @Test func oneElementRemovedFromTheMiddleIsOneRemoval() {
        let old = ["a", "b", "c", "d"]
        #expect(diff(old, to: ["a", "b", "d"]) == [#"items[2]: - "c""#])
    }

    @Test func equatableElementsChangedBetweenTwoThatStayedAreComparedByPosition() {
        #expect(diff([1, 2], to: [1, 5]) == ["items[1]: 2 → 5"])
        #expect(diff(["x", "y", "z"], to: ["x", "q", "z"]) == [#"items[1]: "y" → "q""#])
    }

    @Test func anIdentifiableElementChangedInPlaceShowsItsFieldsChange() {
        let old = (1...12).map { BudgetCategory(id: $0, name: "category \($0)") }
        var new = old
        new[4].name = "groceries"
        new[4].budget = 250
        #expect(
            diff(old, to: new) == [
                #"items[4].name: "category 5" → "groceries""#, "items[4].budget: 100 → 250",
            ])
    }

    @Test func anIdentifiableElementInsertedIntoASortedListIsOneInsertion() {
        let old = ["bills", "food", "rent", "travel"].enumerated().map { BudgetCategory(id: $0, name: $1) }
        var new = old
        new.insert(BudgetCategory(id: 9, name: "gifts"), at: 2)
        let lines = diff(old, to: new)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("items[2]: + ") == true)
        #expect(lines.first?.contains(#"name: "gifts""#) == true)
    }

    @Test func anIdentifiableElementThatMovedSaysFromWhereAndWhatChanged() {
        let old = (0..<4).map { BudgetCategory(id: $0, name: "c\($0)") }
        var new = old
        var moved = new.remove(at: 0)
        moved.budget = 5
        new.append(moved)
        #expect(diff(old, to: new) == ["items[3]: moved from [0]", "items[3].budget: 100 → 5"])
    }

    @Test func aRemovedIdentifiableElementIsOneRemoval() {
        let old = (0..<5).map { BudgetCategory(id: $0, name: "c\($0)") }
        var new = old
        new.remove(at: 1)
        let lines = diff(old, to: new)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("items[1]: - ") == true)
    }

    @Test func elementsThatAreNeitherIdentifiableNorEquatableDiffByPosition() {
        let old = [1, 2].map(UnmatchedValue.init(value:))
        let lines = diff(old, to: [0, 1, 2].map(UnmatchedValue.init(value:)))
        #expect(lines.count == 3)
        #expect(Array(lines.prefix(2)) == ["items[0].value: 1 → 0", "items[1].value: 2 → 1"])
        #expect(lines.last?.hasPrefix("items[2]: + ") == true)
    }

    @Test func arraysBeyondTheLimitDiffByPosition() {
        let count = StateDiff.alignedElementLimit / 2
        let old = Array(1...count)
        let lines = diff(old, to: [0] + old)
        #expect(lines.count == count + 1, "compared by position: every element moved one place")
    }

    @Test func fieldsUnderARedactedKeyOfAnAlignedElementStayHidden() {
        let old = [BudgetCategory(id: 1, name: "salary")]
        var new = old
        new[0].name = "bonus"
        #expect(diff(old, to: new, redacting: ["name"]) == ["items[0].name: ‹redacted›"])
        let inserted = diff(old, to: old + [BudgetCategory(id: 2, name: "secret")], redacting: ["name"])
        #expect(inserted.count == 1)
        #expect(inserted.first?.contains("secret") == false)
    }
}
