// A transaction's handlers: each store's, in registration order (`waitFor` runs some early), then the derive
// stage, with the action's parts as the dispatch passes them, its payload's type kept. No closure runs a
// handler: the dispatch calls `runHandlers`, which calls `runHandler` for each route, which calls the handler.
extension Transaction {
    /// Runs every handler of `list` for the action `name`, in order (``waitFor(_:)`` may run some earlier); then,
    /// once they ran, the derive stage: the computed stores that follow their stores (a batch derives once,
    /// before it commits: `Dispatcher.deriveBatch()`).
    ///
    /// - Parameters:
    ///   - list: The action's routes, every store of which exists.
    ///   - recorder: The performance trace that records each handler's span, if one records.
    /// - Throws: The first error a handler threw: the transaction is then failed.
    func runHandlers<Payload: Sendable>(
        _ name: String, payload: Payload, error: (any Error)?, through list: RouteList, tracing recorder: TraceRecorder?
    ) throws {
        state.isOpen = true
        state.actionName = name
        let count = list.routes.count
        state.unretainedList = Unmanaged.passUnretained(list)
        // NB: one store alone commits at once; several stage, so that they commit together.
        state.stages = state.batch.isOpen || count > 1
        if state.progress.count == count {
            for index in 0..<count { state.progress[index] = .pending }
        } else {
            state.progress = ContiguousArray(repeating: .pending, count: count)
        }
        if count == 1, list.derivations.isEmpty {
            // NB: one route: a handler's, whose `waitFor` never runs another; no derive stage follows.
            if state.failure == nil { runHandler(at: 0, of: list, name, payload, error, tracing: recorder) }
        } else {
            // NB: the payload is lent, where it is, for `waitFor`, which runs a handler of this list early, and only
            // while the handlers run: nothing is copied, and nothing allocated.
            withUnsafePointer(to: payload) { payloadAddress in
                state.lent = LentPayload(address: UnsafeRawPointer(payloadAddress), type: Payload.self)
                // NB: most actions carry no error, and no trace records: nothing is stored then.
                if error != nil { state.lentError = error }
                if let recorder { state.lentRecorder = Unmanaged.passUnretained(recorder) }
                // NB: the handlers first, in registration order; then the derive stage: the derivations, in
                // registration order, which is dependency order. A batch derives once, before it commits.
                let derives = !list.derivations.isEmpty
                var index = 0
                while index < count, state.failure == nil {
                    if state.progress[index] == .pending, !derives || !list.routes[index].isDerivation {
                        runHandler(at: index, of: list, name, payload, error, tracing: recorder)
                    }
                    index += 1
                }
                if derives, !state.batch.isOpen {
                    state.isDeriving = true
                    for index in list.derivations where state.failure == nil && state.progress[index] == .pending {
                        runHandler(at: index, of: list, name, payload, error, tracing: recorder)
                    }
                    state.isDeriving = false
                }
                state.lent = nil
                if error != nil { state.lentError = nil }
                state.lentRecorder = nil
            }
        }
        // NB: a batch's changes are staged in `staged`; an action's, along its list.
        if state.batch.isOpen { state.unretainedList = nil }
        if let failure = state.failure { throw failure }
    }

