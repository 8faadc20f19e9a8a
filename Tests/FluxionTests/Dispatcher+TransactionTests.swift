import Fluxion
import Testing

// MARK: The user's chat: sending clears the draft, unless the message cannot be sent

private struct ChatComposer: Sendable, Equatable {
    var draft = ""
}

private struct ChatOutbox: Sendable, Equatable {
    var isLoggedIn = false
    var sent: [String] = []
}

private enum ChatError: Error, Equatable {
    case notLoggedIn
}

extension ActionName where Payload == String {
    fileprivate static var txnTypeDraft: Self { "txnTypeDraft" }
    fileprivate static var txnSendMessage: Self { "txnSendMessage" }
}

extension ActionName where Payload == Void {
    fileprivate static var txnLogIn: Self { "txnLogIn" }
}

/// Registered first: sending clears the draft.
private final class ComposerStore: Store<ChatComposer>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: ChatComposer()) }

    override class var handlers: HandlerTable<ChatComposer> {
        HandlerTable()
            .on(.txnTypeDraft) { state, action in state.draft = action.payload }
            .on(.txnSendMessage) { state, _ in state.draft = "" }
    }
}

/// Registered second: sending throws `notLoggedIn` until `.txnLogIn`.
private final class MessagesStore: Store<ChatOutbox>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: ChatOutbox()) }

    override class var handlers: HandlerTable<ChatOutbox> {
        HandlerTable()
            .on(.txnLogIn) { state, _ in state.isLoggedIn = true }
            .on(.txnSendMessage) { state, action in
                guard state.isLoggedIn else { throw ChatError.notLoggedIn }
                state.sent.append(action.payload)
            }
    }
}

// MARK: Two stores that log their handler runs

extension ActionName where Payload == Int {
    fileprivate static var txnAdd: Self { "txnAdd" }
}

extension ActionName where Payload == Bool {
    /// The lead waits for the trail, which throws; the payload says whether the lead catches the error.
    fileprivate static var txnLeadWaits: Self { "txnLeadWaits" }
}

extension ActionName where Payload == Void {
    fileprivate static var txnTrailFails: Self { "txnTrailFails" }
    fileprivate static var txnBothFail: Self { "txnBothFail" }
    /// The lead waits for the trail, which throws; the lead then throws an error of its own.
    fileprivate static var txnLeadThrowsAfterTrail: Self { "txnLeadThrowsAfterTrail" }
}

/// Registered first; its handlers change the state before anything can fail.
private final class LeadStore: Store<Tally>, @unchecked Sendable {  // locked by Store; `log` is a Recorder
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: Tally())
    }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .on(.txnAdd) { state, action in state.add(action.payload) }
            .on(.txnTrailFails) { state, _ in state.add(1) }
            .route(.txnBothFail, to: LeadStore.fail)
            .route(.txnLeadWaits, to: LeadStore.waitForTrail)
            .route(.txnLeadThrowsAfterTrail, to: LeadStore.throwAfterTrail)
    }

    func throwAfterTrail(_ state: inout Tally, _ action: Action<Void>) throws {
        do {
            try waitFor(TrailStore.self)
        } catch {
            throw TestError("lead, after \(error)")
        }
    }

    func fail(_ state: inout Tally, _ action: Action<Void>) throws {
        log.append("lead")
        state.add(1)
        throw TestError("lead")
    }

    func waitForTrail(_ state: inout Tally, _ action: Action<Bool>) throws {
        state.add(1)
        do {
            try waitFor(TrailStore.self)
        } catch {
            guard action.payload else { throw error }
            log.append("lead caught \(error)")
        }
        state.add(2)
    }
}

/// Registered second; it fails after changing its state.
private final class TrailStore: Store<Tally>, @unchecked Sendable {  // locked by Store; `log` is a Recorder
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: Tally())
    }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .on(.txnAdd) { state, action in state.add(action.payload * 10) }
            .route(.txnTrailFails, to: TrailStore.fail)
            .route(.txnBothFail, to: TrailStore.fail)
            .on(.txnLeadWaits) { state, _ in
                state.add(5)
                throw TestError("trail")
            }
            .on(.txnLeadThrowsAfterTrail) { _, _ in throw TestError("trail") }
    }

    func fail(_ state: inout Tally, _ action: Action<Void>) throws {
        log.append("trail")
        state.add(99)
        throw TestError("trail")
    }
}

/// A dispatcher with ``LeadStore`` then ``TrailStore``, both changed once by `.txnAdd(1)`.
private func makeLeadAndTrail() throws -> (Dispatcher, LeadStore, TrailStore, Recorder<String>) {
    let log = Recorder<String>()
    let dispatcher = Dispatcher()
    try dispatcher.register(LeadStore.self) { LeadStore(log: log) }
    try dispatcher.register(TrailStore.self) { TrailStore(log: log) }
    try dispatcher.dispatch(.txnAdd, payload: 1)
    return (dispatcher, try dispatcher.store(LeadStore.self), try dispatcher.store(TrailStore.self), log)
}

