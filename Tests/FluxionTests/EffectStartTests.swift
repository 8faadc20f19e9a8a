import Testing

@testable import Fluxion

/// An effect whose step queued nothing else is registered as the step commits and started once the step
/// is over, without the turn's queue: what comes in between still reaches it.
@Suite(.timeLimit(.minutes(10))) struct EffectStartTests {
    /// How each effect ended, by index, as the dispatcher reports it.
    private static func outcomes(of dispatcher: Dispatcher) -> (Recorder<String>, Int) {
        let outcomes = Recorder<String>()
        let key = dispatcher.observeTaskEvents { event in
            guard case .ended(let tag, let outcome, _) = event else { return }
            switch outcome {
            case .finished: outcomes.append("\(tag.index) finished")
            case .cancelled: outcomes.append("\(tag.index) cancelled")
            case .failed: outcomes.append("\(tag.index) failed")
            }
        }
        return (outcomes, key)
    }

    @Test func anObserverOfItsStepThatCancelsItKeepsItsWorkFromRunning() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(EffectOrderStore.self)
        let (outcomes, key) = Self.outcomes(of: dispatcher)
        defer { dispatcher.stopObservingTaskEvents(key) }
        let token = dispatcher.observe { _ in dispatcher.cancelTasks(id: "effect 0") }

        try dispatcher.dispatch(.askForEffects, payload: 2)
        await dispatcher.waitUntilDrained()

        #expect(outcomes.values.sorted() == ["0 cancelled", "1 finished"])
        #expect(dispatcher.runningTaskCount == 0)
        withExtendedLifetime(token) {}
    }

    @Test func effectsOfStepsRunOneAfterAnotherAllStartAndAllEnd() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(EffectOrderStore.self)
        let (outcomes, key) = Self.outcomes(of: dispatcher)
        defer { dispatcher.stopObservingTaskEvents(key) }
        // NB: the observer's dispatches queue behind the step: each one's effects start after the step's own.
        let token = dispatcher.observe { change in
            if change.action.name == ActionName<Int>.askForEffects.rawValue, let count = change.action.payload as? Int,
                count > 1
            {
                try? dispatcher.dispatch(.askForEffects, payload: count - 1)
            }
        }

        try dispatcher.dispatch(.askForEffects, payload: 3)
        await dispatcher.waitUntilDrained()

        #expect(outcomes.values.count == 3 + 2 + 1)
        #expect(outcomes.values.allSatisfy { $0.hasSuffix("finished") })
        #expect(dispatcher.runningTaskCount == 0)
        #expect(try dispatcher.store(EffectOrderStore.self).state == 6)
        withExtendedLifetime(token) {}
    }
}
