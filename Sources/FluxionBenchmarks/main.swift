import Foundation

// fluxion-benchmarks: measures Fluxion's dispatch paths against bare-Swift limits.
//
//   swift run -c release fluxion-benchmarks [--json] [--filter NAME[,NAME…]] [--runs N] [--scale X]
//
// --scale multiplies every op count (CI uses a tiny scale as a smoke test).

/// Where the benchmark's closures add their results, so the optimiser keeps the work.
/// Only the benchmark's main thread touches it (a global of main.swift: no lazy initialisation).
nonisolated(unsafe) var sink = 0

var json = false
var filters: Set<String> = []
var runs = 7
var scale = 1.0
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--json": json = true
    case "--filter": filters.formUnion((arguments.next() ?? "").split(separator: ",").map(String.init))
    case "--runs": runs = max(1, Int(arguments.next() ?? "") ?? runs)
    case "--scale": scale = Double(arguments.next() ?? "") ?? scale
    default:
        FileHandle.standardError.write(
            Data("usage: fluxion-benchmarks [--json] [--filter NAME[,NAME…]] [--runs N] [--scale X]\n".utf8)
        )
        exit(2)
    }
}

let scaled = { (workload: Workload) in
    Workload(workload.name, ops: max(1, Int(Double(workload.ops) * scale)), unit: workload.unit, timing: workload.run)
}
let selected = { (name: String) in filters.isEmpty || filters.contains(name) }

let makers: [(String, () throws -> Workload)] =
    [
        ("B1", Baselines.b1),
        ("B2", { Baselines.b2("B2", count: 1_000, ops: 10_000) }),
        ("B2x10", { Baselines.b2("B2x10", count: 10, ops: 1_000_000) }),
        ("B3", Baselines.b3),
        ("W1", { try Workloads.dispatching("W1", observers: 0, ops: 1_000_000) }),
        ("W2", { try Workloads.dispatching("W2", observers: 10, ops: 1_000_000) }),
        ("W3", { try Workloads.dispatching("W3", observers: 1_000, ops: 10_000) }),
        ("W3t", { try Workloads.tokens(ops: 10_000) }),
        ("W4", Workloads.roundRobin),
        ("W5", Workloads.observeCancel),
        ("W6", Workloads.waitForChain),
        ("W7", Workloads.manyStores),
        ("W8", Workloads.twoThreads),
        ("W9", Workloads.untyped),
        ("W10", Workloads.keyPathObservers),
        ("W11", Workloads.middleware),
    ]
    + BigStates.sizes.flatMap { size -> [(String, () throws -> Workload)] in
        [
            ("B12-\(size.label)", { BigStates.appending(label: size.label, count: size.count, ops: size.ops) }),
            ("W12-\(size.label)", { try BigStates.dispatching(label: size.label, count: size.count, ops: size.ops) }),
            ("W12t-\(size.label)", { try BigStates.tracking(size, byCount: false) }),
            ("W12c-\(size.label)", { try BigStates.tracking(size, byCount: true) }),
            ("W12n-\(size.label)", { try BigStates.observing(size, wholeChange: false) }),
            ("W12o-\(size.label)", { try BigStates.observing(size, wholeChange: true) }),
            ("W12k-\(size.label)", { try BigStates.observingKeyPath(size, owned: false) }),
            ("W12kw-\(size.label)", { try BigStates.observingKeyPath(size, owned: true) }),
        ]
    } + [
        ("W13", { try Workloads.journal(writingToFile: false) }),
        ("W13f", { try Workloads.journal(writingToFile: true) }),
        ("W13d", Workloads.journalDispatching),
        ("B14", Effects.b14),
        ("W14", Effects.w14),
        ("W15", Tracing.w15),
        ("W16", ComputedStores.w16),
        ("W16w", ComputedStores.w16w),
    ]

// NB: once a process has started a second thread, as every app has, glibc's locks take a slower
// path. The figures are of that process: a thread is started, and has ended, before any is measured.
let started = DispatchSemaphore(value: 0)
Thread.detachNewThread { started.signal() }
started.wait()

let workloads = try makers.filter { selected($0.0) }.map { try scaled($0.1()) }
var results = measure(workloads, runs: runs)