@Suite struct TransactionTests {
    @Test func aFailingHandlerRollsBackEveryStoreOfTheActionAndNobodyHearsOfIt() throws {
        let (dispatcher, lead, trail, log) = try makeLeadAndTrail()
        let witness = ChangeWitness(dispatcher)
        witness.watch(lead, as: "lead")
        witness.watch(trail, as: "trail")
        let before = (lead.state, trail.state)

        #expect(throws: TestError("trail")) { try dispatcher.dispatch(.txnTrailFails) }

        #expect(lead.state == before.0, "the lead's handler returned, yet its change is rolled back")
        #expect(trail.state == before.1)
        #expect(log.values == ["trail"])
        #expect(witness.entries.isEmpty, "no observer, whole-dispatcher observer or tracker hears a rolled-back action")
    }

    @Test func theDraftStaysWhenSendingFailsBecauseTheUserIsNotLoggedIn() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(ComposerStore.self)
        try dispatcher.register(MessagesStore.self)
        let composer = try dispatcher.store(ComposerStore.self)
        let messages = try dispatcher.store(MessagesStore.self)
        try dispatcher.dispatch(.txnTypeDraft, payload: "Hello")
        let witness = ChangeWitness(dispatcher)
        witness.watch(composer, as: "composer")
        witness.watch(messages, as: "messages")

        #expect(throws: ChatError.notLoggedIn) { try dispatcher.dispatch(.txnSendMessage, payload: "Hello") }

        #expect(composer.state.draft == "Hello")
        #expect(messages.state == ChatOutbox())
        #expect(witness.entries.isEmpty)

        try dispatcher.dispatch(.txnLogIn)
        witness.reset()
        try dispatcher.dispatch(.txnSendMessage, payload: "Hello")

        #expect(composer.state.draft == "")
        #expect(messages.state.sent == ["Hello"])
        #expect(witness.entries.contains("token: composer txnSendMessage"))
        #expect(witness.entries.contains("owner: composer txnSendMessage"))
        #expect(witness.entries.contains("dispatcher: ComposerStore txnSendMessage"))
        #expect(witness.entries.contains("tracking: composer"))
    }

    @Test(arguments: [false, true])
    func aStoreThatWaitsForAFailingStoreIsRolledBackWithIt(leadCatchesTheError: Bool) throws {
        let (dispatcher, lead, trail, log) = try makeLeadAndTrail()
        let witness = ChangeWitness(dispatcher)
        witness.watch(lead, as: "lead")
        witness.watch(trail, as: "trail")
        let before = (lead.state, trail.state)

        #expect(throws: TestError("trail")) { try dispatcher.dispatch(.txnLeadWaits, payload: leadCatchesTheError) }

        #expect(lead.state == before.0)
        #expect(trail.state == before.1)
        #expect(log.values == (leadCatchesTheError ? ["lead caught TestError(trail)"] : []))
        #expect(witness.entries.isEmpty)
    }

    @Test func anActionCarryingAnErrorIsAChangeLikeAnyOther() throws {
        let (dispatcher, lead, trail, _) = try makeLeadAndTrail()
        let witness = ChangeWitness(dispatcher)
        witness.watch(lead, as: "lead")
        witness.watch(trail, as: "trail")
        let carried = Recorder<TestError?>()
        let token = lead.observe { change in carried.append(change.action.error as? TestError) }

        try dispatcher.dispatch(.txnAdd, payload: 2, error: TestError("carried"))

        #expect(lead.state.payloads == [1, 2])
        #expect(trail.state.payloads == [10, 20])
        #expect(carried.values == [TestError("carried")])
        for how in ["token", "owner"] {
            #expect(witness.entries.contains("\(how): lead txnAdd"))
            #expect(witness.entries.contains("\(how): trail txnAdd"))
        }
        #expect(witness.entries.contains("dispatcher: LeadStore txnAdd"))
        #expect(witness.entries.contains("dispatcher: TrailStore txnAdd"))
        #expect(witness.entries.contains("tracking: lead"))
        #expect(witness.entries.contains("tracking: trail"))
        token.cancel()
    }

    @Test func dispatchThrowsTheFirstErrorAndRunsNoHandlerAfterIt() throws {
        let (dispatcher, lead, trail, log) = try makeLeadAndTrail()
        let before = (lead.state, trail.state)

        #expect(throws: TestError("lead")) { try dispatcher.dispatch(.txnBothFail) }

        #expect(log.values == ["lead"], "the trail's handler, after the failing one, does not run")
        #expect(lead.state == before.0)
        #expect(trail.state == before.1)
    }

    @Test func aHandlerThrowingAfterTheStoreItWaitedForThrewLeavesTheFirstError() throws {
        let (dispatcher, lead, trail, _) = try makeLeadAndTrail()
        let before = (lead.state, trail.state)

        #expect(throws: TestError("trail"), "the trail's error came first") {
            try dispatcher.dispatch(.txnLeadThrowsAfterTrail)
        }

        #expect(lead.state == before.0)
        #expect(trail.state == before.1)
    }

    @Test func aBatchThrowsItsFirstErrorWhenTheClosureThrowsAnotherAfterIt() throws {
        let (dispatcher, lead, trail, _) = try makeLeadAndTrail()
        let before = (lead.state, trail.state)

        #expect(throws: TestError("lead"), "the handler's error came first") {
            try dispatcher.batch { batch in
                try batch.dispatch(.txnAdd, payload: 3)
                do { try batch.dispatch(.txnBothFail) } catch {}
                throw TestError("closure")
            }
        }

        #expect(lead.state == before.0)
        #expect(trail.state == before.1)
    }
}
