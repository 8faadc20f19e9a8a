import CHeapUsage
import Fluxion
import Foundation

/// The Fluxion workloads. Setup happens here, once; only `run` is timed.
enum Workloads {
    static func counter() throws -> (Dispatcher, CounterStore) {
        let dispatcher = Dispatcher()
        try dispatcher.register(CounterStore.self)
        return (dispatcher, try dispatcher.store(CounterStore.self))
    }

    /// W1 (and W2, W3 with `observers` weak-owner observers).
    static func dispatching(_ name: String, observers: Int, ops: Int) throws -> Workload {
        let (dispatcher, store) = try counter()
        let owners = (0..<observers).map { Owner(weight: $0) }
        for owner in owners {
            store.observe(owner: owner) { owner, change in sink &+= owner.weight &+ change.newState.count }
        }
        return Workload(name, ops: ops) { ops in
            sink = 0
            for _ in 0..<ops { try? dispatcher.dispatch(.increment, payload: 1) }
            return withExtendedLifetime(owners) { sink &+ store.state.count }
        }
    }

    /// W3t: token observers.
    static func tokens(ops: Int) throws -> Workload {
        let (dispatcher, store) = try counter()
        let tokens = (0..<1_000).map { index in
            store.observe { change in sink &+= index &+ change.newState.count }
        }
        return Workload("W3t", ops: ops) { ops in
            sink = 0
            for _ in 0..<ops { try? dispatcher.dispatch(.increment, payload: 1) }
            return withExtendedLifetime(tokens) { sink }
        }
    }

    /// W4: ten store types, each with its own action and one observer; actions round-robin.
    static func roundRobin() throws -> Workload {
        let dispatcher = Dispatcher()
        let owner = Owner()
        let names = try registerManyStores(limit: 10, with: dispatcher) { store in
            store.observe(owner: owner) { owner, change in sink &+= owner.weight &+ change.newState.count }
        }
        return Workload("W4", ops: 1_000_000) { ops in
            sink = 0
            for op in 0..<ops { try? dispatcher.dispatch(names[op % names.count], payload: 1) }
            return withExtendedLifetime(owner) { sink }
        }
    }

    /// W5: observe and cancel while 100 observers stay live.
    static func observeCancel() throws -> Workload {
        let (_, store) = try counter()
        let live = (0..<100).map { _ in store.observe { _ in } }
        return Workload("W5", ops: 100_000) { ops in
            var checksum = 0
            for _ in 0..<ops {
                let token = store.observe { change in sink &+= change.newState.count }
                token.cancel()
                checksum &+= token.isCancelled ? 1 : 0
            }
            return withExtendedLifetime(live) { checksum }
        }
    }

    /// W6: a waitFor chain of three stores handling the same action.
    static func waitForChain() throws -> Workload {
        let dispatcher = Dispatcher()
        try dispatcher.register(ChainHeadStore.self)
        try dispatcher.register(ChainMiddleStore.self)
        try dispatcher.register(ChainTailStore.self)
        let head = try dispatcher.store(ChainHeadStore.self)
        return Workload("W6", ops: 1_000_000) { ops in
            for _ in 0..<ops { try? dispatcher.dispatch(.chain, payload: 1) }
            return head.state.count
        }
    }

    /// W7: 10,000 registered store types; dispatch a name one of them handles.
    static func manyStores() throws -> Workload {
        let dispatcher = Dispatcher()
        let names = try registerManyStores(limit: 10_000, with: dispatcher)
        let name = names[names.count / 2]
        return Workload("W7", ops: 1_000_000) { ops in
            for _ in 0..<ops { try? dispatcher.dispatch(name, payload: 1) }
            return names.count
        }
    }

