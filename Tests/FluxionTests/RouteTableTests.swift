import Testing

@testable import Fluxion

/// The name → route list table: it must agree with a dictionary through any
/// sequence of insertions, replacements and removals, across its growth.
@Suite struct RouteTableTests {
    /// A list to tell entries apart by identity.
    private func makeList() -> RouteList {
        RouteList([], instances: [:])
    }

    @Test func aNameFindsTheListSetForItAndOthersFindNothing() {
        var table = RouteTable()
        let list = makeList()

        table["addTodo"] = list

        #expect(table["addTodo"] === list)
        #expect(table["addTodos"] == nil)
        #expect(table[""] == nil)
        #expect(table.names == ["addTodo"])
    }

    @Test func settingANameAgainReplacesItsListAndNilRemovesIt() {
        var table = RouteTable()
        let (first, second) = (makeList(), makeList())
        table["toggle"] = first

        table["toggle"] = second
        #expect(table["toggle"] === second)
        #expect(table.names == ["toggle"])

        table["toggle"] = nil
        #expect(table["toggle"] == nil)
        #expect(table.names.isEmpty)
        table["toggle"] = nil
        #expect(table.names.isEmpty, "removing a missing name changes nothing")
    }

    @Test func longNamesThatShareTheirBytesButOneAreTold() {
        var table = RouteTable()
        let prefix = String(repeating: "Zero<One<", count: 6)
        let names = ["Leaf", "Zero<Leaf>", "One<Leaf>"].map { prefix + $0 } + ["é", "日本語の名前"]
        let lists = names.map { _ in makeList() }

        for (name, list) in zip(names, lists) { table[name] = list }

        for (name, list) in zip(names, lists) { #expect(table[name] === list, "\(name)") }
    }

    @Test func namesCompareAsSwiftStringsDo() {
        var table = RouteTable()
        let (kelvin, accent) = (makeList(), makeList())

        table["\u{212A}"] = kelvin  // KELVIN SIGN, canonically equivalent to "K"
        table["e\u{301}"] = accent

        #expect(table["K"] === kelvin)
        #expect(table["é"] === accent)
        table["K"] = nil
        #expect(table["\u{212A}"] == nil)
        #expect(table.names == ["e\u{301}"])
    }

    /// Random insertions, replacements and removals of 300 names, checked against a dictionary after each step.
    @Test(arguments: [1, 2, 3, 42] as [UInt64])
    func agreesWithADictionaryThroughAnySequenceOfChanges(seed: UInt64) {
        var generator = SplitMix64(state: seed)
        var table = RouteTable()
        var model: [String: RouteList] = [:]
        // NB: with pairs of canonically equivalent names, one ASCII and one not, set in either order.
        let names =
            (0..<300).map { "action\($0)" } + (0..<20).map { String(repeating: "n", count: $0) }
            + ["K", "\u{212A}", "é", "e\u{301}", "Å", "\u{212B}"]

        for _ in 0..<5_000 {
            let name = names[Int(generator.next() % UInt64(names.count))]
            let list = generator.next() % 3 == 0 ? nil : makeList()
            table[name] = list
            model[name] = list
            #expect(table[name] === model[name])
        }

        #expect(Set(table.names) == Set(model.keys))
        for name in names { #expect(table[name] === model[name], "\(name)") }
    }

    @Test func equalASCIINamesHashEquallyWhateverTheirStorage() {
        let literal = "incrementCounterByOne"
        let built = ["increment", "Counter", "ByOne"].joined()

        #expect(RouteTable.asciiHash(of: literal) == RouteTable.asciiHash(of: built))
        #expect(RouteTable.asciiHash(of: "a") != RouteTable.asciiHash(of: "b"))
        #expect(RouteTable.asciiHash(of: "café") == nil)
    }
}
