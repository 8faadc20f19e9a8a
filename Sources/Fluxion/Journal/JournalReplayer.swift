import Foundation

/// Replays journal lines into a dispatcher, one at a time, comparing the stores with the recording.
struct JournalReplayer {
    typealias NumberedLine = (number: Int, line: Result<JournalLine, any Error>)

    let dispatcher: Dispatcher
    let skippingErrors: Bool
    private var report = ReplayReport()
    /// Each store's state as the recording has it so far, by store identity (see `JournalLine.Change`).
    private var expected: [String: JSONValue] = [:]
    /// Each store's name as it prints, by store identity.
    private var names: [String: String] = [:]
    /// Each store's place in the recording, by store identity: a line names its stores in registration order.
    private var places: [String: Int] = [:]
    /// The keys the recording redacted: redacted in the replayed states too before they are compared.
    private var redacted: Set<String> = []
    /// The recorded effects that started and have not ended yet, in the order they started; `isDropped`
    /// once a resume dropped their step, whose number a later step may have.
    private var unfinished: [(step: Int, index: Int, name: String, isDropped: Bool)] = []
    /// The dispatcher's stores the recording names, by name: only these are compared.
    private var stores: [String: any StateReplacing] = [:]
    /// The stores a step changed whose state is not `Encodable`, so cannot be compared, by store identity.
    private var incomparable: Set<String> = []

    init(dispatcher: Dispatcher, skippingErrors: Bool) {
        self.dispatcher = dispatcher
        self.skippingErrors = skippingErrors
    }

    mutating func replay(_ lines: [NumberedLine], path: String, isComplete: Bool) throws -> ReplayReport {
        try Self.checkHeader(of: lines, path: path)
        if case .success(let header) = lines.first?.line { redacted = Set(header.redactedKeys ?? []) }
        // NB: no task starts and no queued action runs: what the recorded effects dispatched, and what the
        // steps queued, replays from the journal's own lines.
        let omitted = try dispatcher.replaying {
            for (number, result) in lines.dropFirst() {
                do {
                    let line = try Self.line(
                        result, number: number, isLast: number == lines.last?.number, isComplete: isComplete)
                    switch line.kind {
                    case .header: throw JournalError.corruptLine(line: number, reason: "a second header")
                    case .action: try replay(line, number: number)
                    case .resume:
                        dropEffects(after: line.sequence ?? 0)
                        try setRecordedStates(of: line, number: number)
                    case .effect:
                        note(line)
                        continue
                    case .refusal:
                        try replayRefusal(line, number: number)
                        continue
                    }
                    compare(after: line, number: number)
                } catch let error as JournalError where skippingErrors {
                    report.skipped.append(error)
                }
            }
        }.omitted
        report.followUpsNotRun = omitted.followUps
        report.tasksNotStarted = omitted.tasks
        report.unfinishedEffects = unfinished.map { "#\($0.step) \($0.name)" }
        report.differingStores = expected.keys.filter { identity in
            guard !incomparable.contains(identity), let store = stores[identity] else { return false }
            return !differences(of: store, from: expected[identity]).isEmpty
        }.map { names[$0] ?? $0 }.sorted()
        report.incomparableStores = Set(incomparable.map { names[$0] ?? $0 }).sorted()
        return report
    }

    /// Notes a recorded effect's start or end.
    ///
    /// NB: the end of an effect whose step a resume dropped is marked, as a later step may have its number.
    private mutating func note(_ line: JournalLine) {
        guard let effect = line.effect, let step = line.sequence else { return }
        guard effect.outcome != nil else { return unfinished.append((step, effect.index, effect.name, false)) }
        let isDropped = effect.dropped == true
        let ended = { (started: (step: Int, index: Int, name: String, isDropped: Bool)) in
            started.step == step && started.index == effect.index
        }
        if let index = unfinished.lastIndex(where: { ended($0) && $0.isDropped == isDropped })
            ?? unfinished.lastIndex(where: ended)
        {
            unfinished.remove(at: index)
        }
    }

    /// Notes that a resume dropped the steps after `position`, with the effects they started.
    private mutating func dropEffects(after position: Int) {
        for index in unfinished.indices where unfinished[index].step > position { unfinished[index].isDropped = true }
    }

