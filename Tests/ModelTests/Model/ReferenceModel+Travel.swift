// Time travel: a move shows the states after another step, as one change per store heard as
// `Fluxion.travel`; the present comes back with the dispatches held meanwhile, in order.
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

    /// Shows the states after step `target` (the present at the newest), then delivers what was held.
    mutating func move(to target: Int) {
        let states =
            target == newest
            ? present : steps.first { $0.sequence == target }?.states ?? (target == oldest ? baseStates : present)
        var reactions: [Reaction] = []
        for store in 0..<5 where world.states[store] != states[store] {
            world.observed.append(
                "\(ModelHandler.storeNames[store]) \(world.states[store]) → \(states[store]) by Fluxion.travel")
            if let reaction = takeObserverArm(store) { reactions.append(reaction) }
        }
        world.states = states
        position = target == newest ? nil : target
        let queuedBefore = queue
        queue = []
        for reaction in reactions { react(reaction, inStep: nil) }
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

    /// Makes the shown past the present: later steps and held dispatches are dropped.
    mutating func resume() {
        guard let target = position else { return }
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
