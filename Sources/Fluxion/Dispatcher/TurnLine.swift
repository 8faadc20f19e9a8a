/// The threads waiting for the dispatch turn, first come first: a value with no locks, kept in ``TurnState``.
///
/// A thread that ends its turn may take the next one at once, ahead of those waiting, as long as the first
/// in line has not waited too long: once ``turnsBeforeHandOff`` turns have ended while a thread was first in
/// line, the turn is handed to it as the next one ends, and nobody else can take it meanwhile. So a thread
/// first in line has the turn within ``turnsBeforeHandOff`` turns, and a thread with `n` threads ahead of it
/// within `(n + 1) × turnsBeforeHandOff` turns (each of those ahead takes one turn, then waits at the back).
/// Letting the thread that ends a turn take the next one meanwhile keeps two threads that dispatch at once
/// from handing the turn to each other, a thread's wake-up each time, at every action.
struct TurnLine {
    /// How many turns may end while a thread is first in line before the turn is handed to it.
    static let turnsBeforeHandOff = 64

    /// A thread in line, and how many turns had ended, while anyone waited, when it joined.
    private struct Waiter {
        let thread: ThreadID
        let joinedAt: Int
    }

    /// The first in line, kept apart so that asking whether anyone waits is one comparison.
    private var first: Waiter?
    /// Those behind it, in the order they came.
    private var rest: [Waiter] = []
    /// How many turns have ended while the first in line was first.
    private var overtakes = 0
    /// How many turns have ended while anyone waited.
    private var turnsEnded = 0
    /// The most turns that ended while one thread waited in line, from joining it to leaving it.
    private(set) var longestWait = 0

    /// Whether no thread waits.
    var isEmpty: Bool { first == nil }

    /// The threads in line, first first.
    var threads: [ThreadID] {
        (first.map { [$0] } ?? []).map(\.thread) + rest.map(\.thread)
    }

    /// Puts `thread` at the back of the line, unless it is in line already.
    mutating func join(_ thread: ThreadID) {
        guard first?.thread != thread, !rest.contains(where: { $0.thread == thread }) else { return }
        let waiter = Waiter(thread: thread, joinedAt: turnsEnded)
        if first == nil { first = waiter } else { rest.append(waiter) }
    }

    /// Notes that a turn ended while threads wait; returns the thread the turn is handed to, when the first
    /// in line has waited ``turnsBeforeHandOff`` turns.
    mutating func turnEnded() -> ThreadID? {
        guard let first else { return nil }
        turnsEnded += 1
        overtakes += 1
        return overtakes >= Self.turnsBeforeHandOff ? first.thread : nil
    }

    /// Takes `thread` out of the line, as it takes the turn or stops waiting; whether it was in line.
    mutating func leave(_ thread: ThreadID) -> Bool {
        if let waiter = first, waiter.thread == thread {
            longestWait = max(longestWait, turnsEnded - waiter.joinedAt)
            first = rest.isEmpty ? nil : rest.removeFirst()
            overtakes = 0
            return true
        }
        guard let index = rest.firstIndex(where: { $0.thread == thread }) else { return false }
        longestWait = max(longestWait, turnsEnded - rest.remove(at: index).joinedAt)
        return true
    }
}
