@testable import Fluxion

extension Dispatcher {
    /// How many whole-dispatcher observers the dispatcher lists now, gone ones included.
    ///
    /// Each listed observer holds its closure, and what the closure captured;
    /// the tests of `dispatcher.changes` count them here, as the stream's
    /// closure is the library's own. NB: reads the internal `ChangeRelay`.
    var listedWholeDispatcherObserverCount: Int {
        relay.count
    }
}
