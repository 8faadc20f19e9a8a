import Foundation
import Testing

@testable import Fluxion

private struct Point: Sendable {
    var x: Int
    var label: String
}

private enum Shape: Sendable {
    case dot
    case circle(Int)
    case line(from: Int, to: Int)
    case at(Point)
    case maybe(Int?)
}

private final class Reference: Sendable {}

private struct Described: CustomStringConvertible, Sendable {
    var hidden: Int? = 1
    var description: String { "described" }
}

/// Values print as Swift prints them, but for optionals, printed as the values they hold (issue 34.5).
@Suite struct PlainDescriptionTests {
    /// Without an optional in it, a value prints exactly as `print` and `debugPrint` print it, but for type
    /// names, printed without their module (issue 45.3).
    @Test func aValueWithoutOptionalsPrintsAsSwiftPrintsIt() {
        let values: [Any] = [
            1, "x", 1.5, true, (), Point(x: 1, label: "a"), Shape.dot, Shape.circle(2), Shape.line(from: 1, to: 2),
            Shape.at(Point(x: 0, label: "o")), (1, y: "s"), [1, 2], [String](), ["a": 1], [String: Int](), Set([1]),
            ArraySlice([1, 2]), ContiguousArray([1, 2]), Reference(), Described(), [Described()], Point.self,
            Date(timeIntervalSince1970: 0), ["k": [Point(x: 2, label: "b")]],
        ]
        for value in values {
            #expect(plainDescription(of: value) == withoutModules(String(describing: value)))
            #expect(plainDescription(of: value, qualified: true) == withoutModules(String(reflecting: value)))
        }
    }

    @Test func anOptionalPrintsAsTheValueItHoldsAtAnyDepth() {
        #expect(plainDescription(of: Int?.some(0) as Any) == "0")
        #expect(plainDescription(of: Int?.none as Any) == "nil")
        #expect(plainDescription(of: Int??.some(.some(3)) as Any) == "3")
        #expect(plainDescription(of: String?.some("a") as Any) == "a")
        #expect(plainDescription(of: String?.some("a") as Any, qualified: true) == #""a""#)
        #expect(plainDescription(of: [1, nil] as [Int?]) == "[1, nil]")
        #expect(plainDescription(of: ["k": Int?.some(1)]) == #"["k": 1]"#)
        #expect(plainDescription(of: (Int?.some(1), 2)) == "(1, 2)")
        #expect(plainDescription(of: Shape.maybe(4)) == "maybe(4)")
        #expect(plainDescription(of: Shape.maybe(nil), qualified: true) == "Shape.maybe(nil)")
        #expect(
            plainDescription(of: OptionalFields.Note(due: 3, secret: "s"), qualified: true)
                == #"OptionalFields.Note(due: 3, secret: "s")"#)
        #expect(plainDescription(of: Described?.some(Described()) as Any) == "described", "a description of its own")
    }

    /// Issue 45.3: a set's elements and a dictionary's entries print in one order, not their hash seed's.
    @Test func setsAndDictionariesPrintSorted() {
        #expect(plainDescription(of: Set(["pear", "apple", "fig"])) == #"["apple", "fig", "pear"]"#)
        #expect(plainDescription(of: Set([10, 9, 100]), qualified: true) == "Set([9, 10, 100])")
        #expect(plainDescription(of: ["rent": 2, "food": 1, "bills": 3]) == #"["bills": 3, "food": 1, "rent": 2]"#)
        #expect(plainDescription(of: [10: "b", 9: "a"]) == #"[9: "a", 10: "b"]"#, "by value, not by text")
        let tags: Set = [PlainTag(name: "b"), PlainTag(name: "a")]
        #expect(
            plainDescription(of: tags) == #"[PlainTag(name: "a"), PlainTag(name: "b")]"#,
            "by text")
    }

    @Test func anActionWithoutAPayloadPrintsAsItsName() {
        #expect(AnyAction(name: "refreshImport").description == "refreshImport")
        #expect(AnyAction(name: "refreshImport", payload: Int?.none).description == "refreshImport(nil)")
    }

    @Test func anActionPrintsItsOptionalErrorAndPayloadPlainly() {
        let action = AnyAction(name: "loaded", payload: [Int?]?.some([1, nil]), error: PlainFailure.code(nil))
        #expect(action.description == "loaded([1, nil]) error: code(nil)")
    }
}

/// `text` with the type names in it without their module.
private func withoutModules(_ text: String) -> String {
    text.contains("FluxionTests.") || text.contains("Swift.") ? TypeNames.unqualified(text) : text
}

/// Hashable, not `Comparable`: its sets print sorted by text.
struct PlainTag: Hashable {
    var name: String
}

private enum PlainFailure: Error {
    case code(Int?)
}