    /// Checks that the first line is a journal header of a version this Fluxion reads.
    static func checkHeader(of lines: [NumberedLine], path: String) throws {
        guard let first = lines.first, case .success(let header) = first.line, header.kind == .header,
            header.format == JournalLine.format
        else {
            throw JournalError.notAJournal(path: path, reason: "its first line is not a Fluxion journal header")
        }
        guard let version = header.version, version <= JournalLine.version else {
            throw JournalError.notAJournal(
                path: path, reason: "it has version \(header.version ?? 0); this Fluxion reads \(JournalLine.version)")
        }
    }

    /// The line, or the error naming why it is corrupt: a last line with no end was cut short.
    static func line(_ result: Result<JournalLine, any Error>, number: Int, isLast: Bool, isComplete: Bool) throws
        -> JournalLine
    {
        do {
            return try result.get()
        } catch {
            let reason =
                isLast && !isComplete ? "it is cut short (written when the app stopped?)" : "it is not a journal line"
            throw JournalError.corruptLine(line: number, reason: reason)
        }
    }

    /// Dispatches a recorded step again, or sets its recorded states when it cannot be.
    ///
    /// NB: a bad line changes nothing: its stores, payloads and states are all found and decoded first.
    private mutating func replay(_ line: JournalLine, number: Int) throws {
        let changes = line.changes ?? []
        let lineStores = try changes.map { try store(of: $0, number: number) }
        let actions = line.replayedActions
        let replays = line.replayable == true && !actions.isEmpty && actions.allSatisfy(\.isReplayable)
        let decoded = try actions.filter { _ in replays }.map { action in
            AnyAction(
                name: action.name, payload: try payload(of: action, number: number),
                error: try error(of: action, number: number))
        }
        let seeds = try zip(changes, lineStores).compactMap { change, store -> (any StateReplacing, any Sendable)? in
            guard let before = change.before else { return nil }
            return (store, try Self.decode(name: change.store, number: number) { try store.decodeState(before) })
        }
        let recorded = replays ? [] : try recordedStates(of: line, number: number)
        for change in changes where change.before != nil { expect(change.before, of: change) }
        if !seeds.isEmpty { try dispatcher.setStates(seeds) }
        guard replays else {
            if !recorded.isEmpty { try dispatcher.setStates(recorded) }
            report.applied += 1
            return
        }
        do {
            if line.actions != nil {
                try dispatcher.batch { batch in for action in decoded { try batch.dispatch(action) } }
            } else {
                try dispatcher.dispatch(decoded[0])
            }
            report.replayed += 1
        } catch {
            noteMismatch(
                line, number: number, store: ReplayReport.Mismatch.noStore, diff: ["the action threw: \(error)"])
        }
    }

    /// Dispatches a recorded refusal again, which must be refused again with an equal error; one that is not
    /// replayable (refused while the past was shown, say) is passed over.
    private mutating func replayRefusal(_ line: JournalLine, number: Int) throws {
        guard line.replayable == true, let refusal = line.refusal else { return }
        let actions = try line.replayedActions.map { action in
            AnyAction(
                name: action.name, payload: try payload(of: action, number: number),
                error: try error(of: action, number: number))
        }
        let now: String
        do {
            if line.actions != nil {
                try dispatcher.batch { batch in for action in actions { try batch.dispatch(action) } }
            } else {
                try dispatcher.dispatch(actions[0])
            }
            now = "now it succeeds"
        } catch {
            guard !refusal.matches(error, redacting: redacted, errorTypes: dispatcher.replayableErrors) else {
                report.refusalsReplayed += 1
                return
            }
            now = "now it is refused with \(StateDiff.describe(error, redacting: redacted, qualified: false))"
        }
        noteMismatch(
            line, number: number, store: ReplayReport.Mismatch.refusal, diff: ["refused with \(refusal.error); \(now)"])
    }

    /// Sets the states a resume line recorded, without running a handler.
    private mutating func setRecordedStates(of line: JournalLine, number: Int) throws {
        let states = try recordedStates(of: line, number: number)
        if !states.isEmpty { try dispatcher.setStates(states) }
    }

