/// Writes random programs from a seed: each operation is one the model can take now (a gate that
/// waits, a suspension to release), so a program exercises, not trips over, its own setup.
struct ProgramGenerator {
    var random: SplitMix64
    var avoiding: OpenDefects
    private(set) var model = ReferenceModel()
    private var nextTag = 1
    var nextMutationTag = 800
    private var nextGate = 1
    private var armed = 0
    /// Whether a task of the program awaits the drain (two would wait for each other).
    private var hasDrainer = false

    init(seed: UInt64, avoiding: OpenDefects = .all) {
        random = SplitMix64(seed: seed)
        self.avoiding = avoiding
    }

    /// A program of up to `length` operations, and the store (if any) whose handler its replay changes.
    mutating func program(length: Int) -> Program {
        var operations: [Operation] = []
        // NB: now and then a computed store is unregistered before any step, to be registered after its sources'
        // first steps (travelling back, it has no step of its own to show).
        if random.below(4) == 0 {
            var operation = Operation.unregister(store: 4 + random.below(3))
            if avoiding.excludes(operation, after: model) { operation = .unregister(store: 6) }
            model.apply(operation)
            operations.append(operation)
        }
        for _ in 0..<length {
            let operation = next()
            model.apply(operation)
            operations.append(operation)
        }
        // NB: a program may end with the dispatcher's shutdown, while an action is in flight. Not while suspended:
        // the released actions would let a task awaiting the drain go on at the same time as the shutdown.
        if random.below(8) == 0, model.suspensions == 0 {
            let shutdown = Operation.shutdown(inFlight: command(depth: 1))
            if !avoiding.excludes(shutdown, after: model) {
                model.apply(shutdown)
                operations.append(shutdown)
            }
        }
        let divergence = random.below(5) == 0 ? random.below(storeCount) : nil
        return Program(operations: operations, divergence: divergence)
    }

    /// The stores programs touch: all four, the one whose state is not `Codable` (store 3) too.
    let storeCount = 4

    /// An operation the model can take now, and that no switch of `avoiding` excludes.
    private mutating func next() -> Operation {
        while true {
            let operation = candidate()
            if !avoiding.excludes(operation, after: model) { return operation }
        }
    }

    private mutating func candidate() -> Operation {
        let parked = model.tasks.filter { $0.value.phase == .parked }.keys.sorted()
        let lingering = model.tasks.filter { $0.value.phase == .lingering }.keys.sorted().map { -$0 }
        let gates = parked + lingering
        while true {
            switch random.below(116) {
            case 0..<22: return .dispatch(command(depth: 2))
            case 22..<32:
                var plan = plan(depth: 1, needsID: false)
                plan.drains = !hasDrainer && random.below(8) == 0
                // NB: or its plain child task awaits the drain (one drainer at most: two would wait for each other).
                if !hasDrainer, !plan.drains, plan.child != nil, random.below(3) == 0 { plan.child?.drains = true }
                hasDrainer = hasDrainer || plan.drains || plan.child?.drains == true
                return .startTask(plan)
            case 32..<52 where !gates.isEmpty: return .proceed(gate: gates[random.below(gates.count)])
            case 52..<56: return .cancelTasks(id: ["a", "b", "c"][random.below(3)])
            case 56..<57: return .cancelAllTasks
            case 57..<60 where model.suspensions < 2: return .suspend
            case 60..<64 where model.suspensions > 0: return .release
            case 64..<66 where model.suspensions > 0: return .dispatchBypassingSuspension(command(depth: 1))
            case 66..<71 where model.newest > 0: return .stepBack
            case 71..<73 where model.isTravelling: return .stepForward
            case 73..<76 where model.isTravelling: return .returnToPresent
            case 76..<78 where model.isTravelling: return .resumeDiscardingLaterSteps
            case 78..<84 where model.suspensions == 0:
                let commands = (0...random.below(2)).map { _ in command(depth: 1) }
                let store = random.below(3) == 0 ? random.below(storeCount) : nil
                defer { if store != nil { nextMutationTag += 1 } }
                return .batch(
                    commands, mutating: store, mutationTag: store == nil ? 0 : nextMutationTag,
                    aborts: random.below(8) == 0)
            case 84..<86 where model.suspensions == 0 && !model.isTravelling:
                return .batchSteppingBack(command(depth: 0))
            case 86..<92 where armed < 6:
                armed += 1
                // NB: the computed stores E, F and G have observers too.
                return .armObserver(store: random.below(ModelStoreSet.count), reaction())
            case 92..<95 where armed < 6:
                armed += 1
                return random.below(2) == 0
                    ? .armMiddleware(.throwAfterNext) : .armMiddleware(.startTask(plan(depth: 0, needsID: true)))
            case 95..<99: return .flush
            case 99: return random.below(2) == 0 ? .attachSecondJournal : .openSecondDispatcher
            case 100..<116: if let operation = storeSetCandidate(random.below(16)) { return operation }
            default: continue
            }
        }
    }