    /// W8: two threads dispatching half the ops each to one store; checks none is lost.
    static func twoThreads() throws -> Workload {
        let (dispatcher, store) = try counter()
        return Workload("W8", ops: 1_000_000) { ops in
            let before = store.state.count
            let group = DispatchGroup()
            for _ in 0..<2 {
                group.enter()
                Thread.detachNewThread {
                    for _ in 0..<ops / 2 { try? dispatcher.dispatch(.increment, payload: 1) }
                    group.leave()
                }
            }
            group.wait()
            let applied = store.state.count - before
            if applied != ops / 2 * 2 {
                FileHandle.standardError.write(Data("W8 lost actions: \(applied) of \(ops / 2 * 2) applied\n".utf8))
                exit(1)
            }
            return applied
        }
    }

    /// W10: 1,000 key-path token observers on a field the dispatches do not change.
    static func keyPathObservers() throws -> Workload {
        let (dispatcher, store) = try counter()
        let tokens = (0..<1_000).map { index in
            store.observe(\.label) { change in sink &+= index &+ change.newValue }
        }
        return Workload("W10", ops: 10_000) { ops in
            sink = 0
            for _ in 0..<ops { try? dispatcher.dispatch(.increment, payload: 1) }
            return withExtendedLifetime(tokens) { sink &+ store.state.count }
        }
    }

    /// W11: W1 through a chain of three middleware that pass every action on.
    static func middleware() throws -> Workload {
        let (dispatcher, store) = try counter()
        for _ in 0..<3 { dispatcher.addMiddleware(PassThrough()) }
        return Workload("W11", ops: 1_000_000) { ops in
            for _ in 0..<ops { try? dispatcher.dispatch(.increment, payload: 1) }
            return store.state.count
        }
    }

    /// W13: W1 recorded by a journal in memory (the newest 1,000 steps); W13f: also written to a file,
    /// the time to write it all included.
    static func journal(writingToFile: Bool) throws -> Workload {
        let (dispatcher, store) = try counter()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fluxion-bench-\(UUID()).jsonl")
        let journal = try Journal(recording: dispatcher, writingTo: writingToFile ? file : nil)
        return Workload(writingToFile ? "W13f" : "W13", ops: writingToFile ? 100_000 : 1_000_000) { ops in
            for _ in 0..<ops { try? dispatcher.dispatch(.increment, payload: 1) }
            journal.flush()
            // NB: the journal's handle keeps writing to the unlinked file: the disk is freed as it closes.
            try? FileManager.default.removeItem(at: file)
            return store.state.count
        }
    }

    /// W13d: W13f's dispatching thread alone: the dispatches are timed, not the writing they hand over,
    /// which is waited for after the clock stops (1,000 steps a run, so that the backlog stays small).
    static func journalDispatching() throws -> Workload {
        let (dispatcher, store) = try counter()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fluxion-bench-\(UUID()).jsonl")
        let journal = try Journal(recording: dispatcher, writingTo: file)
        try? FileManager.default.removeItem(at: file)  // NB: the open file is freed as the journal closes
        return Workload("W13d", ops: 1_000) { ops in
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<ops { try? dispatcher.dispatch(.increment, payload: 1) }
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            journal.flush()
            return (store.state.count, elapsed)
        }
    }

    /// A middleware that passes every action on.
    struct PassThrough: Middleware {
        func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
            try next(action)
        }
    }

    /// W9: untyped dispatch by raw name with an `Any` payload.
    static func untyped() throws -> Workload {
        let (dispatcher, store) = try counter()
        return Workload("W9", ops: 1_000_000) { ops in
            for _ in 0..<ops { try? dispatcher.dispatch(AnyAction(name: "increment", payload: 1)) }
            return store.state.count
        }
    }

    /// M1: heap bytes per live weak-owner observer, the owners not counted.
    static func observerMemory(count: Int) throws -> Double? {
        guard heap_bytes_in_use() > 0 else { return nil }
        let (dispatcher, store) = try counter()
        let owners = (0..<count).map { Owner(weight: $0) }
        let before = heap_bytes_in_use()
        for owner in owners {
            store.observe(owner: owner) { owner, change in sink &+= owner.weight &+ change.newState.count }
        }
        let after = heap_bytes_in_use()
        withExtendedLifetime((dispatcher, owners)) {}
        return Double(Int(after) - Int(before)) / Double(count)
    }
}
