import Fluxion
import Foundation
import Testing

@Suite struct UserDefaultsStateStorageTests {
    /// A defaults suite of its own, removed at the end of the test.
    private func withSuite(_ body: (UserDefaults) throws -> Void) throws {
        let name = "FluxionTests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: name))
        defer { defaults.removePersistentDomain(forName: name) }
        try body(defaults)
    }

    @Test func aSavedArchiveLoadsBackUnderThePrefixedKey() throws {
        try withSuite { defaults throws in
            let storage = UserDefaultsStateStorage(defaults: defaults, prefix: "app.")
            storage.save(Data("a".utf8), key: "notes")

            #expect(try storage.load(key: "notes") == Data("a".utf8))
            #expect(defaults.data(forKey: "app.notes") == Data("a".utf8))
            #expect(try storage.load(key: "other") == nil)
        }
    }

    @Test func settingAsideMovesTheValue() throws {
        try withSuite { defaults throws in
            let storage = UserDefaultsStateStorage(defaults: defaults)
            storage.save(Data("bad".utf8), key: "notes")

            let aside = storage.setAside(key: "notes", suffix: ".corrupt-X")

            #expect(aside == "Fluxion.notes.corrupt-X")
            #expect(defaults.data(forKey: "Fluxion.notes.corrupt-X") == Data("bad".utf8))
            #expect(try storage.load(key: "notes") == nil)
        }
    }

    @Test func aValueThatIsNotDataIsALoadErrorNamingTheKey() throws {
        try withSuite { defaults throws in
            defaults.set("a string", forKey: "Fluxion.notes")
            #expect {
                try UserDefaultsStateStorage(defaults: defaults).load(key: "notes")
            } throws: { error in
                guard case .fileOperationFailed(_, "Fluxion.notes", let reason)? = error as? PersistenceError else {
                    return false
                }
                return reason.contains("not Data")
            }
        }
    }

    @Test func aStoreRoundTripsThroughIt() throws {
        try withSuite { defaults throws in
            try roundTrip(through: UserDefaultsStateStorage(defaults: defaults))
        }
    }
}
