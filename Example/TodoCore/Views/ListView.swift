import Fluxion

/// Shows the list again after each change of the items or of the filter.
///
/// The view only reads and observes: commands reach the stores as actions,
/// and whatever changed the list, this observer prints its new form. A
/// rejected action changes nothing, so observers do not hear of it and nothing is printed.
public final class ListView: Sendable {
    private let app: TodoApp
    private let write: @Sendable (String) -> Void

    /// Creates a view of `app` that prints with `write`; call ``startObserving()`` to print changes.
    public init(app: TodoApp, write: @escaping @Sendable (String) -> Void) {
        self.app = app
        self.write = write
    }

    /// Prints the list after each change, for as long as the view lives.
    public func startObserving() {
        app.todos.observe(owner: self) { view, _ in view.render() }
        app.filter.observe(owner: self) { view, _ in view.render() }
    }

    /// Prints the list as the filter shows it.
    public func render() {
        write(TodoRenderer.list(app.todos.state, filter: app.filter.state))
    }
}
