import Fluxion
import Foundation
import Testing

/// A value under a redacted key never reaches a journal file, by any route.
@Suite(.timeLimit(.minutes(10))) struct JournalRedactionTests {
    /// Records `body` into a file with `password` redacted, and returns the file's text and the hook's warnings.
    private func record(
        _ body: (Dispatcher) throws -> Void
    ) throws -> (text: String, records: [JournalRecord], warnings: [JournalError]) {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = Dispatcher()
        try dispatcher.register(VaultStore.self)
        try dispatcher.register(DiaryStore.self)
        let journal = try Journal(recording: dispatcher, writingTo: url, redactingKeys: ["password"])
        let warnings = LockedBox<[JournalError]>([])
        journal.onWriteError = { error in warnings.withValue { $0.append(error) } }
        try body(dispatcher)
        journal.stop()
        return (try String(contentsOf: url, encoding: .utf8), try Journal.records(contentsOf: url), warnings.value)
    }

    @Test func aWholeValueAddedToADictionaryOrAnArrayHasItsSecretsRedactedInTheDiff() throws {
        let (text, records, _) = try record { dispatcher in
            try dispatcher.dispatch(.addCredentials, payload: "ada")
        }

        #expect(!text.contains("S3CRET"))
        let diff = try #require(records.first?.changes.first?.diff)
        #expect(diff.contains(#"list[0]: + Credentials(password: ‹redacted›, pin: 4711)"#), "\(diff)")
        #expect(
            diff.contains(
                #"byName["ada"]: + Credentials(password: ‹redacted›, pin: 4711)"#),
            "\(diff)")
    }

    @Test func aWholeValueRemovedFromACollectionHasItsSecretsRedactedInTheDiff() throws {
        let (text, records, _) = try record { dispatcher in
            try dispatcher.dispatch(.addCredentials, payload: "ada")
            try dispatcher.dispatch(.dropCredentials, payload: "ada")
        }

        #expect(!text.contains("S3CRET"))
        let diff = try #require(records.last?.changes.first?.diff)
        #expect(diff.contains(#"list[0]: - Credentials(password: ‹redacted›, pin: 4711)"#), "\(diff)")
    }

    @Test func aDictionaryEntryUnderARedactedKeyIsRedacted() throws {
        let (text, records, _) = try record { dispatcher in
            try dispatcher.dispatch(.setPasswordSetting, payload: "x")
        }

        #expect(!text.contains("S3CRET"))
        let diff = try #require(records.first?.changes.first?.diff)
        #expect(diff == [#"settings["password"]: + ‹redacted›"#])
    }

    @Test func aPayloadThatIsNotCodableIsWrittenAsAPlaceholderAndDoesNotReplay() throws {
        let (text, records, _) = try record { dispatcher in
            try dispatcher.dispatch(.whisper, payload: Whisper(password: "S3CRET-whisper"))
        }

        #expect(!text.contains("S3CRET"))
        let step = try #require(records.first)
        #expect(step.action == "journalWhisper(‹not written: Whisper is not Codable›)")
        #expect(!step.isReplayable)
    }

    @Test func eachActionNameWhoseValueIsNotCodableIsWarnedOnceWhenFirstRecorded() throws {
        let (_, _, warnings) = try record { dispatcher in
            try dispatcher.dispatch(.whisper, payload: Whisper(password: "S3CRET-1"))
            try dispatcher.dispatch(.murmur, payload: Whisper(password: "S3CRET-2"))
            try dispatcher.dispatch(.whisper, payload: Whisper(password: "S3CRET-3"))
            try dispatcher.dispatch(.lockDiary, payload: "a")
            try dispatcher.dispatch(.lockDiary, payload: "b")
        }

        #expect(
            warnings == [
                .notRedactable(action: "journalWhisper", reason: "its payload, a Whisper, is not Codable"),
                .notRedactable(action: "journalMurmur", reason: "its payload, a Whisper, is not Codable"),
                .notRedactable(action: "journalLockDiary", reason: "the state of DiaryStore, a Diary, is not Codable"),
            ])
        #expect(warnings.allSatisfy { !"\($0)".contains("S3CRET") })
    }

    @Test func aStateThatIsNotCodableHasNoDiffWrittenAndDoesNotReplay() throws {
        let (text, records, _) = try record { dispatcher in
            try dispatcher.dispatch(.lockDiary, payload: "diary")
        }

        #expect(!text.contains("S3CRET"))
        let step = try #require(records.first)
        #expect(step.changes.first?.diff == ["‹not written: Diary is not Codable›"])
        #expect(!step.isReplayable)
    }

    @Test func anErrorCarryingASecretIsRedacted() throws {
        let (text, records, _) = try record { dispatcher in
            try dispatcher.dispatch(.addCredentials, payload: "ada", error: LockedOut(password: "S3CRET-error"))
        }

        #expect(!text.contains("S3CRET"))
        #expect(records.first?.error == "LockedOut(password: ‹redacted›)")
    }

    @Test func withoutRedactedKeysNonCodableValuesAreWrittenByTheirDescription() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = Dispatcher()
        try dispatcher.register(VaultStore.self)
        let journal = try Journal(recording: dispatcher, writingTo: url)

        try dispatcher.dispatch(.whisper, payload: Whisper(password: "open"))
        journal.stop()

        #expect(try Journal.records(contentsOf: url).first?.action == #"journalWhisper(Whisper(password: "open"))"#)
    }

    @Test func aFieldAPayloadsJSONLeavesOutIsStillRedactedInItsDescription() throws {
        let (text, records, _) = try record { dispatcher in
            try dispatcher.dispatch(.vaultLogIn, payload: Login(user: "ada", password: "S3CRET-login"))
        }

        #expect(!text.contains("S3CRET"))
        #expect(records.first?.action == "journalLogIn(‹redacted›)")
        #expect(records.first?.isReplayable == true)  // its JSON hid nothing
    }

    @Test(.timeLimit(.minutes(10)))
    func anEffectsErrorCarryingASecretIsRedacted() async throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = Dispatcher()
        dispatcher.onTaskError = { _ in }
        try dispatcher.register(VaultStore.self)
        let journal = try Journal(recording: dispatcher, writingTo: url, redactingKeys: ["password"])

        try dispatcher.dispatch(.unlockVault)
        await dispatcher.waitUntilDrained()
        journal.stop()

        #expect(!(try String(contentsOf: url, encoding: .utf8)).contains("S3CRET"))
        let effect = try #require(Journal.records(contentsOf: url).first?.effects.first)
        #expect(effect.outcome == .failed("LockedOut(password: ‹redacted›)"))
        #expect(journal.records.first?.effects.first?.outcome == .failed(#"LockedOut(password: "S3CRET-effect")"#))
    }
}
