import Testing

@testable import Fluxion

/// Effects belong to the action that asks for them: they start when it commits, or never.
@Suite(.timeLimit(.minutes(10))) struct EffectsTests {
    @Test func anEffectStartsWhenItsActionCommits() async throws {
        let service = SearchService()
        let (dispatcher, search, errors) = try makeSearchDispatcher(service: service)

        try dispatcher.dispatch(.findProducts, payload: "mil")

        #expect(dispatcher.runningTaskCount == 1)  // started before dispatch returned
        await service.respond(to: "mil", with: ["milk"])
        await dispatcher.waitUntilDrained()
        #expect(search.state == Catalog(query: "mil", results: ["milk"], isLoading: false))
        #expect(errors.values.isEmpty)
    }

    /// A keystroke another store refuses: the action rolls back, its search never starts, and the
    /// search in flight is not cancelled.
    @Test(arguments: [ActionName<String>.findProducts, .findWithTask])
    func anActionThatRollsBackStartsNothingAndCancelsNothing(name: ActionName<String>) async throws {
        let service = SearchService()
        let (dispatcher, search, errors) = try makeSearchDispatcher(service: service)
        try dispatcher.dispatch(name, payload: "mil")

        #expect(throws: TestError("refused bad")) { try dispatcher.dispatch(name, payload: "bad") }

        #expect(dispatcher.runningTaskCount == 1)
        await service.respond(to: "mil", with: ["milk"])
        await dispatcher.waitUntilDrained()
        #expect(search.state.results == ["milk"])
        #expect(search.state.query == "mil")
        #expect(service.requests.values == ["mil"])
        #expect(errors.values.isEmpty)
    }

    @Test func dispatchTaskFromAHandlerOfARolledBackActionNeverRunsItsWork() async throws {
        let service = SearchService()
        let (dispatcher, search, _) = try makeSearchDispatcher(service: service)

        #expect(throws: TestError("refused bad")) { try dispatcher.dispatch(.findWithTask, payload: "bad") }

        let task = try #require(search.lastTask.value)
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(service.requests.values.isEmpty)
        #expect(dispatcher.runningTaskCount == 0)
    }

    @Test func dispatchTaskFromAHandlerRunsOnceTheActionCommits() async throws {
        let service = SearchService()
        let (dispatcher, search, _) = try makeSearchDispatcher(service: service)

        try dispatcher.dispatch(.findWithTask, payload: "br")

        #expect(dispatcher.runningTaskCount == 1)
        await service.respond(to: "br", with: ["bread"])
        try await #require(search.lastTask.value).value
        #expect(search.state.results == ["bread"])
    }

    @Test func effectsStartInTheOrderAskedFor() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(EffectOrderStore.self)
        let started = Recorder<Int>()
        let key = dispatcher.observeTaskEvents { event in
            if case .started(let tag, _) = event { started.append(tag.index) }
        }
        defer { dispatcher.stopObservingTaskEvents(key) }

        try dispatcher.dispatch(.askForEffects, payload: 3)

        #expect(started.values == [0, 1, 2])
    }

    @Test func aBatchStartsItsEffectsWhenItCommitsAndNoneWhenItRollsBack() async throws {
        let service = SearchService()
        let (dispatcher, search, _) = try makeSearchDispatcher(service: service)

        #expect(throws: TestError("refused bad")) {
            try dispatcher.batch { batch in
                try batch.dispatch(.findProducts, payload: "mil")
                try batch.dispatch(.findProducts, payload: "bad")
            }
        }
        #expect(dispatcher.runningTaskCount == 0)

        try dispatcher.batch { batch in
            try batch.dispatch(.findProducts, payload: "br")
            #expect(dispatcher.runningTaskCount == 0)  // not before the batch commits
        }
        #expect(dispatcher.runningTaskCount == 1)
        await service.respond(to: "br", with: ["bread"])
        await dispatcher.waitUntilDrained()
        #expect(search.state.results == ["bread"])
        #expect(service.requests.values == ["br"])
    }

    @Test func effectsKeptPastTheirHandlerCallAreRefused() throws {
        let (dispatcher, search, errors) = try makeSearchDispatcher()
        try dispatcher.dispatch(.findProducts, payload: "mil")
        dispatcher.cancelAllTasks()

        try #require(search.keptEffects.value).run(id: "late") { _ in }

        let error = try #require(errors.values.last)
        #expect(error.kind == .refused)
        #expect(error.hasTaskID("late"))
        #expect(error.error as? FluxionError == .effectOutsideHandler("late"))
    }

    @Test func effectsKeptPastTheirHandlerCallAreRefusedInALaterActionsHandlerToo() async throws {
        let service = SearchService()
        let (dispatcher, search, errors) = try makeSearchDispatcher(service: service)
        try dispatcher.dispatch(.findProducts, payload: "mil")

        try dispatcher.dispatch(.useKeptEffects)

        #expect(search.state.query == "stale")
        #expect(dispatcher.runningTaskCount == 1)  // the search alone
        #expect(errors.values.map { $0.error as? FluxionError } == [.effectOutsideHandler("stale")])
        await service.respond(to: "mil", with: [])
        await dispatcher.waitUntilDrained()
    }
}
