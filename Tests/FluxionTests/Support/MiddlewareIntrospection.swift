@testable import Fluxion

/// An object a middleware captures, so that a test can tell when the middleware is released.
final class MiddlewareCapture: Sendable {
    init() {}
}

extension Dispatcher {
    /// Weak references to the entries of the middleware chain as it is now.
    ///
    /// An entry holds its middleware: once the dispatcher (its chain, a cached
    /// run of the chain) lets an entry go, so does its middleware. The tests of
    /// a stopped journal use them, as the journal's middleware is the library's
    /// own. NB: reads the internal `MiddlewareChain`.
    var middlewareEntryReferences: [Weak<MiddlewareEntry>] {
        state.withLock { $0.middleware.entries }.map { Weak(object: $0) }
    }

    /// A weak reference to the recorder of the journal attached, if any.
    var journalRecorderReference: Weak<JournalRecorder>? {
        state.withLock { $0.middleware.recorder }.map { Weak(object: $0.recorder) }
    }
}
