import Foundation
import Testing

@testable import Fluxion

private struct DiffedLeaf: Sendable {
    var count = 0
    var name = "leaf"
}

enum StateDiffTestMode: Sendable {
    case idle
    case busy(Int)
}

private struct DiffedState: Sendable {
    var leaf = DiffedLeaf()
    var pair = (1, "one")
    var mode = StateDiffTestMode.idle
    var tags = ["a"]
    var nickname: String?
    var secret = DiffedLeaf(count: 1, name: "hidden")
    var wrapped = Generic(value: 1)
}

private struct Generic<Value: Sendable>: Sendable {
    var value: Value
}

private final class DiffedObject: Sendable {
    let id: Int

    init(id: Int) {
        self.id = id
    }
}

/// A state holding references that may be `weak` or `unowned`: their storage is not a plain value.
private struct DiffedReferences: @unchecked Sendable {  // never shared: built and read by one test
    var count = 0
    weak var weakObject: DiffedObject?
    unowned var unownedObject: DiffedObject
    var strongObject: DiffedObject
    var anything: any Sendable = 1
}

private struct Empty: Sendable {}

private struct DiffedEmpties: Sendable {
    var first = Empty()
    var second = Empty()
}

/// A diff reads a plain struct's fields straight from its storage, and every other value with `Mirror`: the
/// lines are the same either way.
@Suite struct StateDiffTests {
    @Test func aPlainStructsDiffNamesEachChangedLeaf() {
        var new = DiffedState()
        new.leaf.count = 2
        new.pair.1 = "two"
        new.mode = .busy(3)
        new.tags.append("b")
        new.nickname = "ada"
        new.secret.name = "shown"
        new.wrapped.value = 5
        #expect(
            StateDiff.lines(from: DiffedState(), to: new, redacting: ["secret"]) == [
                "leaf.count: 0 → 2",
                #"pair[1]: "one" → "two""#,
                "mode: StateDiffTestMode.idle → StateDiffTestMode.busy(3)",
                #"tags[1]: + "b""#,
                #"nickname: nil → "ada""#,
                "secret: ‹redacted›",
                "wrapped.value: 1 → 5",
            ])
    }

    @Test func equalStatesHaveNoDiff() {
        #expect(StateDiff.lines(from: DiffedState(), to: DiffedState()).isEmpty)
    }

    @Test func aPlainStructsFieldsAreMirrorsChildren() throws {
        let fields = try #require(TypeShape.of(DiffedState.self).fields)
        #expect(fields.map(\.label) == Mirror(reflecting: DiffedState()).children.map(\.label))
        let values = try #require(TypeShape.of(DiffedState.self).values(of: DiffedState()))
        #expect(values.map { "\($0)" } == Mirror(reflecting: DiffedState()).children.map { "\($0.value)" })
    }

    @Test func referencesThatMayBeWeakOrUnownedAreReadWithMirror() {
        let object = DiffedObject(id: 1)
        let other = DiffedObject(id: 2)
        #expect(TypeShape.of(DiffedReferences.self).fields == nil)
        let old = DiffedReferences(weakObject: object, unownedObject: object, strongObject: object)
        var new = old
        new.count = 1
        new.weakObject = nil
        new.unownedObject = other
        new.anything = "x"
        let lines = StateDiff.lines(from: old, to: new)
        #expect(lines.first == "count: 0 → 1")
        #expect(lines.contains { $0 == "weakObject: DiffedObject → nil" })
        #expect(lines.contains { $0 == "unownedObject.id: 1 → 2" })
        #expect(lines.contains { $0 == #"anything: 1 → "x""# })
        withExtendedLifetime((object, other)) {}
    }

    @Test func typesWithTheirOwnMirrorAreReadWithMirror() {
        #expect(TypeShape.of([Int].self).fields == nil)
        #expect(TypeShape.of(Date.self).fields == nil)
        #expect(TypeShape.of(StateDiffTestMode.self).fields == nil)
        #expect(StateDiff.lines(from: [1, 2], to: [1, 3]) == ["[1]: 2 → 3"])
    }

    @Test func aStructOfEmptyFieldsPrintsWhole() {
        #expect(StateDiff.lines(from: DiffedEmpties(), to: DiffedEmpties()).isEmpty)
    }

    @Test func anEquatableValueIsComparedOnce() {
        #expect(TypeShape.of(Int.self).isEqual(1, 1) == true)
        #expect(TypeShape.of(Int.self).isEqual(1, "1") == false)
        #expect(TypeShape.of(DiffedLeaf.self).isEqual(DiffedLeaf(), DiffedLeaf()) == nil)
        #expect(TypeShape.of(Int.self).isPlain && !TypeShape.of(DiffedLeaf.self).isPlain)
    }

    /// A diff prints an optional as the value it holds, or `nil`, as users write values (issue 34.5).
    @Test(arguments: [Set<String>(), ["pin"]])
    func optionalsPrintAsTheirValuesAtAnyDepth(redactingKeys: Set<String>) {
        let old = OptionalFields()
        var new = old
        new.count = 0
        new.counts.append(3)
        new.counts.append(nil)
        new.notes.append(OptionalFields.Note(due: 3, secret: nil))

        let lines = StateDiff.lines(from: old, to: new, redacting: redactingKeys)

        #expect(
            lines == [
                "count: nil → 0",
                "counts[0]: + 3",
                "counts[1]: + nil",
                "notes[0]: + OptionalFields.Note(due: 3, secret: nil)",
            ])
        var changed = new
        changed.count = 7
        #expect(StateDiff.lines(from: new, to: changed) == ["count: 0 → 7"])
    }

    @Test func aLazyVarUnderARedactedKeyIsNotPrinted() {
        var old = LazySecret()
        var new = LazySecret()
        _ = old.pin
        new.pin = 4711

        let lines = StateDiff.lines(from: old, to: new, redacting: ["pin"])

        #expect(!lines.joined().contains("4711"))
        #expect(lines.count == 1)
    }
}

private struct LazySecret: Sendable {
    lazy var pin = 1234
}

struct OptionalFields: Sendable {
    struct Note: Sendable {
        var due: Int?
        var secret: String?
    }

    var count: Int?
    var counts: [Int?] = []
    var notes: [Note] = []
}
