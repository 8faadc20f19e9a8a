/// Builds the `AsyncStream`s of ``Store/changes`` and ``Dispatcher/changes``.
///
/// The stream's observer is owned by the stream: it lives until the stream
/// terminates (its consumer is cancelled, or it is dropped), so nothing
/// holds the store. When the store goes away its observers are released, and
/// with them a finisher that ends the stream.
enum ChangeStream {
    static func make<Change: Sendable>(
        bufferingPolicy: AsyncStream<Change>.Continuation.BufferingPolicy,
        observe: (_ owner: Owner, _ yield: @escaping @Sendable (Change) -> Void) -> Void
    ) -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self, bufferingPolicy: bufferingPolicy)
        let owner = Owner()
        let finisher = Finisher { continuation.finish() }
        observe(owner) { change in
            withExtendedLifetime(finisher) { _ = continuation.yield(change) }
        }
        continuation.onTermination = { _ in withExtendedLifetime(owner) {} }
        return stream
    }

    /// What a stream's observer lives as long as.
    final class Owner: Sendable {}

    /// Finishes a stream when released.
    final class Finisher: Sendable {
        private let finish: @Sendable () -> Void

        init(_ finish: @escaping @Sendable () -> Void) {
            self.finish = finish
        }

        deinit { finish() }
    }
}

extension Store {
    /// The store's changes, as an asynchronous sequence.
    ///
    /// ```swift
    /// for await change in store.changes {
    ///     print(change.newState)
    /// }
    /// ```
    ///
    /// Each access starts a new sequence, which hears the changes made after
    /// it was created. Changes are buffered without limit, first in, first
    /// out, so none is dropped however slowly the loop consumes them; use
    /// ``changes(bufferingPolicy:)`` to bound the buffer. The sequence ends
    /// when the store is released (unregistered, or its dispatcher is gone),
    /// and stops observing when the consuming task is cancelled.
    public final var changes: AsyncStream<StoreChange<State>> {
        changes(bufferingPolicy: .unbounded)
    }

    /// The store's changes, as an asynchronous sequence with the given buffering policy.
    ///
    /// With `.bufferingNewest(1)`, a slow consumer skips to the latest change;
    /// with `.bufferingOldest(n)`, changes beyond `n` unconsumed ones are dropped.
    public final func changes(
        bufferingPolicy: AsyncStream<StoreChange<State>>.Continuation.BufferingPolicy
    ) -> AsyncStream<StoreChange<State>> {
        ChangeStream.make(bufferingPolicy: bufferingPolicy) { owner, yield in
            observe(owner: owner) { _, change in yield(change) }
        }
    }
}

extension Dispatcher {
    /// Every change of every store of the dispatcher, as an asynchronous sequence.
    ///
    /// ```swift
    /// for await change in dispatcher.changes {
    ///     print(change.storeType, change.action.name)
    /// }
    /// ```
    ///
    /// Buffered without limit, first in, first out; the sequence ends when the
    /// dispatcher is released. See ``Store/changes``.
    public var changes: AsyncStream<AnyStoreChange> {
        changes(bufferingPolicy: .unbounded)
    }

    /// Every change of every store, as an asynchronous sequence with the given buffering policy.
    public func changes(
        bufferingPolicy: AsyncStream<AnyStoreChange>.Continuation.BufferingPolicy
    ) -> AsyncStream<AnyStoreChange> {
        ChangeStream.make(bufferingPolicy: bufferingPolicy) { owner, yield in
            observe(owner: owner) { _, change in yield(change) }
        }
    }
}
