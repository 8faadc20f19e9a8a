import Fluxion
import Foundation
import Testing

// The README's Quick Start, verbatim between the markers (a test below checks the README holds it).
// quick-start-begin
struct Counter: DefaultInitializable, Sendable {
    var count = 0
}

extension ActionName where Payload == Int {
    static var increment: Self { "increment" }
}

final class CounterStore: Store<Counter>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    override class var handlers: Handlers {
        HandlerTable().on(.increment) { state, action in state.count += action.payload }
    }
}

final class CounterView: Sendable {
    func render(_ count: Int) { print("count:", count) }
}

func quickStart() throws -> Int {
    let dispatcher = Dispatcher()
    try dispatcher.register(CounterStore.self)

    let view = CounterView()
    try dispatcher.store(CounterStore.self).observe(owner: view) { view, change in
        view.render(change.newState.count)
    }

    try dispatcher.dispatch(.increment, payload: 2)
    return try dispatcher.store(CounterStore.self).state.count  // 2
}
// quick-start-end

@Suite struct QuickStartTests {
    @Test func quickStartCountsToTwo() throws {
        #expect(try quickStart() == 2)
    }

    @Test func theReadmeShowsThisCodeVerbatim() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let readme = testFile.deletingLastPathComponent().appendingPathComponent("../../README.md")
        let source = try String(contentsOf: testFile, encoding: .utf8)
        let quickStart = try #require(
            source.components(separatedBy: "// quick-start-begin\n").last?
                .components(separatedBy: "// quick-start-end").first)

        #expect(try String(contentsOf: readme, encoding: .utf8).contains(quickStart))
    }
}
