import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "methodBindingAdd" }
    fileprivate static var addLater: Self { "methodBindingAddLater" }
    fileprivate static var peek: Self { "methodBindingPeek" }
}

/// Counts how many times a store's method handlers were bound to it.
private final class Bindings: @unchecked Sendable {  // `count` is touched only with `lock` held
    private let lock = NSLock()
    private var value = 0

    var count: Int { lock.withLock { value } }

    func add() { lock.withLock { value += 1 } }
}

/// A store whose method handlers are passed as curried closures that count their bindings.
private final class LedgerStore: Store<[Int]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    let bindings = Bindings()

    init() { super.init(initialState: []) }

    override class var handlers: Handlers {
        HandlerTable()
            .route(.add) { (store: LedgerStore) in
                store.bindings.add()
                return store.add
            }
            .route(.addLater) { (store: LedgerStore) in
                store.bindings.add()
                return store.addLater
            }
    }

    func add(_ entries: inout [Int], _ action: Action<Int>) throws {
        entries.append(action.payload)
    }

    func addLater(_ entries: inout [Int], _ action: Action<Int>, _ effects: Effects) throws {
        entries.append(-action.payload)
    }
}

/// A store whose curried method handler reads another store through the dispatcher as it is bound.
private final class CuriousStore: Store<[Int]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: Handlers {
        HandlerTable().route(.peek) { (store: CuriousStore) in
            _ = try? store.dispatcher?.store(LedgerStore.self)
            return store.peek
        }
    }

    func peek(_ entries: inout [Int], _ action: Action<Int>) throws {
        entries.append(action.payload)
    }
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct HandlerTableMethodBindingTests {
    @Test func aMethodHandlerIsBoundToItsStoreOnceNotAtEveryDispatch() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(LedgerStore.self)
        let store = try dispatcher.store(LedgerStore.self)

        for value in 1...5 { try dispatcher.dispatch(.add, payload: value) }
        for value in 1...5 { try dispatcher.dispatch(.addLater, payload: value) }

        #expect(store.state == [1, 2, 3, 4, 5, -1, -2, -3, -4, -5])
        // NB: each of the two methods is bound once for the store, not once per dispatch.
        #expect(store.bindings.count == 2)
    }

    @Test func aStoreWhoseMethodsWereBoundIsReleasedWithItsDispatcher() throws {
        var dispatcher: Dispatcher? = Dispatcher()
        try dispatcher?.register(LedgerStore.self)
        var store = Weak<LedgerStore>()
        store.object = try dispatcher?.store(LedgerStore.self)
        try dispatcher?.dispatch(.add, payload: 1)
        try dispatcher?.dispatch(.addLater, payload: 1)

        dispatcher = nil

        #expect(store.object == nil)
    }

    @Test func aCurriedMethodThatUsesTheDispatcherAsItIsBoundDoesNotDeadlock() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(LedgerStore.self)
        try dispatcher.register(CuriousStore.self)
        let finished = DispatchSemaphore(value: 0)

        // NB: on a thread of its own, so that a deadlock fails the test instead of hanging it.
        Thread.detachNewThread {
            try? dispatcher.dispatch(.peek, payload: 2)
            finished.signal()
        }

        try #require(finished.wait(timeout: .now() + hangGuard) == .success, "hung: the dispatch deadlocked")
        #expect(try dispatcher.store(CuriousStore.self).state == [2])
    }
}
