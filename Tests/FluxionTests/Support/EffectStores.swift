import Foundation

@testable import Fluxion

struct Catalog: Codable, Sendable, Equatable {
    var query = ""
    var results: [String] = []
    var isLoading = false
}

extension ActionName where Payload == String {
    static var findProducts: Self { "effects.findProducts" }
    /// Asks for an effect with the plain `dispatchTask`, from a handler.
    static var findWithTask: Self { "effects.findWithTask" }
}

extension ActionName where Payload == [String] {
    static var productsFound: Self { "effects.productsFound" }
}

extension ActionName where Payload == Void {
    /// Asks for an effect through the `Effects` an earlier `findProducts` handler call kept.
    static var useKeptEffects: Self { "effects.useKeptEffects" }
}

extension ActionName where Payload == Int {
    /// Asks for that many effects, each recording its index.
    static var askForEffects: Self { "effects.askForEffects" }
}

/// A search service whose answers the test gives: each request waits until the test responds to it.
///
/// The wait is not cancellable, as a request already sent is not: a cancelled
/// task still gets its response, and its dispatch is what must be refused.
final class SearchService: Sendable {
    private let pending = Guarded<[String: CheckedContinuation<[String], Never>]>([:])
    private let arrivals = AsyncStream.makeStream(of: String.self)
    /// The queries asked, in order.
    let requests = Recorder<String>()

    func results(for query: String) async -> [String] {
        await withCheckedContinuation { continuation in
            pending.withLock { $0[query] = continuation }
            requests.append(query)
            arrivals.continuation.yield(query)
        }
    }

    /// Waits for the request for `query`, then answers it.
    func respond(to query: String, with results: [String]) async {
        if pending.withLock({ $0[query] == nil }) {
            for await arrived in arrivals.stream where arrived == query { break }
        }
        pending.withLock { $0.removeValue(forKey: query) }?.resume(returning: results)
    }
}

/// Searches as you type: each query asks for an effect that replaces the search in flight.
final class ProductSearchStore: Store<Catalog>, @unchecked Sendable {  // locked by Store
    let service: SearchService
    /// The task `findWithTask`'s handler started, for the test to await.
    let lastTask = LockedBox<Task<Void, any Error>?>(nil)
    /// Effects kept past their handler call, to check they are refused.
    let keptEffects = LockedBox<Effects?>(nil)

    init(service: SearchService) {
        self.service = service
        super.init(initialState: Catalog())
    }

    override class var handlers: HandlerTable<Catalog> {
        HandlerTable()
            .route(.findProducts, to: ProductSearchStore.find)
            .route(.findWithTask, to: ProductSearchStore.findWithTask)
            .on(.productsFound) { state, action in
                state.results = action.payload
                state.isLoading = false
            }
            .route(.useKeptEffects, to: ProductSearchStore.useKeptEffects)
    }

    func find(_ state: inout Catalog, _ action: Action<String>, _ effects: Effects) {
        state.query = action.payload
        state.isLoading = true
        keptEffects.value = effects
        let (service, query) = (service, action.payload)
        effects.run(id: "search", cancelInFlight: true) { dispatcher in
            try dispatcher.dispatch(.productsFound, payload: await service.results(for: query))
        }
    }

    func useKeptEffects(_ state: inout Catalog, _ action: Action<Void>) {
        state.query = "stale"
        keptEffects.value?.run(id: "stale") { _ in }
    }

    func findWithTask(_ state: inout Catalog, _ action: Action<String>) {
        state.query = action.payload
        let (service, query) = (service, action.payload)
        lastTask.value = dispatcher?.dispatchTask(id: "search", cancelInFlight: true) { dispatcher in
            try dispatcher.dispatch(.productsFound, payload: await service.results(for: query))
        }
    }
}

/// Handles the searches too, and refuses the query "bad": the whole action rolls back.
final class QueryGuardStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .on(.findProducts) { count, action in
                guard action.payload != "bad" else { throw TestError("refused \(action.payload)") }
                count += 1
            }
            .on(.findWithTask) { count, action in
                guard action.payload != "bad" else { throw TestError("refused \(action.payload)") }
                count += 1
            }
    }
}

/// Asks for as many effects as the payload says; each records its index, in the order asked.
final class EffectOrderStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.askForEffects, with: .effects) { count, action, effects in
            count += action.payload
            for index in 0..<action.payload { effects.run(id: "effect \(index)") { _ in } }
        }
    }
}

/// A dispatcher with the search stores, and the task events it reports.
func makeSearchDispatcher(service: SearchService = SearchService()) throws
    -> (Dispatcher, ProductSearchStore, Recorder<TaskError>)
{
    let dispatcher = Dispatcher()
    let errors = Recorder<TaskError>()
    dispatcher.onTaskError = { errors.append($0) }
    try dispatcher.register(ProductSearchStore.self) { ProductSearchStore(service: service) }
    try dispatcher.register(QueryGuardStore.self)
    return (dispatcher, try dispatcher.store(ProductSearchStore.self), errors)
}

extension ActionName where Payload == Int {
    static var relayStart: Self { "effects.relayStart" }
    static var relayEnd: Self { "effects.relayEnd" }
}

/// Records each payload; `relayStart`'s handler dispatches `relayEnd` (queued behind it).
final class RelayStore: Store<[Int]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[Int]> {
        HandlerTable()
            .route(.relayStart, to: RelayStore.start)
            .on(.relayEnd) { state, action in state.append(action.payload) }
    }

    func start(_ state: inout [Int], _ action: Action<Int>) throws {
        state.append(action.payload)
        try dispatcher?.dispatch(.relayEnd, payload: action.payload + 1)
    }
}

func makeRelayDispatcher() throws -> Dispatcher {
    let dispatcher = Dispatcher()
    try dispatcher.register(RelayStore.self)
    return dispatcher
}

extension ActionName where Payload == String {
    /// Looks the payload up, with an effect that waits for the service's answer to it.
    static var lookUp: Self { "effects.lookUp" }
}

/// Looks words up: each asks for an effect, "lookup", that waits for the service's answer, then ends.
final class LookupStore: Store<[String]>, @unchecked Sendable {  // locked by Store
    let service: SearchService

    init(service: SearchService) {
        self.service = service
        super.init(initialState: [])
    }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable().on(.lookUp, in: LookupStore.self, with: .effects) { store, words, action, effects in
            words.append(action.payload)
            let (service, word) = (store.service, action.payload)
            effects.run(id: "lookup") { _ in _ = await service.results(for: word) }
        }
    }
}
