import Fluxion

/// The cost of a performance trace while it records.
enum Tracing {
    /// W15: W1 with a trace recording (keeping its newest 100,000 spans: three per dispatch).
    static func w15() throws -> Workload {
        let (dispatcher, store) = try Workloads.counter()
        let trace = dispatcher.startTracing()
        return Workload("W15", ops: 1_000_000) { ops in
            for _ in 0..<ops { try? dispatcher.dispatch(.increment, payload: 1) }
            return withExtendedLifetime(trace) { store.state.count }
        }
    }
}
