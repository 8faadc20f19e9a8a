import Fluxion

/// Holds which items the list shows.
public final class FilterStore: Store<VisibilityFilter>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    /// Creates the store showing every item.
    public init() { super.init(initialState: .all) }

    override public class var handlers: HandlerTable<VisibilityFilter> {
        HandlerTable().on(.setFilter) { filter, action in filter = action.payload }
    }
}
