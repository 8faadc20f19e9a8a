import Foundation

// Effects in the journal: each step lists the effects it started, with when and how each ended;
// the file has a line for each start and end, the end of an effect whose step a resume dropped too.
extension Journal {
    /// Records what happened to an effect, in its step's entry and in the file.
    func note(_ event: TaskEvent) {
        let recorded = contents.withLock { contents -> (Int, JournalRecord.Effect, isOfDroppedStep: Bool)? in
            switch event {
            case .started(let tag, let time):
                let effect = JournalRecord.Effect(name: tag.name, index: tag.index, started: time)
                return contents.entries.update(serial: tag.step) { $0.effects.append(effect) }.map {
                    ($0.sequence, effect, false)
                }
            case .ended(let tag, let outcome, let time):
                var ended: JournalRecord.Effect?
                let entry = contents.entries.update(serial: tag.step) { entry in
                    guard let index = entry.effects.firstIndex(where: { $0.index == tag.index }) else { return }
                    entry.effects[index].ended = time
                    entry.effects[index].outcome = JournalRecord.Effect.Outcome(outcome)
                    ended = entry.effects[index]
                }
                guard let entry else {
                    return contents.endDroppedEffect(tag, outcome, at: time).map { ($0.sequence, $0.effect, true) }
                }
                return ended.map { (entry.sequence, $0, false) }
            case .skipped:
                return nil
            }
        }
        guard let (sequence, effect, isOfDroppedStep) = recorded else { return }
        var error: (any Error)?
        if case .ended(_, .failed(let failure), _) = event { error = failure }
        writer?.write(effect, ofStep: sequence, error: error, isOfDroppedStep: isOfDroppedStep)
    }
}

extension Journal.Contents {
    /// Keeps the effects still running of the steps after `position`, which a resume drops, so that the
    /// file records their ends.
    mutating func keepDroppedEffects(after position: Int) {
        for entry in entries.all where entry.sequence > position {
            let running = entry.effects.filter { $0.outcome == nil }
            if !running.isEmpty { droppedEffects[entry.serial] = (entry.sequence, running) }
        }
    }

    /// Ends the effect `tag` of a step a resume dropped, if it ran still.
    ///
    /// - Returns: The dropped step's number, and the effect as it ended.
    mutating func endDroppedEffect(_ tag: EffectTag, _ outcome: EffectOutcome, at time: Date)
        -> (sequence: Int, effect: JournalRecord.Effect)?
    {
        guard var dropped = droppedEffects[tag.step],
            let index = dropped.effects.firstIndex(where: { $0.index == tag.index })
        else { return nil }
        var effect = dropped.effects.remove(at: index)
        effect.ended = time
        effect.outcome = JournalRecord.Effect.Outcome(outcome)
        droppedEffects[tag.step] = dropped.effects.isEmpty ? nil : dropped
        return (dropped.sequence, effect)
    }
}
