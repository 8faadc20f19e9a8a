import Fluxion

// The Fluxion side of "Migrating from Flux (JavaScript)": messages and their unread count.
// FluxGuideTests.swift runs it.

// article-actions-begin
extension ActionName where Payload == String {
    static var receiveMessage: Self { "message/receive" }
}

extension ActionName where Payload == Void {
    static var markAllRead: Self { "message/markAllRead" }
}
// article-actions-end

// article-messages-begin
struct Message: Equatable, Sendable {
    var text: String
    var isRead = false
}

struct Messages: DefaultInitializable, Equatable, Sendable {
    var all: [Message] = []
}

final class MessageStore: Store<Messages>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    override class var handlers: Handlers {
        HandlerTable()
            .on(.receiveMessage) { messages, action in messages.all.append(Message(text: action.payload)) }
            .on(.markAllRead) { messages, _ in
                for index in messages.all.indices { messages.all[index].isRead = true }
            }
    }
}
// article-messages-end

// article-unread-begin
struct UnreadCount: DefaultInitializable, Equatable, Sendable {
    var count = 0
}

final class UnreadCountStore: Store<UnreadCount>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    override class var handlers: Handlers {
        HandlerTable()
            .route(.receiveMessage, to: UnreadCountStore.recount)
            .route(.markAllRead, to: UnreadCountStore.recount)
    }

    func recount<Payload>(_ unread: inout UnreadCount, _ action: Action<Payload>) throws {
        let messages = try waitFor(MessageStore.self)  // its handler for this action has run
        unread.count = messages.state.all.count { !$0.isRead }
    }
}
// article-unread-end

// An asynchronous action creator, as the article's table describes it (not shown there).
/// Where new messages come from: a server, or a test's list.
protocol MessageSource: Sendable {
    func newMessages() async throws -> [String]
}

extension Dispatcher {
    /// An asynchronous action creator: fetches the new messages, then dispatches each.
    @discardableResult
    func fetchMessages(from source: some MessageSource) -> Task<Void, any Error> {
        dispatchTask { dispatcher in
            for text in try await source.newMessages() {
                try dispatcher.dispatch(.receiveMessage, payload: text)
            }
        }
    }
}
