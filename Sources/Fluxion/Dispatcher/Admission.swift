/// Where a unit of work that arrives at a dispatcher goes: one pure decision, from the arrival and a
/// few facts about the dispatcher and the code it comes from. Nothing else in Fluxion decides it;
/// the dispatcher reads the facts under its lock, then carries the decision out.
///
/// The first row whose fact holds decides (facts a row does not name may be anything):
///
/// | arrival | fact | decision |
/// | --- | --- | --- |
/// | action | the caller holds the turn, in an open transaction (a handler) | ``Decision/joinTransaction`` |
/// | action | the caller acts for the holder, between two actions, suspended, not exclusive (a read) | ``Decision/waitForRelease`` |
/// | action | the caller acts for the holder (an observer, a middleware, a factory it waits for) | ``Decision/queueBehindStep`` |
/// | action | it comes from a cancelled task | ``Decision/refuse(_:)`` `.cancelledTask` |
/// | action | the dispatcher shuts down | ``Decision/refuse(_:)`` `.shutDown` |
/// | action | it comes from a task while a journal shows the past | ``Decision/holdForPresent`` |
/// | action | the dispatcher is suspended, and the action is not exclusive | ``Decision/waitForRelease`` |
/// | action | the turn is free (for the caller: not handed to another in line) | ``Decision/run`` |
/// | action | — | ``Decision/waitForTurn`` |
/// | batch, read | the caller acts for the holder | ``Decision/runInsideTurn`` |
/// | move | the caller acts for the holder | ``Decision/refuse(_:)`` `.moveInsideDispatch` |
/// | batch | it comes from a cancelled task | ``Decision/refuse(_:)`` `.cancelledTask` |
/// | batch | the dispatcher shuts down | ``Decision/refuse(_:)`` `.shutDown` |
/// | batch, read, move | the turn is free | ``Decision/run`` |
/// | batch, read, move | — | ``Decision/waitForTurn`` |
/// | task start | the caller runs a step (a handler, an observer, a middleware) | ``Decision/startOnCommit`` |
/// | task start | it comes from a cancelled task | ``Decision/refuse(_:)`` `.cancelledTask` |
/// | task start | — | ``Decision/startNow`` |
/// | released (held or waiting, its turn come) | it comes from a task cancelled meanwhile, even one that ended | ``Decision/refuse(_:)`` `.cancelledTask` |
/// | released | — | ``Decision/run`` |
/// | step (past the middleware, at a journal) | the journal shows the past, and no move runs | ``Decision/refuse(_:)`` `.pastIsShown` |
/// | step | — | ``Decision/run`` |
///
/// A replayed step arrives as an action or a batch; a time-travel move as a move. An effect a handler asks
/// for is not an arrival: it is valid in the handler call its `Effects` was given to, and only there
/// (`Dispatcher.runsHandlerCall(_:)`), and it starts when that call's step commits.
/// A caller told to wait for the turn waits in line (``TurnLine``): the turn is handed to the first in line once
/// it has waited a bounded number of turns, and is then free for it alone.
enum Admission {
    /// What arrives.
    enum Arrival: Equatable {
        /// An action; `exclusively` runs it even while the dispatcher is suspended.
        case action(exclusively: Bool)
        case batch
        /// A ``Dispatcher/read(_:)``: it holds the turn between two actions.
        case read
        /// A time-travel move: it takes a turn of its own.
        case move
        /// A task started with `dispatchTask`.
        case taskStart
        /// An action that was held or waited for a suspension, now that its turn has come.
        case released
        /// An action (or a batch's) reaching its stores, past the middleware, at a journal's recorder.
        case step
    }

