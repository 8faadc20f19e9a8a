import Fluxion

// A store with a forty-entry handler table that mixes every form of entry: closures with and without
// effects, closures given their store, and methods. `.ci/run` type-checks this file alone with
// `-warn-long-expression-type-checking=200 -warnings-as-errors`: a table of this size must type-check
// in well under a second (issue 35). The entries that are not closures on the state alone come last,
// where they cost the type checker the most; keep them there.

struct Document: Equatable, Sendable {
    var text = ""
    var cursor = 0
    var selection: Range<Int>?
    var zoom = 1.0
    var fontSize = 12
    var tags: [String] = []
    var drafts: [String] = []
    var isSaved = true
    var wordCount = 0
    var log: [String] = []
}

extension ActionName where Payload == String {
    static var insert: Self { "editorInsert" }
    static var replaceText: Self { "editorReplaceText" }
    static var addTag: Self { "editorAddTag" }
    static var removeTag: Self { "editorRemoveTag" }
    static var saveDraft: Self { "editorSaveDraft" }
    static var appendLine: Self { "editorAppendLine" }
    static var rename: Self { "editorRename" }
    static var note: Self { "editorNote" }
    static var share: Self { "editorShare" }
    static var lookUp: Self { "editorLookUp" }
    static var flag: Self { "editorFlag" }
    static var publish: Self { "editorPublish" }
}

extension ActionName where Payload == Int {
    static var moveCursor: Self { "editorMoveCursor" }
    static var moveCursorBy: Self { "editorMoveCursorBy" }
    static var setFontSize: Self { "editorSetFontSize" }
    static var growFont: Self { "editorGrowFont" }
    static var deleteBackward: Self { "editorDeleteBackward" }
    static var dropDraft: Self { "editorDropDraft" }
    static var selectFrom: Self { "editorSelectFrom" }
    static var countWords: Self { "editorCountWords" }
    static var autosave: Self { "editorAutosave" }
}

extension ActionName where Payload == Double {
    static var setZoom: Self { "editorSetZoom" }
    static var zoomBy: Self { "editorZoomBy" }
    static var zoomTo: Self { "editorZoomTo" }
}

extension ActionName where Payload == Void {
    static var selectAll: Self { "editorSelectAll" }
    static var clearSelection: Self { "editorClearSelection" }
    static var clearText: Self { "editorClearText" }
    static var resetZoom: Self { "editorResetZoom" }
    static var clearTags: Self { "editorClearTags" }
    static var markSaved: Self { "editorMarkSaved" }
    static var markEdited: Self { "editorMarkEdited" }
    static var clearLog: Self { "editorClearLog" }
    static var save: Self { "editorSave" }
    static var undoDraft: Self { "editorUndoDraft" }
    static var reload: Self { "editorReload" }
    static var spellCheck: Self { "editorSpellCheck" }
    static var revert: Self { "editorRevert" }
}

extension ActionName where Payload == [String] {
    static var setTags: Self { "editorSetTags" }
    static var restoreDrafts: Self { "editorRestoreDrafts" }
}

extension ActionName where Payload == Range<Int>? {
    static var select: Self { "editorSelect" }
}

