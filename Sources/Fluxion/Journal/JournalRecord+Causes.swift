import Foundation

extension JournalRecord {
    /// What made a step run.
    public enum Cause: Sendable, Equatable, CustomStringConvertible {
        /// A dispatch from outside any step: a view, an action creator, a task started from outside, or a
        /// task of another dispatcher, even one of its effects.
        case outside
        /// A dispatch that a handler, an observer or a middleware of step `step` queued; `nil` for a
        /// step the journal did not record (a middleware dropped it, or it is older than the journal).
        case queued(byStep: Int?)
        /// A dispatch by an effect — named by its id, or `#n` for the n-th one without an id — that
        /// step `step` started.
        case effect(String, step: Int?)

        /// The cause in words: `user`, `follow-up of #3`, `effect "search" of #5`.
        public var description: String {
            switch self {
            case .outside: "outside"
            case .queued(let step): "queued by \(Self.name(of: step))"
            case .effect(let name, let step): "effect \(name) of \(Self.name(of: step))"
            }
        }

        private static func name(of step: Int?) -> String {
            step.map { "#\($0)" } ?? "an unrecorded step"
        }
    }

    /// An effect a step started: a task that ran after the step committed.
    public struct Effect: Sendable, Equatable {
        /// How an effect's task ended.
        public enum Outcome: Sendable, Equatable, CustomStringConvertible {
            /// Its work returned.
            case finished
            /// Its work threw the error described.
            case failed(String)
            /// It was cancelled.
            case cancelled

            /// `finished`, `failed: …` or `cancelled`.
            public var description: String {
                switch self {
                case .finished: "finished"
                case .failed(let error): "failed: \(error)"
                case .cancelled: "cancelled"
                }
            }
        }

        /// Its id, as it prints, or `#n` for the n-th effect of the step without an id.
        public let name: String
        /// Its place among the step's effects, from 0.
        public let index: Int
        /// When it started.
        public let started: Date
        /// When it ended; `nil` while it runs (or when the journal was cut short).
        public internal(set) var ended: Date?
        /// How it ended; `nil` while it runs.
        public internal(set) var outcome: Outcome?
    }
}

extension JournalRecord.Effect.Outcome {
    init(_ outcome: EffectOutcome) {
        switch outcome {
        case .finished: self = .finished
        case .failed(let error): self = .failed(plainDescription(of: error))
        case .cancelled: self = .cancelled
        }
    }

    /// The outcome as a journal file writes it.
    var event: String {
        switch self {
        case .finished: "finished"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}

extension JournalRecord {
    /// Adds an effect that started, or completes one that ended, from a journal file's effect line.
    mutating func note(_ event: JournalLine.EffectEvent, at time: Date) {
        guard let outcome = event.outcome else {
            return effects.append(Effect(name: event.name, index: event.index, started: time))
        }
        guard let index = effects.firstIndex(where: { $0.index == event.index }) else { return }
        effects[index].ended = time
        effects[index].outcome = outcome
    }
}
