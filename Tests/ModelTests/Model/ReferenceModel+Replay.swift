// Replay: the journal, from memory and from its file, dispatched again into fresh dispatchers that register
// every store. Each step's handlers run again on the replay's own states (a batch with an inline mutation
// sets its recorded states instead); each store starts from its state recorded before its first change; a
// computed store is derived, never set: its recorded states are checked. A store whose state is not
// `Codable` (D) cannot be compared: a replay that changes it does not match.
extension ReferenceModel {
    /// What the replays of the journal at the end of the program should say (see `RealRun.replayOutcome`),
    /// the handler of `divergence`, if any, appending other values than the recording's.
    func replayOutcome(divergence: Int?) -> [String] {
        replays(divergence: divergence).map { source, replay, steps in
            let unfinished = steps.flatMap(\.effects).filter { $0.outcome == nil }.count
            return "\(source): matched \(replay.matched), states \(divergence == nil ? "\(replay.states)" : "-"), "
                + "unfinished \(unfinished), started 0"
        }
    }

    /// The replays from memory and from the file, each run to its end, with the steps each replays.
    private func replays(divergence: Int?) -> [(source: String, replay: ModelReplay, steps: [ModelStep])] {
        let file = (steps + droppedSteps).sorted { $0.id < $1.id }
        let fileLines = fileLines.map { line -> ReplayedLine in
            switch line {
            case .step(let id): .step(file.first { $0.id == id }!)
            case .resume(let states): .resume(states)
            }
        }
        return [("memory", steps.map(ReplayedLine.step), steps), ("file", fileLines, file)].map {
            source, lines, steps in
            var replay = ModelReplay(divergence: divergence)
            for line in lines { replay.run(line) }
            return (source, replay, steps)
        }
    }
}

/// A line a replay reads: a step, or a resume's states.
enum ReplayedLine {
    case step(ModelStep)
    case resume([(store: Int, state: [Int])])
}

/// A replay of the model's journal into a fresh dispatcher.
struct ModelReplay {
    /// The handler that appends other values than the recording's, if any.
    let divergence: Int?
    var states: [[Int]] = Array(repeating: [], count: ModelStoreSet.count)
    /// Each store's state as the recording has it so far, for the stores it named.
    private var expected: [Int: [Int]] = [:]
    /// The stores whose state before their first change was read.
    private var seen: Set<Int> = []
    private var mismatched = false
    private var incomparable = false

    init(divergence: Int?) {
        self.divergence = divergence
    }

    var matched: Bool { !mismatched && !incomparable }

    mutating func run(_ line: ReplayedLine) {
        switch line {
        case .step(let step): run(step)
        case .resume(let recorded):
            set(recorded)
            compare(recorded)
        }
    }

    private mutating func run(_ step: ModelStep) {
        let recorded = step.changes.map { (store: $0.store, state: $0.new) }
        // NB: a store's state before its first change is set first (D's is not written: it is not `Codable`).
        let firsts = step.changes.filter { seen.insert($0.store).inserted && $0.store != 3 }
        set(firsts.map { ($0.store, $0.old) })
        for change in firsts { expected[change.store] = change.old }
        switch step.replay {
        case .commands(let commands, _):
            var staged = states
            guard commands.allSatisfy({ handle($0, on: &staged) }) else {
                mismatched = true  // NB: the action threw: nothing of it is kept
                break
            }
            states = Derivation.derive(staged, registered: Array(0..<ModelStoreSet.count))
        case .setsStates: set(recorded)
        case .poke(let poke): poke.edit.apply(to: &states[7], value: poke.tag)
        }
        compare(recorded)
    }

    /// Sets the recorded states of the stores with handlers but D (which has none written), and derives the
    /// computed ones.
    private mutating func set(_ recorded: [(store: Int, state: [Int])]) {
        for (store, state) in recorded where store != 3 && !Derivation.isComputed(store) { states[store] = state }
        states = Derivation.derive(states, registered: Array(0..<ModelStoreSet.count))
    }

    /// Notes the recorded states, then compares every store the recording named with its recorded state.
    private mutating func compare(_ recorded: [(store: Int, state: [Int])]) {
        for (store, state) in recorded {
            if store == 3 { incomparable = true } else { expected[store] = state }
        }
        if expected.contains(where: { states[$0.key] != $0.value }) { mismatched = true }
    }

    /// Runs the handlers for `command` as the replay's dispatcher does, every store registered; `false` if one throws.
    private func handle(_ command: Command, on staged: inout [[Int]]) -> Bool {
        for store in ModelHandler.order(command) {
            if command.throwsIn == store { return false }
            guard command.touches.contains(store) else { continue }
            let value = command.carriesError ? -command.tag : command.tag
            command.edit.apply(to: &staged[store], value: divergence == store ? value + 1_000 : value)
        }
        return true
    }
}