    /// The states a line recorded, decoded for their stores; a store whose state is not `Encodable` has
    /// none, and is left as it is (`compare(after:number:)` lists it as not comparable).
    private mutating func recordedStates(of line: JournalLine, number: Int) throws
        -> [(store: any StateReplacing, state: any Sendable)]
    {
        try (line.changes ?? []).compactMap { change -> (store: any StateReplacing, state: any Sendable)? in
            let store = try store(of: change, number: number)
            guard let after = change.after else {
                guard store.isComparable else { return nil }
                throw JournalError.notReplayable(line: number, name: line.action?.name ?? AnyAction.travelName)
            }
            return (store, try Self.decode(name: change.store, number: number) { try store.decodeState(after) })
        }
    }

    /// Compares every store the recording named so far with its recorded state; a store the line changed
    /// whose state is not `Encodable` cannot be, and is listed as not comparable.
    private mutating func compare(after line: JournalLine, number: Int) {
        for change in line.changes ?? [] {
            expect(change.after, of: change)
            if let store = stores[change.identity], !store.isComparable { incomparable.insert(change.identity) }
        }
        guard report.mismatch == nil else { return }
        // NB: the first store in registration order: the one whose handler changed, before those that follow it.
        let inOrder = expected.sorted { places[$0.key, default: 0] < places[$1.key, default: 0] }
        for (identity, recorded) in inOrder where !incomparable.contains(identity) {
            guard let store = stores[identity] else { continue }
            let diff = differences(of: store, from: recorded)
            guard !diff.isEmpty else { continue }
            noteMismatch(line, number: number, store: names[identity] ?? identity, diff: diff)
            return
        }
    }

    /// Notes the state the recording gives the store of `change`.
    private mutating func expect(_ state: JSONValue?, of change: JournalLine.Change) {
        expected[change.identity] = state
        names[change.identity] = change.store
        if places[change.identity] == nil { places[change.identity] = places.count }
    }

    /// How the store's state differs from `recorded`, as values (see `StateComparison`); empty when it
    /// does not.
    private func differences(of store: any StateReplacing, from recorded: JSONValue?) -> [String] {
        StateComparison.differences(of: store.erasedState, in: store, from: recorded, redacting: redacted)
    }

    private mutating func noteMismatch(_ line: JournalLine, number: Int, store: String, diff: [String]) {
        guard report.mismatch == nil else { return }
        report.mismatch = ReplayReport.Mismatch(
            line: number, sequence: line.sequence ?? 0, action: line.action?.description ?? "",
            cause: line.cause?.cause ?? .outside, store: store, diff: diff)
    }

    /// The dispatcher's store that `change` names: by its qualified type name, or, in a file that lacks it,
    /// by its type's name.
    private mutating func store(of change: JournalLine.Change, number: Int) throws -> any StateReplacing {
        if let store = stores[change.identity] { return store }
        guard let store = try dispatcher.journaledStore(named: change.store, qualifiedName: change.type) else {
            throw JournalError.unknownStore(line: number, name: change.store)
        }
        stores[change.identity] = store
        return store
    }

    /// The payload of a recorded action, decoded as the type the handlers of its name take.
    private func payload(of action: JournalLine.Action, number: Int) throws -> any Sendable {
        let json = action.payload ?? .null
        switch dispatcher.payloadDecoder(of: action.name) {
        case nil:
            throw JournalError.unknownAction(line: number, name: action.name)
        case .catchAll:
            guard json == .null else {
                throw JournalError.undecodableValue(
                    line: number, name: action.name, reason: "only catch-all reducers take it, so its type is unknown")
            }
            return ()
        case .typed(let decoder):
            return try Self.decode(name: action.name, number: number) { try decoder.decodePayload(json) }
        }
    }

    /// The error of a recorded action, decoded as its recorded type, which the dispatcher must register;
    /// `nil` for an action without one.
    private func error(of action: JournalLine.Action, number: Int) throws -> (any Error)? {
        guard let type = action.errorType, let value = action.errorValue else { return nil }
        let errors = dispatcher.replayableErrors
        return try Self.decode(name: action.name, number: number) { try errors.decode(value, as: type) } as? any Error
    }

    private static func decode(name: String, number: Int, _ decode: () throws -> any Sendable) throws -> any Sendable {
        do {
            return try decode()
        } catch {
            throw JournalError.undecodableValue(line: number, name: name, reason: "\(error)")
        }
    }
}
