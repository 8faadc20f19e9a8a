import Foundation

/// The name of the notification Fluxion posts when a store changes.
extension Notification.Name {
    /// Posted after a store changes, by a store or dispatcher that was asked to post notifications.
    ///
    /// The notification's `object` is the store; its `userInfo` holds the
    /// ``AnyStoreChange`` under ``AnyStoreChange/userInfoKey``. See
    /// ``Store/postNotifications(to:)`` and ``Dispatcher/postNotifications(to:)``.
    public static let fluxionStoreDidChange = Notification.Name("FluxionStoreDidChange")
}

extension AnyStoreChange {
    /// The `userInfo` key of the change in a `Notification.Name.fluxionStoreDidChange` notification.
    public static let userInfoKey = "FluxionStoreChange"

    /// Posts this change as a `Notification.Name.fluxionStoreDidChange` notification.
    func post(to center: NotificationCenter) {
        center.post(name: .fluxionStoreDidChange, object: store, userInfo: [Self.userInfoKey: self])
    }
}

extension Store {
    /// Posts a `Notification.Name.fluxionStoreDidChange` notification
    /// to `center` after each change of this store, until the token is cancelled or released.
    ///
    /// For code built on `NotificationCenter`:
    ///
    /// ```swift
    /// let posting = store.postNotifications()
    /// NotificationCenter.default.addObserver(forName: .fluxionStoreDidChange, object: store, queue: nil) { note in
    ///     let change = note.userInfo?[AnyStoreChange.userInfoKey] as? AnyStoreChange
    /// }
    /// ```
    ///
    /// Notifications are posted on the dispatching thread, as observers are called.
    public final func postNotifications(to center: NotificationCenter = .default) -> ObservationToken {
        observe { [unowned self] change in
            // NB: the token's observer holds the store, so `self` lives while this runs.
            AnyStoreChange(change, of: self).post(to: center)
        }
    }
}

extension Dispatcher {
    /// Posts a `Notification.Name.fluxionStoreDidChange` notification
    /// to `center` after each change of each store, until the token is cancelled or released.
    ///
    /// The notification's `object` is the store that changed.
    public func postNotifications(to center: NotificationCenter = .default) -> ObservationToken {
        observe { change in change.post(to: center) }
    }
}
