import Fluxion
import Testing

/// The chat example of the "Threading and Re-entrancy" article, compiled and run as written there.
private enum ThreadingArticle {
    struct Composer: Sendable, Equatable { var draft = "Hi" }
    struct Messages: Sendable, Equatable {
        var isLoggedIn = false
        var sent: [String] = []
    }
    enum ChatError: Error { case notLoggedIn }

    final class ComposerStore: Store<Composer>, DefaultInitializable, @unchecked Sendable {
        init() { super.init(initialState: Composer()) }

        override class var handlers: HandlerTable<Composer> {
            HandlerTable().on(.send) { state, _ in state.draft = "" }
        }
    }

    final class MessagesStore: Store<Messages>, DefaultInitializable, @unchecked Sendable {
        init() { super.init(initialState: Messages()) }

        override class var handlers: HandlerTable<Messages> {
            HandlerTable()
                .on(.send) { state, action in
                    guard state.isLoggedIn else { throw ChatError.notLoggedIn }
                    state.sent.append(action.payload)
                }
                .on(.logIn) { state, _ in state.isLoggedIn = true }
        }
    }
}

extension ActionName where Payload == String {
    fileprivate static var send: Self { "articleSend" }
}

extension ActionName where Payload == Void {
    fileprivate static var logIn: Self { "articleLogIn" }
}

@Suite struct ThreadingArticleTests {
    @Test func aMessageRefusedWhileLoggedOutKeepsTheDraft() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(ThreadingArticle.ComposerStore.self)
        try dispatcher.register(ThreadingArticle.MessagesStore.self)
        let composer = try dispatcher.store(ThreadingArticle.ComposerStore.self)
        let messages = try dispatcher.store(ThreadingArticle.MessagesStore.self)

        #expect(throws: ThreadingArticle.ChatError.notLoggedIn) {
            try dispatcher.dispatch(.send, payload: "Hi")  // throws ChatError.notLoggedIn
        }
        // The draft is still there: the composer's change was rolled back with the action.
        let (draft, sent) = dispatcher.read {
            (composer.state.draft, messages.state.sent.count)
        }
        #expect(draft == "Hi" && sent == 0)

        try dispatcher.dispatch(.logIn)
        try dispatcher.dispatch(.send, payload: "Hi")
        #expect(dispatcher.read { (composer.state.draft, messages.state.sent) } == ("", ["Hi"]))
    }
}
