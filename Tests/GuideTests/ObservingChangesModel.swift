// article-tracking-begin
import Fluxion
import Observation

/// Shows the unread count outside SwiftUI, each time it changes.
final class UnreadBadge: Sendable {
    let store: UnreadCountStore
    let show: @Sendable (Int) -> Void

    init(store: UnreadCountStore, show: @escaping @Sendable (Int) -> Void) {
        self.store = store
        self.show = show
    }

    func startShowing() {
        withObservationTracking {
            show(store.count)  // read through the store: told only when the count changes
        } onChange: { [self] in
            startShowing()  // `onChange` fires once: track again to hear the next change
        }
    }
}
// article-tracking-end

// article-commandLine-begin
/// A command-line tool's observer: a token, kept for as long as the tool wants the changes.
func printUnreadCounts(of dispatcher: Dispatcher, while work: () throws -> Void) throws {
    let token = try dispatcher.store(UnreadCountStore.self).observe(\.count) { count in
        print("unread: \(count.newValue)")
    }
    defer { token.cancel() }
    try work()
}
// article-commandLine-end
