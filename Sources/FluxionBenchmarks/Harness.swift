import Foundation

/// One measured workload: `run(ops)` does `ops` operations and returns a checksum, and the nanoseconds
/// the part of it that counts took, when not all of it does.
struct Workload {
    let name: String
    let ops: Int
    let unit: String
    let run: (Int) -> (checksum: Int, nanoseconds: UInt64?)

    init(_ name: String, ops: Int, unit: String = "ns/op", run: @escaping (Int) -> Int) {
        self.init(name, ops: ops, unit: unit, timing: { (run($0), nil) })
    }

    /// A workload that times itself: only the part of `run` it reports counts.
    init(
        _ name: String, ops: Int, unit: String = "ns/op",
        timing run: @escaping (Int) -> (checksum: Int, nanoseconds: UInt64?)
    ) {
        self.name = name
        self.ops = ops
        self.unit = unit
        self.run = run
    }
}

/// The figures of one workload over all measured runs.
struct Result {
    let name: String
    let unit: String
    let ops: Int
    var samples: [Double] = []
    var checksum = 0

    var min: Double { samples.min() ?? .nan }
    var max: Double { samples.max() ?? .nan }
    var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}

/// Runs workloads interleaved: one warm-up round, then `runs` measured rounds,
/// each round running every workload once, so drift hits them alike.
func measure(_ workloads: [Workload], runs: Int) -> [Result] {
    var results = workloads.map { Result(name: $0.name, unit: $0.unit, ops: $0.ops) }
    for round in 0...runs {
        for (index, workload) in workloads.enumerated() {
            let start = DispatchTime.now().uptimeNanoseconds
            let (checksum, own) = workload.run(workload.ops)
            let elapsed = own ?? (DispatchTime.now().uptimeNanoseconds - start)
            guard round > 0 else { continue }
            results[index].samples.append(Double(elapsed) / Double(workload.ops))
            results[index].checksum &+= checksum
        }
    }
    return results
}

/// Formats a figure with two decimals.
func format(_ value: Double) -> String {
    String(format: "%.2f", value)
}

func printTable(_ results: [Result]) {
    let header = ["name", "ops", "min", "median", "max", "unit", "checksum"]
    let rows = results.map {
        [$0.name, String($0.ops), format($0.min), format($0.median), format($0.max), $0.unit, String($0.checksum)]
    }
    let widths = header.indices.map { column in
        ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    for row in [header] + rows {
        let cells = row.enumerated().map { column, cell in
            column == 0 || column == 5
                ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                : String(repeating: " ", count: widths[column] - cell.count) + cell
        }
        print(cells.joined(separator: "  "))
    }
}

func printJSON(_ result: Result) {
    print(
        "{\"name\": \"\(result.name)\", \"unit\": \"\(result.unit)\", \"median\": \(format(result.median)), "
            + "\"min\": \(format(result.min)), \"max\": \(format(result.max)), \"ops\": \(result.ops)}"
    )
}

/// A same-run ratio between figures, against its target.
struct Ratio {
    let name: String
    let value: Double
    let target: Double
}
