import Fluxion
import Testing

@Suite struct FluxionErrorTests {
    @Test func aPayloadMismatchNamesTheActionAndBothTypes() {
        let error = FluxionError.payloadTypeMismatch(action: "addTodo", expected: "String", actual: "Int")

        #expect(error.description == "Action 'addTodo' expects a payload of type String but was dispatched with Int.")
    }

    @Test func aStoreTypeMismatchNamesTheActionAndBothStores() {
        let description = FluxionError.storeTypeMismatch(action: "addTodo", expected: "TodoStore", actual: "StatsStore")
            .description

        #expect(description.contains("'addTodo'"))
        #expect(description.contains("TodoStore"))
        #expect(description.contains("StatsStore"))
    }

    @Test func registrationErrorsNameTheStore() {
        #expect(FluxionError.storeNotRegistered("TodoStore").description.contains("TodoStore"))
        #expect(FluxionError.storeNotRegistered("TodoStore").description.contains("not registered"))
        #expect(FluxionError.storeAlreadyRegistered("TodoStore").description.contains("TodoStore"))
        #expect(FluxionError.storeAlreadyRegistered("TodoStore").description.contains("already registered"))
        #expect(FluxionError.recursiveStoreCreation("TodoStore").description.contains("TodoStore"))
    }

    @Test func aCycleReadsAsThePathOfStores() {
        let error = FluxionError.waitForCycle(["AStore", "BStore", "AStore"])

        #expect(error.description.contains("AStore → BStore → AStore"))
    }

    @Test func aWaitOutsideADispatchNamesTheStore() {
        let description = FluxionError.waitForOutsideDispatch("TodoStore").description

        #expect(description.contains("waitFor(TodoStore)"))
        #expect(description.contains("outside"))
    }

    @Test func errorsCompareByCaseAndValues() {
        #expect(FluxionError.storeNotRegistered("A") == .storeNotRegistered("A"))
        #expect(FluxionError.storeNotRegistered("A") != .storeNotRegistered("B"))
        #expect(FluxionError.storeNotRegistered("A") != .storeAlreadyRegistered("A"))
        #expect(FluxionError.waitForCycle(["A", "A"]) != .waitForCycle(["A", "B", "A"]))
    }
}
