import Fluxion
import Testing

extension ActionName where Payload == Void {
    fileprivate static var markEarly: Self { "orderMarkEarly" }
    fileprivate static var markLate: Self { "orderMarkLate" }
}

private final class EarlyStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> { HandlerTable().on(.markEarly) { state, _ in state += 1 } }
}

private final class LateStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> { HandlerTable().on(.markLate) { state, _ in state += 1 } }
}

@Suite struct DispatcherDeliveryOrderTests {
    @Test func aBatchIsDeliveredInRegistrationOrderWhateverOrderItTouchedTheStores() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(EarlyStore.self)
        try dispatcher.register(LateStore.self)
        let heard = Recorder<String>()
        let owner = ObserverOwner()
        try dispatcher.store(EarlyStore.self).observe(owner: owner) { _, _ in heard.append("store: early") }
        try dispatcher.store(LateStore.self).observe(owner: owner) { _, _ in heard.append("store: late") }
        dispatcher.observe(owner: owner) { _, change in
            heard.append(change.store(as: EarlyStore.self) == nil ? "all: late" : "all: early")
        }

        try dispatcher.batch { batch in
            try batch.dispatch(.markLate)
            try batch.dispatch(.markEarly)
        }

        #expect(heard.values.filter { $0.hasPrefix("store") } == ["store: early", "store: late"])
        #expect(heard.values.filter { $0.hasPrefix("all") } == ["all: early", "all: late"])
        withExtendedLifetime(owner) {}
    }
}
