// Errors that replay: an action's error recorded as a value, decoded as its own type again by a replay.
extension Dispatcher {
    /// Registers an error type whose errors a journal records as values, so that a replay dispatches a
    /// step that carried one again, with the same error.
    ///
    /// ```swift
    /// enum LoadError: Error, Codable { case offline, notFound(id: Int) }
    ///
    /// let dispatcher = Dispatcher()
    /// try dispatcher.register(UserStore.self)
    /// dispatcher.registerReplayableError(LoadError.self)
    ///
    /// try dispatcher.dispatch(.userLoaded, result: .failure(LoadError.offline))
    /// ```
    ///
    /// A payload needs no registering: a replay decodes it as the type the
    /// handler tables name for its action. An action's error has no such
    /// type — handlers receive it as `any Error` — so a replay knows the
    /// types registered here. A ``Journal`` records an error of a registered
    /// type as JSON with its type's name, and its step stays replayable; a
    /// replay decodes it as that type again, so a handler that checks
    /// `action.error as? LoadError` sees what it saw when recording, and a
    /// failure or retry handler runs again. Register the same types with the
    /// dispatcher you record and the one you replay into — the function that
    /// makes your dispatcher is the place.
    ///
    /// An error of a type not registered (or not `Codable`) is recorded by its
    /// description, and its step is not replayable: a replay sets its recorded
    /// states instead. A replay into a dispatcher that does not register a
    /// type the recording did throws ``JournalError/undecodableValue(line:name:reason:)``
    /// for the line. Registering a type again changes nothing. The type of an
    /// error is its dynamic type: register each subclass of an error class
    /// whose instances actions carry. Two types of one qualified name (private
    /// types of one name in one module) cannot be told apart in a file: errors
    /// of either are recorded by description.
    ///
    /// - Parameter type: An error type whose values are `Codable`.
    public func registerReplayableError<Failure: Error & Codable>(_ type: Failure.Type) {
        replayableErrors.register(type)
    }
}
