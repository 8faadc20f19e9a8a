import Foundation

extension JournalLine {
    /// A step's cause as a journal file writes it: `{"queued": 2}` or `{"effect": "search", "step": 2}`.
    struct CauseRef: Codable, Sendable {
        /// The step whose handler, observer or middleware queued it.
        var queued: Int?
        /// The effect that dispatched it, and the step that started the effect.
        var effect: String?
        var step: Int?

        /// `nil` for a dispatch from outside, which the file leaves out.
        init?(_ cause: JournalRecord.Cause) {
            switch cause {
            case .outside: return nil
            case .queued(let step): queued = step ?? 0
            case .effect(let name, let step): (effect, self.step) = (name, step ?? 0)
            }
        }

        var cause: JournalRecord.Cause {
            if let effect { return .effect(effect, step: step.flatMap { $0 > 0 ? $0 : nil }) }
            return .queued(byStep: queued.flatMap { $0 > 0 ? $0 : nil })
        }
    }

    /// An effect's start or end, on a line of its own: effects run after their step is written.
    struct EffectEvent: Codable, Sendable {
        var name: String
        var index: Int
        /// `started`, `finished`, `failed` or `cancelled`.
        var event: String
        var error: String?
        /// Set on the end of an effect whose step ``Journal/resumeDiscardingLaterSteps()`` dropped, written
        /// after the resume line: the line names that step, not a later one of the same number.
        var dropped: Bool?

        init(_ effect: JournalRecord.Effect) {
            name = effect.name
            index = effect.index
            event = effect.outcome?.event ?? "started"
            if case .failed(let error)? = effect.outcome { self.error = error }
        }

        /// The outcome of an end line; `nil` for a start.
        var outcome: JournalRecord.Effect.Outcome? {
            switch event {
            case "finished": .finished
            case "failed": .failed(error ?? "")
            case "cancelled": .cancelled
            default: nil
            }
        }
    }
}

extension JournalLine {
    /// The lines of the starts and ends of a step's effects, as a journal file has them.
    static func effectLines(of entry: JournalEntries.Entry) -> [JournalLine] {
        entry.effects.flatMap { effect -> [JournalLine] in
            var start = effect
            (start.ended, start.outcome) = (nil, nil)
            return ([start] + (effect.outcome == nil ? [] : [effect])).map { event in
                var line = JournalLine(kind: .effect, sequence: entry.sequence, time: event.ended ?? event.started)
                line.effect = EffectEvent(event)
                return line
            }
        }
    }
}
