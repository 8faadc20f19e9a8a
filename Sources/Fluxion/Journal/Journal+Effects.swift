import Foundation

// Effects in the journal: each step lists the effects it started, with when and how each ended;
// the file has a line for each start and end.
extension Journal {
    /// Records what happened to an effect, in its step's entry and in the file.
    func note(_ event: TaskEvent) {
        let recorded = contents.withLock { contents -> (Int, JournalRecord.Effect)? in
            switch event {
            case .started(let tag, let time):
                let effect = JournalRecord.Effect(name: tag.name, index: tag.index, started: time)
                return contents.entries.update(serial: tag.step) { $0.effects.append(effect) }.map {
                    ($0.sequence, effect)
                }
            case .ended(let tag, let outcome, let time):
                var ended: JournalRecord.Effect?
                let entry = contents.entries.update(serial: tag.step) { entry in
                    guard let index = entry.effects.firstIndex(where: { $0.index == tag.index }) else { return }
                    entry.effects[index].ended = time
                    entry.effects[index].outcome = JournalRecord.Effect.Outcome(outcome)
                    ended = entry.effects[index]
                }
                return entry.flatMap { entry in ended.map { (entry.sequence, $0) } }
            case .skipped:
                return nil
            }
        }
        guard let (sequence, effect) = recorded else { return }
        var error: (any Error)?
        if case .ended(_, .failed(let failure), _) = event { error = failure }
        writer?.write(effect, ofStep: sequence, error: error)
    }
}
