/// The bare-Swift limits the Fluxion workloads are measured against.

final class Owner: Sendable {
    let weight: Int

    init(weight: Int = 1) {
        self.weight = weight
    }
}

final class WeakBox {
    weak var owner: Owner?

    init(_ owner: Owner) {
        self.owner = owner
    }
}

enum Baselines {
    /// B1: look up a handler by a short name in a 10-entry dictionary and call it.
    static func b1() -> Workload {
        var table: [String: (inout Int, Any) -> Void] = [:]
        for index in 0..<10 {
            table["action\(index)"] = { state, _ in state &+= index }
        }
        let names = (0..<10).map { "action\($0)" }
        return Workload("B1", ops: 1_000_000) { ops in
            var state = 0
            for op in 0..<ops {
                table[names[op % 10]]?(&state, 1)
            }
            return state
        }
    }

    /// B2: call each of `count` closures per op.
    static func b2(_ name: String, count: Int, ops: Int) -> Workload {
        let closures: [(Int) -> Void] = (0..<count).map { index in { sink &+= $0 &+ index } }
        return Workload(name, ops: ops) { ops in
            sink = 0
            for op in 0..<ops {
                for closure in closures { closure(op) }
            }
            return sink
        }
    }

    /// B3: load 1,000 weak references to live objects and call a closure with each.
    static func b3() -> Workload {
        let owners = (0..<1_000).map { Owner(weight: $0) }
        let boxes = owners.map(WeakBox.init)
        let call: (Owner, Int) -> Void = { owner, value in sink &+= owner.weight &+ value }
        return Workload("B3", ops: 10_000) { ops in
            sink = 0
            for op in 0..<ops {
                for box in boxes {
                    if let owner = box.owner { call(owner, op) }
                }
            }
            return withExtendedLifetime(owners) { sink }
        }
    }
}
