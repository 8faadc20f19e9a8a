import Fluxion
import Testing

extension ActionName where Payload == String {
    fileprivate static var oldEffectsClosure: Self { "oldSpellingEffectsClosure" }
    fileprivate static var oldMethod: Self { "oldSpellingMethod" }
    fileprivate static var oldEffectsMethod: Self { "oldSpellingEffectsMethod" }
    fileprivate static var oldStoreEffectsClosure: Self { "oldSpellingStoreEffectsClosure" }
    fileprivate static var oldSpellingEffectRan: Self { "oldSpellingEffectRan" }
}

/// A table in the spellings replaced in issue 35: each entry forwards to its new form.
private final class OldSpellingStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    let prefix = "store:"

    init() { super.init(initialState: []) }

    @available(*, deprecated)
    override class var handlers: Handlers {
        HandlerTable()
            .on(.oldEffectsClosure) { log, action, effects in
                log.append(action.payload)
                effects.run { dispatcher in try dispatcher.dispatch(.oldSpellingEffectRan, payload: "closure") }
            }
            .on(.oldMethod, OldSpellingStore.record)
            .on(.oldEffectsMethod, OldSpellingStore.recordLater)
            .on(.oldStoreEffectsClosure, in: OldSpellingStore.self) { store, log, action, effects in
                log.append(store.prefix + action.payload)
                effects.run { dispatcher in try dispatcher.dispatch(.oldSpellingEffectRan, payload: "store") }
            }
            .on(.oldSpellingEffectRan) { log, action in log.append("ran " + action.payload) }
    }

    func record(_ log: inout [String], _ action: Action<String>) {
        log.append(prefix + action.payload)
    }

    func recordLater(_ log: inout [String], _ action: Action<String>, _ effects: Effects) {
        log.append(action.payload)
        effects.run { dispatcher in try dispatcher.dispatch(.oldSpellingEffectRan, payload: "method") }
    }
}

@Suite(.timeLimit(.minutes(10))) struct HandlerTableDeprecatedTests {
    @Test func theOldSpellingsStillHandleTheirActions() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(OldSpellingStore.self)

        try dispatcher.dispatch(.oldEffectsClosure, payload: "a")
        await dispatcher.waitUntilDrained()
        try dispatcher.dispatch(.oldMethod, payload: "b")
        try dispatcher.dispatch(.oldEffectsMethod, payload: "c")
        await dispatcher.waitUntilDrained()
        try dispatcher.dispatch(.oldStoreEffectsClosure, payload: "d")
        await dispatcher.waitUntilDrained()

        #expect(
            try dispatcher.store(OldSpellingStore.self).state == [
                "a", "ran closure", "store:b", "c", "ran method", "store:d", "ran store",
            ])
    }
}
