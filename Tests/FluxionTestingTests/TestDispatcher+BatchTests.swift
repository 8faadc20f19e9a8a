import Fluxion
import FluxionTesting
import Testing

@Suite(.timeLimit(.minutes(10))) struct TestDispatcherBatchTests {
    private func makeTest() throws -> TestDispatcher {
        let test = TestDispatcher()
        try test.register(CounterStore.self)
        try test.register(LogStore.self)
        return test
    }

    @Test func aBatchIsAssertedAsOneStep() async throws {
        let test = try makeTest()

        try test.batch { batch in
            try batch.dispatch(.add, payload: 1)
            try batch.dispatch(.add, payload: 2)
            try batch.mutate(CounterStore.self) { $0.label = "three" }
        } expecting: {
            $0.modify(CounterStore.self) { $0 = Counter(count: 3, label: "three") }
            $0.modify(LogStore.self) { $0.lines = ["add 1", "add 2"] }
        }
        await test.finish()
    }

    @Test func aBatchThatChangedOtherwiseFails() async throws {
        let test = try makeTest()

        try withKnownIssue {
            try test.batch { batch in
                try batch.dispatch(.add, payload: 1)
            } expecting: {
                $0.modify(CounterStore.self) { $0.count = 2 }
                $0.modify(LogStore.self) { $0.lines = ["add 1"] }
            }
        } matching: { issue in
            let text = "\(issue)"
            return text.contains("Fluxion.batch") && text.contains("count: 2 → 1")
        }
    }

    @Test func aFailedBatchChangesNothingAndRecordsNothing() async throws {
        let test = try makeTest()
        struct Refused: Error {}

        #expect(throws: Refused.self) {
            try test.batch { batch in
                try batch.dispatch(.add, payload: 1)
                throw Refused()
            }
        }
        try test.dispatch(.label, payload: "after") { $0.modify(CounterStore.self) { $0.label = "after" } }
        await test.finish()
    }

    @Test func aBatchRunByOtherCodeIsReceivedOnceCommitted() async throws {
        let test = try makeTest()

        test.dispatcher.dispatchTask { dispatcher in
            try dispatcher.batch { batch in
                try batch.dispatch(.add, payload: 1)
                try batch.dispatch(.label, payload: "one")
            }
        }

        try await test.receive(AnyAction.batchName) {
            $0.modify(CounterStore.self) { $0 = Counter(count: 1, label: "one") }
            $0.modify(LogStore.self) { $0.lines = ["add 1"] }
        }
        await test.finish()
    }

    @Test func aBatchOfAnActionAndAMutation() async throws {
        let test = try makeTest()

        // article-batch-begin
        try test.batch { batch in
            try batch.dispatch(.add, payload: 1)
            try batch.mutate(CounterStore.self) { $0.label = "one" }
        } expecting: {
            $0.modify(CounterStore.self) { $0 = Counter(count: 1, label: "one") }
            $0.modify(LogStore.self) { $0.lines = ["add 1"] }
        }
        // article-batch-end
        await test.finish()
    }

    @Test func aBatchThatChangedNothingPasses() async throws {
        let test = try makeTest()

        try test.batch { _ in }
        await test.finish()
    }
}