/// Edits a document; its dependency, the spelling dictionary, is reached through the store.
final class EditorStore: Store<Document>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    let dictionary: Set<String> = ["fluxion", "store", "table"]

    init() { super.init(initialState: Document()) }

    override class var handlers: Handlers {
        HandlerTable()
            .on(.insert) { document, action in document.text += action.payload }
            .on(.moveCursor) { document, action in document.cursor = action.payload }
            .on(.moveCursorBy) { document, action in document.cursor += action.payload * 2 - 1 }
            .on(.setFontSize) { document, action in document.fontSize = max(8, min(72, action.payload)) }
            .on(.growFont) { document, action in document.fontSize += action.payload }
            .on(.setZoom) { document, action in document.zoom = action.payload }
            .on(.zoomBy) { document, action in document.zoom = document.zoom * action.payload + 0.5 }
            .on(.resetZoom) { document, _ in document.zoom = 1 }
            .on(.selectAll) { document, _ in document.selection = 0..<document.text.count }
            .on(.clearSelection) { document, _ in document.selection = nil }
            .on(.select) { document, action in document.selection = action.payload }
            .on(.selectFrom) { document, action in document.selection = action.payload..<document.text.count }
            .on(.replaceText) { document, action in document.text = action.payload + "" }
            .on(.clearText) { document, _ in document = Document() }
            .on(.addTag) { document, action in document.tags.append(action.payload) }
            .on(.removeTag) { document, action in document.tags.removeAll { $0 == action.payload } }
            .on(.setTags) { document, action in document.tags = action.payload.filter { !$0.isEmpty } }
            .on(.clearTags) { document, _ in document.tags.removeAll() }
            .on(.markSaved) { document, _ in document.isSaved = true }
            .on(.markEdited) { document, _ in document.isSaved.toggle() }
            .on(.appendLine) { document, action in document.text += "\n\(action.payload)" }
            .on(.dropDraft) { document, action in document.drafts.remove(at: action.payload) }
            .on(.restoreDrafts) { document, action in document.drafts += action.payload }
            .on(.countWords) { document, action in document.wordCount = document.wordCount * 0 + action.payload }
            .on(.clearLog) { document, _ in document.log = [] }
            .on(.deleteBackward) { document, action in document.text.removeLast(action.payload) }
            .on(.saveDraft, with: .effects) { document, action, effects in
                document.drafts.append(action.payload)
                effects.run { _ in }
            }
            .route(.undoDraft, to: EditorStore.undoDraft)
            .on(.rename, in: EditorStore.self, with: .effects) { store, document, action, effects in
                document.log.append(store.dictionary.contains(action.payload) ? action.payload : "?")
                effects.run { _ in }
            }
            .route(.save, to: EditorStore.save)
            .on(.autosave, with: .effects) { document, action, _ in document.isSaved = action.payload > 0 }
            .on(.lookUp, in: EditorStore.self) { store, document, action in
                document.log.append(String(store.dictionary.contains(action.payload.lowercased())))
            }
            .route(.reload, to: EditorStore.reload)
            .on(.zoomTo) { document, action in document.zoom = action.payload / 100 }
            .on(.share, in: EditorStore.self, with: .effects) { _, document, action, effects in
                document.log.append("share \(action.payload)")
                effects.run { _ in }
            }
            .route(.note, to: EditorStore.note)
            .on(.flag, with: .effects) { document, action, _ in document.tags.insert(action.payload, at: 0) }
            .on(.publish, in: EditorStore.self, with: .effects) { _, document, action, _ in
                document.log.append("publish \(action.payload)")
            }
            .on(.spellCheck, in: EditorStore.self) { store, document, _ in
                let words = document.text.split(separator: " ").map(String.init)
                document.wordCount = words.filter(store.dictionary.contains).count
            }
            .route(.revert, to: EditorStore.revert)
    }

    func undoDraft(_ document: inout Document, _ action: Action<Void>) throws {
        guard let draft = document.drafts.popLast() else { throw EditorError.noDraft }
        document.text = draft
    }

    func save(_ document: inout Document, _ action: Action<Void>, _ effects: Effects) {
        document.isSaved = true
        effects.run { _ in }
    }

    func reload(_ document: inout Document, _ action: Action<Void>) {
        document.log.append("reloaded")
    }

    func revert(_ document: inout Document, _ action: Action<Void>) throws {
        guard !document.isSaved else { return }
        document = Document()
    }

    func note(_ document: inout Document, _ action: Action<String>, _ effects: Effects) {
        document.log.append(action.payload)
    }
}

/// Why an editor action was refused.
enum EditorError: Error, Equatable {
    case noDraft
}
