import Fluxion
import Foundation

/// A seam of the threaded mode: a task's dispatch held while the past is shown, and the dispatch of a
/// task an observer of the move back starts. The held one was made first: it must be applied first.
enum HeldOrderRun {
    /// Runs `tries` times; what broke, if anything.
    static func run(tries: Int) -> [String] {
        for attempt in 1...tries {
            do {
                if let broken = try once() { return ["try \(attempt): \(broken)"] }
            } catch {
                return ["try \(attempt): \(error)"]
            }
        }
        return []
    }

    private static func once() throws -> String? {
        let dispatcher = Dispatcher()
        _ = ProgramContext(for: dispatcher)
        defer { ProgramContext.forget(dispatcher) }
        try dispatcher.register(StoreA.self)
        let journal = try Journal(recording: dispatcher)
        defer { journal.stop() }
        try dispatcher.dispatch(.op, payload: Command(tag: 1, touches: [0]))
        try journal.stepBack()
        let held = DispatchSemaphore(value: 0)
        dispatcher.dispatchTask { dispatcher in
            try dispatcher.dispatch(.op, payload: Command(tag: 2, touches: [0]))  // held
            held.signal()
        }
        guard held.wait(timeout: HangGuard.deadline) == .success else {
            return "hung: the held dispatch did not return within \(Int(HangGuard.seconds)) s"
        }
        let store = try dispatcher.store(StoreA.self)
        let token = store.observe { [weak dispatcher] change in
            guard change.action.name == AnyAction.travelName, let dispatcher else { return }
            dispatcher.dispatchTask { try $0.dispatch(.op, payload: Command(tag: 3, touches: [0])) }
        }
        defer { token.cancel() }
        try journal.returnToPresent()
        let drained = DispatchSemaphore(value: 0)
        Task {
            await dispatcher.waitUntilDrained()
            drained.signal()
        }
        guard drained.wait(timeout: HangGuard.deadline) == .success else {
            return "hung: the dispatcher did not drain within \(Int(HangGuard.seconds)) s "
                + "(\(dispatcher.runningTaskCount) task(s) running, the store holds \(store.state.items))"
        }
        let items = store.state.items
        return items == [1, 2, 3] ? nil : "the store holds \(items), not [1, 2, 3]"
    }
}
