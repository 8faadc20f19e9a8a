import Fluxion

// The store of the `Dispatcher+Suspension…Tests` suites. `note` and `fail` stay `fileprivate`, as
// other test files declare their own: each file that uses one declares it too.

extension ActionName where Payload == String {
    fileprivate static var note: Self { "suspensionNote" }
}

extension ActionName where Payload == Void {
    static var bell: Self { "suspensionBell" }
    fileprivate static var fail: Self { "suspensionFail" }
}

/// Lists the notes it handled; `.bell` appends "bell"; `.fail` throws.
final class SuspensionNotesStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable()
            .on(.note) { state, action in state.append(action.payload) }
            .on(.bell) { state, _ in state.append("bell") }
            .on(.fail) { state, _ in
                state.append("fail")
                throw TestError("suspensionFail")
            }
    }
}

/// A new dispatcher with a ``SuspensionNotesStore``, created.
func makeNotesStore() throws -> (Dispatcher, SuspensionNotesStore) {
    let dispatcher = Dispatcher()
    try dispatcher.register(SuspensionNotesStore.self)
    return (dispatcher, try dispatcher.store(SuspensionNotesStore.self))
}
