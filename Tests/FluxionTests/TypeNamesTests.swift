import Testing

@testable import Fluxion

/// A type of this file with the name of one of Fluxion's: the two share a name.
private struct BatchState {}

private enum TypeNameSamples {
    struct Inner<Value> {}
    enum Phase {
        case idle
        case importing(attempt: Int)
    }
}

/// Issue 45.3: type names print without their module, unless two types share a name.
@Suite struct TypeNamesTests {
    @Test func aTypeNamePrintsWithoutItsModules() {
        #expect(TypeNames.name(of: Int.self) == "Int")
        #expect(TypeNames.name(of: [String: Int?].self) == "Dictionary<String, Optional<Int>>")
        #expect(TypeNames.name(of: TypeNameSamples.Inner<Int>.self) == "TypeNameSamples.Inner<Int>")
        #expect(TypeNames.name(of: (Int, TypeNameSamples.Phase).self) == "(Int, TypeNameSamples.Phase)")
    }

    @Test func aValuePrintsWithoutItsTypesModule() {
        #expect(plainDescription(of: TypeNameSamples.Phase.idle, qualified: true) == "TypeNameSamples.Phase.idle")
        #expect(
            plainDescription(of: TypeNameSamples.Phase.importing(attempt: 1), qualified: true)
                == "TypeNameSamples.Phase.importing(attempt: 1)")
        let lines = StateDiff.lines(from: TypeNameSamples.Phase.idle, to: TypeNameSamples.Phase.importing(attempt: 1))
        #expect(lines == ["state: TypeNameSamples.Phase.idle → TypeNameSamples.Phase.importing(attempt: 1)"])
    }

    @Test func twoTypesThatShareANamePrintWithTheirModules() {
        _ = TypeNames.name(of: BatchState.self)
        _ = TypeNames.name(of: Fluxion.BatchState.self)

        #expect(TypeNames.name(of: Fluxion.BatchState.self) == "Fluxion.BatchState")
        #expect(TypeNames.name(of: BatchState.self).hasPrefix("FluxionTests."))
        #expect(plainDescription(of: BatchState(), qualified: true).hasPrefix("FluxionTests."))
    }
}
