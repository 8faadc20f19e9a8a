import Dispatch
import Fluxion

/// The tasks the effect workloads started and that have not ended yet; their runs wait for them.
let pendingTasks = DispatchGroup()

extension ActionName where Payload == Int {
    static var search: Self { "search" }
}

/// A counter whose `search` handler asks for one effect, which does nothing but end.
final class EffectStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.search, with: .effects) { state, action, effects in
            state.count &+= action.payload
            effects.run { _ in pendingTasks.leave() }
        }
    }
}

/// The effect workloads: an action that asks for an effect, against starting a task by hand.
enum Effects {
    /// B14: start one `Task` that does nothing but end; the run waits for all of them.
    static func b14() -> Workload {
        Workload("B14", ops: 100_000) { ops in
            for _ in 0..<ops {
                pendingTasks.enter()
                Task { pendingTasks.leave() }
            }
            pendingTasks.wait()
            return ops
        }
    }

    /// W14: dispatch an action whose handler asks for one such effect; the run waits for all of them.
    static func w14() throws -> Workload {
        let dispatcher = Dispatcher()
        try dispatcher.register(EffectStore.self)
        let store = try dispatcher.store(EffectStore.self)
        return Workload("W14", ops: 100_000) { ops in
            for _ in 0..<ops {
                pendingTasks.enter()
                try? dispatcher.dispatch(.search, payload: 1)
            }
            pendingTasks.wait()
            return store.state.count
        }
    }
}
