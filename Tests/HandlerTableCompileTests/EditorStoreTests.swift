import Fluxion
import Testing

/// The forty-entry table of `EditorStore.swift` works as it reads: a few of its entries of each form.
@Suite(.timeLimit(.minutes(10))) struct EditorStoreTests {
    @Test func closuresOfEachFormUpdateTheDocument() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(EditorStore.self)

        try dispatcher.dispatch(.insert, payload: "fluxion store")
        try dispatcher.dispatch(.setFontSize, payload: 100)
        try dispatcher.dispatch(.selectAll)
        try dispatcher.dispatch(.saveDraft, payload: "draft one")
        try dispatcher.dispatch(.lookUp, payload: "Table")
        try dispatcher.dispatch(.rename, payload: "missing")
        try dispatcher.dispatch(.spellCheck)

        let document = try dispatcher.store(EditorStore.self).state
        #expect(document.text == "fluxion store")
        #expect(document.fontSize == 72)
        #expect(document.selection == 0..<13)
        #expect(document.drafts == ["draft one"])
        #expect(document.log == ["true", "?"])
        #expect(document.wordCount == 2)
    }

    @Test func methodsRunOnTheStoreAndCanRejectTheAction() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(EditorStore.self)
        try dispatcher.dispatch(.saveDraft, payload: "draft one")
        try dispatcher.dispatch(.markEdited)

        try dispatcher.dispatch(.undoDraft)
        #expect(throws: EditorError.noDraft) { try dispatcher.dispatch(.undoDraft) }
        try dispatcher.dispatch(.save)
        try dispatcher.dispatch(.note, payload: "noted")

        let document = try dispatcher.store(EditorStore.self).state
        #expect(document.text == "draft one")
        #expect(document.isSaved)
        #expect(document.log == ["noted"])
    }
}
