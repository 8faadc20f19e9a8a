import Fluxion

/// The program's middleware: passes every action on, and reacts as armed after the next `op` that passes.
struct ModelMiddleware: Middleware {
    let context: ProgramContext

    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        let changes = try next(action)
        guard action.name == ActionName<Command>.op.rawValue, let reaction = context.takeMiddlewareArm() else {
            return changes
        }
        switch reaction {
        case .throwAfterNext: throw MiddlewareFailed()
        case .startTask(let plan): context.startTask(plan, on: next.dispatcher)
        }
        return changes
    }
}
