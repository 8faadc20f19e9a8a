import Fluxion
import Testing

@Suite struct DispatcherScopedSuspensionTests {
    @Test func actionsDispatchedInWithSuspensionRunWhenItReturns() throws {
        let (dispatcher, store) = try makeCounterStore()

        let inside = try dispatcher.withSuspension {
            try dispatcher.dispatch(.counterAdd, payload: 1)
            #expect(dispatcher.isSuspended)
            return store.state.total
        }

        #expect(inside == 0)
        #expect(!dispatcher.isSuspended)
        #expect(store.state.total == 1)
    }

    @Test func withSuspensionReleasesWhenItsBodyThrows() throws {
        let (dispatcher, store) = try makeCounterStore()

        #expect(throws: TestError("body")) {
            try dispatcher.withSuspension {
                try dispatcher.dispatch(.counterAdd, payload: 2)
                throw TestError("body")
            }
        }

        #expect(!dispatcher.isSuspended)
        #expect(store.state.total == 2, "the waiting action ran when the suspension ended")
    }
}