    /// Runs the handler of the route at `index` of `list` for the action, staging its store's change first when
    /// the transaction stages; or, for a route of the derive stage, derives its computed store.
    private func runHandler<Payload: Sendable>(
        at index: Int, of list: RouteList, _ name: String, _ payload: Payload, _ error: (any Error)?,
        tracing recorder: TraceRecorder?
    ) {
        // NB: `list` keeps its routes, their handlers and stores alive throughout: they are lent
        // without reference counts, which cost on every dispatch.
        unowned(unsafe) let route = list.routes[index]
        // NB: `ready(_:)` made every store of the list before the transaction began.
        guard let store = route.unretainedStore else { return }
        if state.batch.isOpen {
            state.batch.stage(
                store.takeUnretainedValue(), order: route.registration.order, operations: route.operations)
        } else if state.stages {
            store._withUnsafeGuaranteedRef { route.operations.stage($0) }
        }
        state.progress[index] = .running
        state.running.append(index)
        let outerCall = state.handlerCall
        state.lastHandlerCall &+= 1
        state.handlerCall = state.lastHandlerCall
        let handler = Unmanaged.passUnretained(route)._withUnsafeGuaranteedRef { $0.runningHandler }
        // NB: each lends the store without a reference count, as `Handler.run` lends its typed body: a frame each.
        let outcome: HandlerOutcome
        if let recorder {
            outcome = store._withUnsafeGuaranteedRef { store in
                recorder.traceHandler(of: store, action: name) {
                    !route.isDerivation
                        ? Handler.run(handler, on: store, name: name, payload: payload, error: error)
                        : Handler.derive(handler, on: store, name: name)
                }
            }
        } else if !route.isDerivation {
            outcome = store._withUnsafeGuaranteedRef {
                Handler.run(handler, on: $0, name: name, payload: payload, error: error)
            }
        } else {
            // NB: a derivation reads its sources, not the action: its payload is not boxed for it.
            outcome = store._withUnsafeGuaranteedRef { Handler.derive(handler, on: $0, name: name) }
        }
        state.handlerCall = outerCall
        state.running.removeLast()
        state.progress[index] = .done
        switch outcome {
        case .failed(let error):
            fail(error)
        case .committed(let delivers):
            // NB: a one-store action committed at once; it is delivered after the transaction ends.
            if delivers { state.progress[index] = .heard }
        case .staged:
            break
        }
    }

    /// Runs the handler of the store with `id` now, unless it ran already (``Store/waitFor(_:)``).
    ///
    /// - Returns: That store, or `nil` when no store with `id` handles this action.
    /// - Throws: ``FluxionError/waitForCycle(_:)`` when that store is waiting
    ///   already, or the error its handler threw.
    func waitFor(_ id: ObjectIdentifier) throws -> AnyObject? {
        // NB: the dispatch running the action holds its list: its routes and stores are lent without reference counts.
        guard let unretainedList = state.unretainedList else { return nil }
        switch unretainedList._withUnsafeGuaranteedRef({ runFirst(id, of: $0) }) {
        case .notReached: return nil
        case .failed(let error): throw error
        case .ran(let store): return store
        }
    }

    /// What ``waitFor(_:)`` found.
    private enum Waited {
        case notReached
        case failed(any Error)
        case ran(AnyObject?)
    }

    private func runFirst(_ id: ObjectIdentifier, of list: RouteList) -> Waited {
        guard let index = list.index(of: id) else { return .notReached }
        switch state.progress[index] {
        case .pending:
            if state.failure == nil { runLentAction(at: index, of: list) }
        case .running:
            let running = state.running
            let path = (running[(running.firstIndex(of: index) ?? 0)...] + [index]).map {
                list.routes[$0].registration.name
            }
            return .failed(FluxionError.waitForCycle(path))
        case .done, .heard:
            break
        }
        if let failure = state.failure { return .failed(failure) }
        unowned(unsafe) let route = list.routes[index]
        return .ran(route.unretainedStore?.takeUnretainedValue())
    }

    /// Runs the handler at `index` of `list` early, for the running action, with the payload its dispatch lent.
    private func runLentAction(at index: Int, of list: RouteList) {
        // NB: a pending route means several routes, so the running action lent its payload.
        guard let lent = state.lent else {
            return fail(FluxionError.waitForOutsideDispatch(list.routes[index].registration.name))
        }
        func run<Payload: Sendable>(_: Payload.Type) {
            let payload = lent.address.assumingMemoryBound(to: Payload.self)
            let recorder = state.lentRecorder?.takeUnretainedValue()
            if state.lentError == nil {
                runHandler(at: index, of: list, state.actionName, payload.pointee, nil, tracing: recorder)
            } else {
                runHandler(at: index, of: list, state.actionName, payload.pointee, state.lentError, tracing: recorder)
            }
        }
        run(lent.type)
    }
}

/// The payload of the action whose handlers run, lent by its dispatch for ``Transaction/waitFor(_:)``: where it
/// is, and its type.
struct LentPayload {
    let address: UnsafeRawPointer
    let type: any Sendable.Type
}
