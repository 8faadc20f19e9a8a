import Fluxion
import Foundation
import Testing
import TodoCore

@Suite(.timeLimit(.minutes(10))) struct FilterStoreTests {
    @Test func setsAndPersistsTheFilter() async throws {
        let storage = InMemoryStateStorage()
        let first = try TestApp(storage: storage)
        #expect(first.app.filter.state == .all)
        try first.test.dispatch(.setFilter, payload: .completed) { $0.modify(FilterStore.self) { $0 = .completed } }
        await first.app.dispatcher.shutdown()  // NB: it saves, and releases the storage for the next app
        #expect(try TestApp(storage: storage).app.filter.state == .completed)
    }

    @Test func aCorruptArchiveIsReportedAndTheStoresStartEmpty() async throws {
        let storage = InMemoryStateStorage(["todos": Data("{oops".utf8), "todos.filter": Data("[]".utf8)])
        let test = try TestApp(storage: storage)
        #expect(test.titles == [])
        #expect(test.app.filter.state == .all)
        let keys = await test.reportedErrors().compactMap { error -> String? in
            if case .corruptArchive(let key, _, _) = error { key } else { nil }
        }
        #expect(keys.sorted() == ["todos", "todos.filter"])
    }
}