    private mutating func reaction() -> Reaction {
        switch random.below(9) {
        case 0..<3: .dispatch(command(depth: 0))
        case 3..<5: .startTask(plan(depth: 0, needsID: true))
        case 5: .stepBack
        case 6: .read
        default: .cancelTasks(id: ["a", "b", "c"][random.below(3)])
        }
    }

    mutating func command(depth: Int) -> Command {
        defer { nextTag += 1 }
        var command = Command(tag: nextTag, touches: (0..<storeCount).filter { _ in random.below(2) == 0 })
        if random.below(10) == 0 { command.throwsIn = random.below(storeCount) }
        command.waits = random.below(7) == 0
        if depth > 0 {
            if random.below(6) == 0 { command.then.append(.dispatch(self.command(depth: depth - 1))) }
            if random.below(3) == 0 { command.then.append(.effect(plan(depth: depth - 1, needsID: true))) }
            if random.below(10) == 0 { command.then.append(.effect(plan(depth: depth - 1, needsID: true))) }
            if random.below(8) == 0 { command.then.append(.cancel(["a", "b", "c"][random.below(3)])) }
            if random.below(10) == 0 {
                command.then.append(.cancelFromAnotherThread(["a", "b", "c"][random.below(3)]))
            }
        }
        command.reusesEffects = random.below(20) == 0
        command.carriesError = random.below(8) == 0
        command.edit = edit()
        if random.below(8) == 0 { command.readsIn = random.below(storeCount) }
        return command
    }

    mutating func plan(depth: Int, needsID: Bool) -> TaskPlan {
        let gate = nextGate
        nextGate += 2
        let id = needsID || random.below(3) > 0 ? ["a", "b", "c"][random.below(3)] : nil
        var plan = TaskPlan(id: id, cancelInFlight: random.below(3) == 0, gate: gate, dispatches: nil)
        if random.below(7) > 0 { plan.dispatches = command(depth: depth) }
        if random.below(10) == 0 { plan.child = ChildPlan(gate: gate + 1, dispatches: command(depth: 0)) }
        plan.lingers = random.below(6) == 0
        return plan
    }
}

/// A program: its operations, then a replay of its journal (from memory and from the file) into
/// fresh dispatchers, whose handler of `divergence`, if set, appends other values than the recording's.
struct Program: Sendable, CustomStringConvertible {
    var operations: [Operation]
    var divergence: Int? = nil
    /// Whether store C's factory starts a task in the dispatchers the journal is replayed into.
    var factoryStartsTask = true
    /// Whether the journal is replayed at the end (a known-issue test may skip it).
    var replays = true

    var description: String {
        "Program(\n            operations: [\n"
            + operations.map { "                \($0)," }.joined(separator: "\n")
            + "\n            ]" + (divergence.map { ", divergence: \($0)" } ?? "")
            + (factoryStartsTask ? "" : ", factoryStartsTask: false") + (replays ? "" : ", replays: false")
            + ")"
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