    /// What the dispatcher knows of the arrival's caller, read under its lock (or by the turn holder).
    struct Facts: Equatable {
        /// The caller holds the turn and runs a transaction: it runs a handler.
        var holdsOpenTransaction = false
        /// The caller holds the turn, or runs a store factory its holder waits for.
        var actsForHolder = false
        /// The turn's holder runs no action: it reads between two.
        var holderIsBetweenActions = false
        var isSuspended = false
        /// Why an action or a batch from the caller is refused, if it is: its code belongs to a task cancelled
        /// through the dispatcher, or the dispatcher shuts down (the first, when both hold). One fact, so that
        /// an arrival that is not refused costs one test.
        ///
        /// NB: not an optional `Refusal`: its first case is the zero a new `Facts` is made of.
        var refusedCaller = RefusedCaller.no
        /// The code arriving belongs to a task cancelled through the dispatcher (for `released`, the task
        /// that made the dispatch).
        var isInCancelledTask: Bool {
            get { refusedCaller == .cancelledTask }
            set { refusedCaller = newValue ? .cancelledTask : (refusedCaller == .cancelledTask ? .no : refusedCaller) }
        }
        /// The code arriving belongs to a tracked task, and a journal shows the past (tasks' dispatches are held).
        var isTaskWhilePastIsShown = false
        /// Nobody holds the turn, or it was handed to the caller, first in line (see ``TurnLine``): a turn
        /// handed to a thread is not free for any other.
        var isTurnFree = false
        /// The caller runs a step: a handler, an observer or a middleware of a committing action.
        var runsStep = false
        /// A journal shows the past, and is not moving (its own travel is the one step it lets through).
        var isPastShown = false
        /// ``Dispatcher/shutdown()`` has begun (and the code arriving belongs to no cancelled task).
        var isShutDown: Bool {
            get { refusedCaller == .shutDown }
            set {
                if newValue, refusedCaller == .no { refusedCaller = .shutDown }
                if !newValue, refusedCaller == .shutDown { refusedCaller = .no }
            }
        }
    }

    /// Whether, and why, an action or a batch from a caller is refused (``Facts/refusedCaller``).
    enum RefusedCaller: Equatable {
        case no
        case cancelledTask
        case shutDown

        /// The refusal, for a caller that is refused.
        var refusal: Refusal { self == .shutDown ? .shutDown : .cancelledTask }
    }

    /// Where the arrival goes.
    enum Decision: Equatable {
        /// It is part of the running transaction: committed or rolled back with it.
        case joinTransaction
        /// It runs after the running step, before the turn is given up.
        case queueBehindStep
        /// It waits for the last suspension's release.
        case waitForRelease
        /// It waits for the stores to show the present again.
        case holdForPresent
        /// The caller takes the turn, and runs it now.
        case run
        /// The caller holds the turn already: it runs inside what runs now.
        case runInsideTurn
        /// Another thread holds the turn: the caller waits in line for it (``TurnLine``), and arrives again.
        case waitForTurn
        /// It starts when the running step commits (never if it rolls back), with the step's deferred work.
        case startOnCommit
        /// It starts now.
        case startNow
        /// It is refused: the caller's dispatch throws, or the refusal is reported.
        case refuse(Refusal)
    }

    /// Why an arrival is refused.
    enum Refusal: Equatable {
        /// It comes from a task cancelled through the dispatcher.
        case cancelledTask
        /// A time-travel move asked for from inside a dispatch.
        case moveInsideDispatch
        /// A step reaching the stores while a journal shows the past.
        case pastIsShown
        /// An action or a batch from outside the running turn once ``Dispatcher/shutdown()`` has begun.
        case shutDown
    }

    /// The decision for `arrival`, given `facts`: the table above.
    @inline(__always)
    static func decide(_ arrival: Arrival, _ facts: Facts) -> Decision {
        switch arrival {
        case .action(let exclusively):
            if facts.holdsOpenTransaction { return .joinTransaction }
            if facts.actsForHolder {
                return facts.holderIsBetweenActions && facts.isSuspended && !exclusively
                    ? .waitForRelease : .queueBehindStep
            }
            if facts.refusedCaller != .no { return .refuse(facts.refusedCaller.refusal) }
            if facts.isTaskWhilePastIsShown { return .holdForPresent }
            if facts.isSuspended, !exclusively { return .waitForRelease }
            return facts.isTurnFree ? .run : .waitForTurn
        case .batch, .read, .move:
            if facts.actsForHolder { return arrival == .move ? .refuse(.moveInsideDispatch) : .runInsideTurn }
            if arrival == .batch, facts.refusedCaller != .no { return .refuse(facts.refusedCaller.refusal) }
            return facts.isTurnFree ? .run : .waitForTurn
        case .taskStart:
            if facts.runsStep { return .startOnCommit }
            return facts.isInCancelledTask ? .refuse(.cancelledTask) : .startNow
        case .released:
            return facts.isInCancelledTask ? .refuse(.cancelledTask) : .run
        case .step:
            return facts.isPastShown ? .refuse(.pastIsShown) : .run
        }
    }
}