if selected("M1"), let bytes = try Workloads.observerMemory(count: max(1, Int(100_000 * scale))) {
    results.append(Result(name: "M1", unit: "bytes/observer", ops: max(1, Int(100_000 * scale)), samples: [bytes]))
}
// NB: W17 is a distribution within each run (every read's wait), not a time per operation: its runs are pooled.
if selected("W17") {
    results += try Contention.results(reads: max(1, Int(1_000 * scale)), runs: runs)
}

let medians = Dictionary(results.map { ($0.name, $0.median) }, uniquingKeysWith: { first, _ in first })
let median = { (name: String) in medians[name] }

var ratios: [Ratio] = []
let ratio = { (name: String, target: Double, value: Double?) in
    if let value { ratios.append(Ratio(name: name, value: value, target: target)) }
}
if let b1 = median("B1"), let b2 = median("B2"), let b3 = median("B3") {
    ratio("W1/B1", 3.0, median("W1").map { $0 / b1 })
    ratio("W9/B1", 3.5, median("W9").map { $0 / b1 })
    ratio("W2/(B1+B3/100)", 1.5, median("W2").map { $0 / (b1 + b3 / 100) })
    ratio("W3/B3", 1.1, median("W3").map { $0 / b3 })
    ratio("W3t/B2", 2.0, median("W3t").map { $0 / b2 })
    ratio("W4/(B1+B3/1000)", 3.0, median("W4").map { $0 / (b1 + b3 / 1_000) })
    ratio("(W10-W1)/(2*B2)", 1.0, median("W10").map { ($0 - (median("W1") ?? 0)) / (2 * b2) })
}
if let w1 = median("W1") {
    ratio("W6/W1", 4.0, median("W6").map { $0 / w1 })
    ratio("W7/W1", 1.2, median("W7").map { $0 / w1 })
    ratio("W8/W1", 1.5, median("W8").map { $0 / w1 })
    // NB: W11 and W13d: bounds the owner accepted in issue 36 (three pass-through middleware; a second core
    // reading each step of a journal written to a file).
    ratio("W11/W1", 1.6, median("W11").map { $0 / w1 })
    ratio("W13/W1", 2.0, median("W13").map { $0 / w1 })
    if let w13 = median("W13") { ratio("W13d/W13", 1.5, median("W13d").map { $0 / w13 }) }
    if let b14 = median("B14") { ratio("W14/(W1+B14)", 1.5, median("W14").map { $0 / (w1 + b14) }) }
    // NB: tracing's cost while it records; off, it is in W1 itself.
    ratio("W15/W1", 8.0, median("W15").map { $0 / w1 })
    if let w16w = median("W16w") { ratio("W16/W16w", 1.0, median("W16").map { $0 / w16w }) }
}
if let small = median("W12-1k") {
    ratio("W12-1M/W12-1k", 3.0, median("W12-1M").map { $0 / small })
}
if let small = median("W12c-1k") {
    ratio("W12c-1M/W12c-1k", 1.5, median("W12c-1M").map { $0 / small })
}
if let small = median("W12n-1k") {
    ratio("W12n-1M/W12n-1k", 3.0, median("W12n-1M").map { $0 / small })
    // NB: a key-path observer (a view that shows one field) against a new-state observer (one that renders it all).
    ratio("W12k-1k/W12n-1k", 1.5, median("W12k-1k").map { $0 / small })
    ratio("W12kw-1k/W12n-1k", 1.5, median("W12kw-1k").map { $0 / small })
}
// NB: absolute targets, in the workloads' own units.
ratio("W5 ns/op", 150, median("W5"))
ratio("W13f µs/step", 8, median("W13f").map { $0 / 1_000 })
ratio("M1 bytes/observer", 128, median("M1"))
ratio("W17 median µs/read", 1_000, median("W17-median"))
ratio("W17 p99 µs/read", 10_000, median("W17-p99"))

if json {
    results.forEach(printJSON)
    for ratio in ratios {
        print(
            "{\"name\": \"\(ratio.name)\", \"unit\": \"ratio\", \"value\": \(format(ratio.value)), \"target\": \(format(ratio.target))}"
        )
    }
} else {
    printTable(results)
    if !ratios.isEmpty { print("") }
    for ratio in ratios {
        let verdict = ratio.value <= ratio.target ? "meets" : "misses"
        print("\(ratio.name) = \(format(ratio.value)) (target ≤ \(format(ratio.target)): \(verdict))")
    }
}
