import Fluxion

// The stores of "Working with Effects": a search as you type, and a toast. EffectsGuideTests.swift runs them.

/// Why a search failed, as the store shows it.
enum SearchError: Error, Equatable, Codable {
    case offline
    case timedOut
}

/// The search service: the real one in the app, a fake in tests.
struct SearchClient: Sendable {
    var search: @Sendable (String) async throws -> [String]
}

extension ActionName where Payload == String {
    static var search: Self { "search" }
}

extension ActionName where Payload == [String]? {
    static var searchFinished: Self { "searchFinished" }
}

// article-search-begin
struct Search: Codable, Equatable, Sendable {
    var query = ""
    var results: [String] = []
    var isLoading = false
    var failure: SearchError?
}

final class SearchStore: Store<Search>, @unchecked Sendable {  // state guarded by Store's lock; the rest never changes
    let client: SearchClient
    let clock: any Clock<Duration>

    init(client: SearchClient, clock: any Clock<Duration> = ContinuousClock()) {
        self.client = client
        self.clock = clock
        super.init(initialState: Search())
    }

    override class var handlers: Handlers {
        HandlerTable()
            .route(.search, to: SearchStore.search)
            .on(.searchFinished) { state, action in
                state.isLoading = false
                state.results = action.payload ?? []
                state.failure = action.error as? SearchError
            }
    }

    func search(_ state: inout Search, _ action: Action<String>, _ effects: Effects) {
        state.query = action.payload
        state.isLoading = true
        let (client, clock, query) = (client, clock, action.payload)
        effects.run(id: "search", cancelInFlight: true) { dispatcher in
            try await clock.sleep(for: .milliseconds(300))  // the next keystroke cancels it meanwhile
            let result: Result<[String], any Error>
            do {
                result = .success(try await withTimeout(.seconds(5), on: clock) { try await client.search(query) })
            } catch let error as SearchError {
                result = .failure(error)  // offline, timed out: the store shows it
            }  // other errors end the effect: onTaskError hears of them
            try dispatcher.dispatch(.searchFinished, result: result)
        }
    }
}
// article-search-end

/// The value of `work`, or ``SearchError/timedOut`` when `clock` reaches `timeout` first: a race of two
/// child tasks.
func withTimeout<Value: Sendable>(
    _ timeout: Duration,
    on clock: any Clock<Duration>,
    _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value.self) { group in
        group.addTask(operation: work)
        group.addTask {
            try await clock.sleep(for: timeout)
            throw SearchError.timedOut
        }
        defer { group.cancelAll() }
        guard let value = try await group.next() else { throw CancellationError() }
        return value
    }
}

struct Toast: Equatable, Sendable {
    var message: String?
}

extension ActionName where Payload == String {
    static var showToast: Self { "showToast" }
}

extension ActionName where Payload == Void {
    static var hideToast: Self { "hideToast" }
}

final class ToastStore: Store<Toast>, @unchecked Sendable {  // state guarded by Store's lock; the clock never changes
    let clock: any Clock<Duration>

    init(clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
        super.init(initialState: Toast())
    }

    override class var handlers: Handlers {
        HandlerTable()
            .route(.showToast, to: ToastStore.show)
            .on(.hideToast) { toast, _ in toast.message = nil }
    }

    func show(_ toast: inout Toast, _ action: Action<String>, _ effects: Effects) {
        toast.message = action.payload
        let clock = clock
        effects.run(id: "toast", cancelInFlight: true) { dispatcher in
            try await clock.sleep(for: .seconds(3))  // a newer toast replaces this one meanwhile
            try dispatcher.dispatch(.hideToast)
        }
    }
}
