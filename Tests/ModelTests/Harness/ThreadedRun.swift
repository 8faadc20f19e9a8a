import Fluxion
import Foundation

/// One round of the threaded mode: threads, tasks, a time traveller, a suspender and a reader work on
/// one dispatcher at once; afterwards, what must hold whatever the interleaving is checked.
///
/// Every command touches stores A and B (so a reader between two steps sees them equal) and carries
/// a tag naming its source and its place in that source's order.
final class ThreadedRun: Sendable {
    struct Options: Sendable {
        var threads = 2
        var tasks = 2
        var dispatchesEach = 150
        var travels = 30
        var suspensions = 30
    }

    let dispatcher = Dispatcher()
    let journal: Journal
    let options: Options
    /// What each dispatch returned (`ok`) or threw, by tag; the tags of actions reported refused.
    private let outcomes = Locked<[Int: String]>([:])
    private let refused = Locked<[Int]>([])
    private let tornReads = Locked(0)

    init(_ options: Options) throws {
        self.options = options
        _ = ProgramContext(for: dispatcher)  // NB: the model stores' handlers find their dispatcher's context
        try dispatcher.register(StoreA.self)
        try dispatcher.register(StoreB.self)
        try dispatcher.register(StoreC.self)
        journal = try Journal(recording: dispatcher, capacity: 1_000_000)
        dispatcher.onQueuedError = { [refused] action, _ in
            if let command = action.payload as? Command { refused.withLock { $0.append(command.tag) } }
        }
        dispatcher.onTaskError = { _ in }
    }

    /// Runs the round; returns what broke, if anything.
    func run() -> [String] {
        let group = DispatchGroup()
        let done = Locked(false)
        for thread in 0..<options.threads {
            spawn(group) { [self] in
                for index in 0..<options.dispatchesEach { dispatch(source: thread, index: index) }
            }
        }
        for task in 0..<options.tasks {
            group.enter()
            dispatcher.dispatchTask { [self] _ in
                defer { group.leave() }
                for index in 0..<options.dispatchesEach { dispatch(source: 10 + task, index: index) }
            }
        }
        spawn(group) { [self] in
            for _ in 0..<options.travels {
                try? journal.stepBack()
                try? journal.returnToPresent()
            }
        }
        spawn(group) { [self] in
            for _ in 0..<options.suspensions { dispatcher.withSuspension { _ = dispatcher.isDispatching } }
        }
        let reader = DispatchGroup()
        spawn(reader) { [self] in
            while !done.withLock({ $0 }) {
                let (a, b) = dispatcher.read {
                    ((try? dispatcher.store(StoreA.self).state.items), (try? dispatcher.store(StoreB.self).state.items))
                }
                if a != b { tornReads.withLock { $0 += 1 } }
            }
        }
        guard group.wait(timeout: HangGuard.deadline) == .success else {
            return ["hung: the round did not end within \(Int(HangGuard.seconds)) s"] + progress()
        }
        done.withLock { $0 = true }
        reader.wait()
        try? journal.returnToPresent()
        let drained = DispatchSemaphore(value: 0)
        Task { [dispatcher] in
            await dispatcher.waitUntilDrained()
            drained.signal()
        }
        guard drained.wait(timeout: HangGuard.deadline) == .success else {
            return ["hung: the dispatcher did not drain within \(Int(HangGuard.seconds)) s"] + progress()
        }
        defer {
            journal.stop()
            ProgramContext.forget(dispatcher)
        }
        return check()
    }

    /// What each source had done when the round hung: how many of its dispatches returned or threw.
    private func progress() -> [String] {
        let outcomes = outcomes.withLock { $0 }
        let sources = Dictionary(grouping: outcomes.keys) { $0 / 1_000_000 - 1 }
        let running = dispatcher.runningTaskCount
        return sources.keys.sorted().map { source in
            let kind = source >= 10 ? "task \(source - 10)" : "thread \(source)"
            return "\(kind): \(sources[source]?.count ?? 0) of \(options.dispatchesEach) dispatches returned"
        } + ["the dispatcher counts \(running) task(s) running"]
    }

    private func spawn(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread {
            body()
            group.leave()
        }.start()
    }

    private func dispatch(source: Int, index: Int) {
        let tag = (source + 1) * 1_000_000 + index
        let command = Command(tag: tag, touches: index % 3 == 0 ? [0, 1, 2] : [0, 1])
        let outcome: String
        do {
            try dispatcher.dispatch(.op, payload: command)
            outcome = "ok"
        } catch {
            outcome = ProgramContext.describe(error)
        }
        outcomes.withLock { $0[tag] = outcome }
    }
}

extension ThreadedRun {
    /// What must hold whatever the interleaving.
    private func check() -> [String] {
        var broken: [String] = []
        let a = (try? dispatcher.store(StoreA.self).state.items) ?? []
        let b = (try? dispatcher.store(StoreB.self).state.items) ?? []
        let outcomes = outcomes.withLock { $0 }
        let refused = refused.withLock { $0 }
        if a != b { broken.append("stores A and B differ: \(a.count) and \(b.count) items") }
        if Set(a).count != a.count { broken.append("a dispatch was applied twice") }
        if Set(refused).count != refused.count { broken.append("a refusal was reported twice") }
        let returned = Set(outcomes.filter { $0.value == "ok" }.keys)
        let expected = returned.subtracting(refused)
        let lost = expected.subtracting(a)
        if !lost.isEmpty { broken.append("\(lost.count) dispatches returned without an error and were lost") }
        let unexpected = Set(a).subtracting(expected)
        if !unexpected.isEmpty { broken.append("\(unexpected.count) dispatches were applied though refused") }
        let sources = Dictionary(grouping: a, by: { $0 / 1_000_000 })
        for (source, tags) in sources where tags != tags.sorted() {
            broken.append("source \(source)'s dispatches were applied out of order")
        }
        let recorded = journal.records.filter { $0.name == ActionName<Command>.op.rawValue }.count
        if recorded != a.count { broken.append("the journal has \(recorded) steps for \(a.count) applied") }
        let torn = tornReads.withLock { $0 }
        if torn > 0 { broken.append("\(torn) reads between two steps saw stores A and B differ") }
        return broken
    }
}
