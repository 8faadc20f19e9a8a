import Fluxion
import Foundation

/// Whether the dispatching threads of W17 should stop; checked between two dispatches.
private final class StopFlag: @unchecked Sendable {  // `isSet` is guarded by `lock`
    private let lock = NSLock()
    private var stopped = false

    var isSet: Bool { lock.withLock { stopped } }

    func set() { lock.withLock { stopped = true } }
}

/// W17: how long a thread's `read {}` waits for the dispatch turn while two threads dispatch as fast as they can.
enum Contention {
    /// What one run of W17 measured: each read's wait, and how many turns (actions) ran meanwhile.
    struct Waits {
        var nanoseconds: [Double] = []
        var turns: [Double] = []
        /// The most turns that ended while a thread (a reader or a dispatcher) waited in line for the turn.
        var longestLineWait = 0
    }

    /// Measures `reads` reads, 0.2 ms apart, on this thread, while two other threads each dispatch
    /// `increment` in a loop; each read's wait runs from the call to `read` to the start of its body.
    static func readWaits(reads: Int) throws -> Waits {
        let (dispatcher, store) = try Workloads.counter()
        let stop = StopFlag()
        let started = DispatchSemaphore(value: 0)
        let ended = DispatchGroup()
        for _ in 0..<2 {
            ended.enter()
            Thread.detachNewThread {
                started.signal()
                var dispatched = 0
                while dispatched % 64 != 0 || !stop.isSet {
                    try? dispatcher.dispatch(.increment, payload: 1)
                    dispatched += 1
                }
                ended.leave()
            }
        }
        started.wait()
        started.wait()
        // NB: the reads begin once the two threads contend for the turn, not while they start.
        while store.state.count < 20_000 { Thread.sleep(forTimeInterval: 0.000_1) }
        var waits = Waits()
        waits.nanoseconds.reserveCapacity(reads)
        waits.turns.reserveCapacity(reads)
        for _ in 0..<reads {
            let count = store.state.count
            let start = DispatchTime.now().uptimeNanoseconds
            let (end, countThen) = dispatcher.read { (DispatchTime.now().uptimeNanoseconds, store.state.count) }
            waits.nanoseconds.append(Double(end - start))
            waits.turns.append(Double(countThen - count))
            // NB: spread over the dispatching, as a view's reads are, rather than all in one time slice.
            Thread.sleep(forTimeInterval: 0.000_2)
        }
        stop.set()
        ended.wait()
        waits.longestLineWait = dispatcher.longestTurnWait
        return waits
    }

    /// The `fraction` percentile of `values` (nearest rank).
    static func percentile(_ fraction: Double, of values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// The results W17 prints: the median and 99th percentile of the waits (µs); the median and most turns
    /// (actions) that ran from just before each call to `read` to its body, which counts any time the reading
    /// thread was not running too; and the most turns any thread waited in line, counted by the dispatcher.
    static func results(reads: Int, runs: Int) throws -> [Result] {
        var all = Waits()
        for _ in 0..<runs {
            let waits = try readWaits(reads: reads)
            all.nanoseconds += waits.nanoseconds
            all.turns += waits.turns
            all.longestLineWait = max(all.longestLineWait, waits.longestLineWait)
        }
        let count = all.nanoseconds.count
        let microseconds = all.nanoseconds.map { $0 / 1_000 }
        return [
            Result(name: "W17-median", unit: "µs/read", ops: count, samples: [percentile(0.5, of: microseconds)]),
            Result(name: "W17-p99", unit: "µs/read", ops: count, samples: [percentile(0.99, of: microseconds)]),
            Result(name: "W17-turns-median", unit: "turns/read", ops: count, samples: [percentile(0.5, of: all.turns)]),
            Result(name: "W17-turns-max", unit: "turns/read", ops: count, samples: [all.turns.max() ?? .nan]),
            Result(name: "W17-line-max", unit: "turns", ops: count, samples: [Double(all.longestLineWait)]),
        ]
    }
}
