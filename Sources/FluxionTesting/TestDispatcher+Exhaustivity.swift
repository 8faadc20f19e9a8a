import Fluxion

extension TestDispatcher {
    /// How much a ``TestDispatcher`` checks.
    ///
    /// ```swift
    /// let test = TestDispatcher(exhaustivity: .off)
    /// try test.register(CounterStore.self)
    /// try test.register(LogStore.self)
    ///
    /// try test.dispatch(.add, payload: 2) { $0.modify(CounterStore.self) { $0.count = 2 } }  // LogStore not checked
    /// ```
    ///
    /// - ``on``, the default: every tracked store after every action, and every action.
    /// - ``on(except:)``: the same, but for the stores named, which are checked only when an expectation
    ///   names them. Use it for a store whose changes the test is not about and that changes with most
    ///   actions (an analytics log, a cache of recent searches), rather than turning everything off.
    /// - ``off``: only the stores an expectation names; unasserted actions are let go, task errors are not.
    public struct Exhaustivity: Sendable, Equatable {
        /// Whether a step's stores are checked when the expectation does not name them.
        let checksUnnamedStores: Bool
        /// The stores checked only when an expectation names them.
        let unchecked: Set<ObjectIdentifier>

        /// Every tracked store after every action, and every action.
        ///
        /// ```swift
        /// let test = TestDispatcher(exhaustivity: .on)  // the default
        /// ```
        public static let on = Exhaustivity(checksUnnamedStores: true, unchecked: [])

        /// Only the stores an expectation names; unasserted actions are let go, task errors are not.
        ///
        /// ```swift
        /// let test = TestDispatcher(exhaustivity: .off)
        /// ```
        public static let off = Exhaustivity(checksUnnamedStores: false, unchecked: [])

        /// Every tracked store after every action, and every action, but for the stores of `types`,
        /// checked only when an expectation names them.
        ///
        /// ```swift
        /// let test = TestDispatcher(exhaustivity: .on(except: AnalyticsStore.self))
        /// ```
        public static func on(except types: any StoreProtocol.Type...) -> Exhaustivity {
            Exhaustivity(checksUnnamedStores: true, unchecked: Set(types.map { ObjectIdentifier($0) }))
        }

        /// Whether every action that reached the stores must be received.
        var receivesEveryAction: Bool { checksUnnamedStores }

        /// Whether the store `id` is checked after a step whose expectation named `named`.
        func checks(_ id: ObjectIdentifier, named: Set<ObjectIdentifier>) -> Bool {
            named.contains(id) || (checksUnnamedStores && !unchecked.contains(id))
        }
    }
}
