import Fluxion

/// What one `model.op` action does in each store's handler.
///
/// The whole behaviour of a step travels in its payload, which is `Codable`: a replay runs the
/// same handlers again, and a printed program reads as what it does.
struct Command: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The value each touched store appends; unique within a program.
    var tag: Int
    /// The stores (0...3) whose handler appends `tag` (or edits its state as `edit` says).
    var touches: [Int]
    /// What each touched store's handler does: append `tag` (the default), remove its last item, or clear it.
    var edit = Edit.append
    /// The store (0...3) whose handler, before its change, calls `dispatcher.read {}` and notes every store's
    /// state it reads there, if any.
    var readsIn: Int? = nil
    /// The store whose handler throws, if any: the whole action rolls back.
    var throwsIn: Int? = nil
    /// Whether store 0's handler waits for store 2's first.
    var waits = false
    /// What the first touched store's handler does after appending, in order.
    var then: [Follow] = []
    /// Whether the last touched store's handler asks for one more effect through the `Effects` the
    /// first touched store's handler was given (kept past its call: refused).
    var reusesEffects = false
    /// Whether the action carries an error, a ``ModelFailure`` (registered for replay): each touched store's
    /// handler then appends `-tag`, as a failure handler would, so a replay must hand it the error again.
    var carriesError = false

    /// The error the action carries, if it carries one.
    var error: ModelFailure? { carriesError ? ModelFailure(tag: tag) : nil }

    var description: String {
        var parts = ["tag: \(tag)", "touches: \(touches)"]
        if edit != .append { parts.append("edit: \(edit)") }
        if let readsIn { parts.append("readsIn: \(readsIn)") }
        if let throwsIn { parts.append("throwsIn: \(throwsIn)") }
        if waits { parts.append("waits: true") }
        if !then.isEmpty { parts.append("then: [\(then.map(\.description).joined(separator: ", "))]") }
        if reusesEffects { parts.append("reusesEffects: true") }
        if carriesError { parts.append("carriesError: true") }
        return "Command(\(parts.joined(separator: ", ")))"
    }
}

/// What a handler does after changing its state: queue an action, or ask for an effect.
enum Follow: Codable, Sendable, Equatable, CustomStringConvertible {
    case dispatch(Command)
    case effect(TaskPlan)
    /// `effects.cancel(id:)`: cancels the tasks under the id when the step commits.
    case cancel(String)
    /// `cancelTasks(id:)` from another thread, while the handler waits for it to return: it reaches the
    /// effects the step asked for before, at once, whether or not the step commits.
    case cancelFromAnotherThread(String)

    var description: String {
        switch self {
        case .dispatch(let command): ".dispatch(\(command))"
        case .effect(let plan): ".effect(\(plan))"
        case .cancel(let id): ".cancel(\"\(id)\")"
        case .cancelFromAnotherThread(let id): ".cancelFromAnotherThread(\"\(id)\")"
        }
    }
}

/// An asynchronous unit of work the program controls: it waits at its gate, then dispatches.
struct TaskPlan: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The id it runs under (`nil` for none; effects always have one).
    var id: String?
    var cancelInFlight = false
    /// Its gate: the work waits there until the program opens it.
    var gate: Int
    /// What it dispatches once the gate opens.
    var dispatches: Command?
    /// A plain `Task` the work starts first (before waiting at its gate), with a gate of its own.
    var child: ChildPlan? = nil
    /// Whether the work waits once more after dispatching, at gate `-gate`, before it ends.
    var lingers = false
    /// Whether the work, once its gate opens, awaits `waitUntilDrained()` before it dispatches.
    var drains = false

    var description: String {
        var parts = ["id: \(id.map { "\"\($0)\"" } ?? "nil")"]
        if cancelInFlight { parts.append("cancelInFlight: true") }
        parts.append("gate: \(gate)")
        parts.append("dispatches: \(dispatches.map(\.description) ?? "nil")")
        if let child { parts.append("child: \(child)") }
        if lingers { parts.append("lingers: true") }
        if drains { parts.append("drains: true") }
        return "TaskPlan(\(parts.joined(separator: ", ")))"
    }
}

/// A plain `Task` started inside a tracked task: it waits at its gate, then dispatches.
struct ChildPlan: Codable, Sendable, Equatable, CustomStringConvertible {
    var gate: Int
    var dispatches: Command
    /// Whether it awaits `waitUntilDrained()` once its gate opens, before it dispatches: it waits for every
    /// tracked task but the one it was started in, while that one runs.
    var drains = false

    var description: String {
        "ChildPlan(gate: \(gate), dispatches: \(dispatches)" + (drains ? ", drains: true)" : ")")
    }
}

extension ActionName where Payload == Command {
    /// The one action of the model's programs.
    static var op: Self { "model.op" }
}

/// The error a command's action carries when it says so: `Codable`, registered for replay.
struct ModelFailure: Error, Codable, Equatable {
    let tag: Int
}

/// The error a handler throws when its command says so.
struct Rejected: Error, Equatable, CustomStringConvertible {
    let tag: Int
    var description: String { "Rejected(\(tag))" }
}

/// The error a middleware throws after `next` when the program armed it.
struct MiddlewareFailed: Error, Equatable, CustomStringConvertible {
    var description: String { "middlewareFailed" }
}
