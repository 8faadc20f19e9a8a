// Time travel: a move shows the states after another step, as one change per store heard as
// `Fluxion.travel`; the present comes back with the dispatches held meanwhile, in order. A move sets the
// stores with handlers, each from its own journaled changes, and derives the computed stores from them.
extension ReferenceModel {
    /// The sequence number of the position before the oldest step in memory.
    var oldest: Int { (steps.first?.sequence ?? nextSequence) - 1 }

    mutating func stepBack() {
        let current = position ?? newest
        guard current - 1 >= oldest else {
            world.outcome = "threw journal"
            return
        }
        move(to: current - 1)
    }

    mutating func stepForward() {
        guard let current = position else {
            world.outcome = "threw journal"
            return
        }
        move(to: current + 1)
    }

    mutating func travel(to target: Int) {
        guard (oldest...newest).contains(target) else {
            world.outcome = "threw journal"
            return
        }
        move(to: target)
    }

    /// Shows the states after step `target` (the present at the newest), then delivers what was held.
    mutating func move(to target: Int) {
        let current = position ?? newest
        var states = world.states
        for store in registered where !Derivation.isComputed(store) {
            if let state = journaledState(of: instance(of: store), after: target, from: current) {
                states[store] = state
            }
        }
        noteMoveOverUnregisteredStores(to: target, from: current)
        // NB: a computed store is derived from the states the move sets; its journaled states are not set.
        states = Derivation.derive(states, registered: registered)
        var reactions: [(store: Int, reaction: Reaction)] = []
        for store in registered where world.states[store] != states[store] {
            world.observed.append(
                "\(ModelHandler.storeNames[store]) \(world.states[store]) → \(states[store]) by Fluxion.travel")
            if let reaction = takeObserverArm(store) { reactions.append((store, reaction)) }
        }
        world.states = states
        position = target == newest ? nil : target
        let queuedBefore = queue
        queue = []
        for (store, reaction) in reactions { react(reaction, of: store, inStep: nil) }
        let reacted = queue
        queue = queuedBefore
        // NB: reaching the present, the held dispatches come first, before what the move's observers queued.
        if !isTravelling {
            queue.append(contentsOf: held.map { Queued.released(.task($0)) })
            held = []
        }
        queue.append(contentsOf: reacted)
        drainQueue()
    }

    /// The state a move from step `current` to step `target` sets a store to, from the steps in memory: the
    /// state before its first change after `target`, or, if none, its state after its last change; `nil` (it
    /// keeps what it shows) when no step between the two changed it. A store registered again is a new
    /// store: before its first change it shows the state it started from.
    func journaledState(of instance: StoreInstance, after target: Int, from current: Int) -> [Int]? {
        let (low, high) = (min(target, current), max(target, current))
        let changes = steps.flatMap { step in
            step.changes.filter { $0.instance == instance }.map { (sequence: step.sequence, change: $0) }
        }
        guard changes.contains(where: { $0.sequence > low && $0.sequence <= high }) else { return nil }
        return changes.first { $0.sequence > target }?.change.old ?? changes.last?.change.new
    }

    /// The store of type `store` registered now: its generation.
    func instance(of store: Int) -> StoreInstance {
        StoreInstance(store: store, generation: generations[store])
    }

    /// Makes the shown past the present: later steps and held dispatches are dropped.
    mutating func resume() {
        guard let target = position else { return }
        // NB: the file records where recording resumed, with the state of every store a step in memory changed
        // (a store unregistered since too: as it was when it was unregistered), in the order they first changed.
        var seen: Set<StoreInstance> = []
        let instances = steps.flatMap(\.changes).map(\.instance).filter { seen.insert($0).inserted }
        fileLines.append(
            .resume(
                instances.map { instance in
                    let isCurrent =
                        registered.contains(instance.store) && instance == self.instance(of: instance.store)
                    return (instance.store, isCurrent ? world.states[instance.store] : orphans[instance] ?? [])
                }))
        droppedSteps += steps.filter { $0.sequence > target }
        steps.removeAll { $0.sequence > target }
        nextSequence = target + 1
        unsaved.formUnion([0, 1])  // every persistent store: the states it shows are the present now
        present = world.states
        position = nil
        for dispatch in held { report("task dropped \(idOfTask(at: dispatch.gate))") }
        held = []
    }
}
