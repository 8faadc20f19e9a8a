extension PerformanceTrace {
    /// One interval a trace recorded: an action, a part of one, or an effect.
    ///
    /// Spans of one thread nest: an action's span holds its middleware's, its
    /// handlers' (a handler that calls ``Store/waitFor(_:)`` holds the other
    /// store's handler), its commit's and its observers'.
    public struct Span: Sendable, Hashable {
        /// What a span measures.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// One action, from its first middleware to its last observer.
            case action
            /// One batch, from its closure's start to its last observer.
            case batch
            /// One middleware, from its call to its return: it holds what its `next` ran.
            case middleware
            /// One store's handler run. For an action one store handles, it holds that store's
            /// commit too: such a change commits as its handler returns.
            case handler
            /// The commit (or rollback) of every store an action or batch changed.
            case commit
            /// The delivery of an action's or batch's changes to every observer.
            case observers
            /// One observer's call; for one with a queue, the time to queue its call.
            case observer
            /// An effect's task, from its start, when its action committed, to its end.
            case effect
        }

        /// What it measures.
        public let kind: Kind
        /// The action's name, the middleware's type, the store's type, or the observer; for an
        /// effect, its id (or `#n`, its place among its action's effects).
        public let name: String
        /// The name of the action it belongs to: the action that ran or asked for the effect.
        public let action: String
        /// How it ended, where there is something to say: a handler's `changed`, `unchanged`,
        /// `staged` or `threw`; a commit's `committed` or `rolled back`; an effect's `finished`,
        /// `failed`, `cancelled`, or `running` while it runs.
        public let outcome: String?
        /// The thread it ran on, numbered from 1 in the order the trace first saw them; `nil` for
        /// an effect, whose task may run on several.
        public let thread: Int?
        /// When it began, since the trace started.
        public let start: Duration
        /// How long it lasted.
        public let duration: Duration

        /// When it ended, since the trace started.
        public var end: Duration { start + duration }

        /// Creates a span; a trace makes them as it records.
        public init(
            kind: Kind, name: String, action: String, outcome: String? = nil, thread: Int?, start: Duration,
            duration: Duration
        ) {
            self.kind = kind
            self.name = name
            self.action = action
            self.outcome = outcome
            self.thread = thread
            self.start = start
            self.duration = duration
        }

        /// Whether it began no earlier and ended no later than `other`, on the same thread.
        public func isInside(_ other: Span) -> Bool {
            thread == other.thread && start >= other.start && end <= other.end
        }
    }
}

extension PerformanceTrace.Span {
    /// The span of `record`, placed from `origin`, the clock when the trace started; `names` names it.
    init(_ record: TraceRecord, origin: UInt64, names: inout TraceSubject.Names) {
        kind = record.kind
        name = names.name(of: record.subject)
        action = record.action
        outcome = record.outcome
        thread = record.thread == 0 ? nil : record.thread
        start = .nanoseconds(Int64(clamping: record.start > origin ? record.start - origin : 0))
        duration = .nanoseconds(Int64(clamping: record.end - record.start))
    }
}
