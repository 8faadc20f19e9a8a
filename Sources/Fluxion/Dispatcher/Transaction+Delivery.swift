// A transaction's end, for its observers: committing the staged changes of its action's stores, and telling them.
extension Transaction {
    /// Tells the observers of each store the transaction changed, in registration order; with a
    /// `recorder`, records each observer's span.
    func deliver(_ delivery: consuming PendingDelivery, as action: AnyAction, tracing recorder: TraceRecorder? = nil) {
        if let list = delivery.unretainedList {
            // NB: the dispatch still holds the list: its routes and stores are lent without reference counts.
            list._withUnsafeGuaranteedRef { list in
                for index in state.progress.indices where state.progress[index] == .heard {
                    unowned(unsafe) let route = list.routes[index]
                    guard let store = route.unretainedStore else { continue }
                    store._withUnsafeGuaranteedRef { store in
                        if let recorder {
                            route.operations.deliverTraced(store, action, recorder)
                        } else {
                            route.operations.deliver(store, action)
                        }
                    }
                }
            }
        }
        guard delivery.hasStaged else { return }
        for entry in state.batch.takeCommitted() {
            if let recorder {
                entry.operations.deliverTraced(entry.store, action, recorder)
            } else {
                entry.operations.deliver(entry.store, action)
            }
        }
    }

    /// Commits the staged changes of the action's stores; returns whether someone hears one.
    func commitList() -> Bool {
        guard state.unretainedList != nil else { return false }
        var isHeard = false
        // NB: `progress` has one entry per route of the list; only a staging action's routes commit here.
        for index in state.progress.indices {
            if state.stages, state.progress[index] == .done, commitRoute(at: index) {
                state.progress[index] = .heard
            }
            isHeard = isHeard || state.progress[index] == .heard
        }
        return isHeard
    }

    /// Commits the staged change of the store of the list's route at `index`; whether someone hears it.
    private func commitRoute(at index: Int) -> Bool {
        // NB: the dispatch still holds the list: its route and store are lent without reference counts.
        state.unretainedList?._withUnsafeGuaranteedRef { list in
            unowned(unsafe) let route = list.routes[index]
            return route.unretainedStore?._withUnsafeGuaranteedRef { route.operations.commit($0) }
        } ?? false
    }
}
