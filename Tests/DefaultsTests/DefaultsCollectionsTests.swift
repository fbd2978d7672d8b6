import Foundation
import Testing
import Defaults
import PropertyList
import SavedCollections

/// The stores the app makes: dictionaries declared with `mergesPerEntry` kept one row per
/// entry in the collections database beside the defaults file.
@Suite struct DefaultsCollectionsTests {
    static let key = "Entries"

    func collectionsPath(_ home: URL) -> String { home.appendingPathComponent("data/collections/collections.sqlite").path }

    func appStore(_ home: URL, clock: TestClock = TestClock(), rule: EntryMerge = .lastWriterWins, declare: Bool = true) -> DefaultsStore {
        let store = DefaultsStore.standard(
            environment: ["XDG_CONFIG_HOME": home.path],
            options: .init(safetyPollInterval: 1e9, clock: { clock.now }, collectionsPath: collectionsPath(home)))
        if declare { store.mergesPerEntry(Self.key, rule: rule) }
        return store
    }

    @Test func entriesAreSavedOutsideTheDefaultsFile() throws {
        try withConfigHome { home in
            let store = appStore(home)
            store.set("a note", forKey: Self.key, entry: "alice")
            store.set("light", forKey: "Theme")
            try store.saveNow()
            let file = try fileContents(defaultsFile(in: home))
            #expect(file["Theme"] == "light")
            #expect(file[Self.key] == nil)
            let again = appStore(home)
            #expect(again.object(forKey: Self.key, entry: "alice") == "a note")
            #expect(again.object(forKey: Self.key) == .dictionary(["alice": "a note"]))
        }
    }

    @Test func theVersionThatSavedIsWrittenIntoTheFileAndTheDatabase() throws {
        try withConfigHome { home in
            var options = DefaultsStore.Options(safetyPollInterval: 1e9, collectionsPath: collectionsPath(home))
            options.writtenBy = "9.8.7"
            let store = DefaultsStore.standard(environment: ["XDG_CONFIG_HOME": home.path], options: options)
            store.mergesPerEntry(Self.key, rule: .lastWriterWins)
            store.set("light", forKey: "Theme")
            store.set("a note", forKey: Self.key, entry: "alice")
            try store.saveNow()
            #expect(try fileContents(defaultsFile(in: home))[DefaultsStore.writtenByKey] == "9.8.7")
            let database = try CollectionDatabase(path: collectionsPath(home), readOnly: true)
            #expect(try database.writers().map(\.version) == ["9.8.7"])
        }
    }

    // MARK: a copy for older releases

    /// Notes as a release before the database kept them: text alone, where this one keeps
    /// `{text, others}`.
    static let copied = EntryMerge.lastWriterWins.keepingCopy(OlderReleaseCopy(
        down: { value in
            if case .dictionary(let fields) = value, case .string(let text)? = fields["text"] { return .string(text) }
            return value
        },
        up: { value, _ in value }))

    @Test func aCollectionWithACopyKeepsItInTheFileForOlderReleases() throws {
        try withConfigHome { home in
            let store = appStore(home, rule: Self.copied)
            store.set(.dictionary(["text": "newest", "others": .array(["older"])]), forKey: Self.key, entry: "alice")
            try store.flush()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["alice": "newest"]))
            // A relaunch of this release changes nothing: the copy is what it wrote.
            let again = appStore(home, rule: Self.copied)
            #expect(again.object(forKey: Self.key, entry: "alice") == .dictionary(["text": "newest", "others": .array(["older"])]))
            #expect(!again.hasUnsavedChanges)
        }
    }

    @Test func whatAnOlderReleaseChangesInTheCopyIsMovedInAndTheRestStays() throws {
        try withConfigHome { home in
            let store = appStore(home, rule: Self.copied)
            store.set("first", forKey: Self.key, entry: "alice")
            store.set("kept", forKey: Self.key, entry: "bob")
            try store.flush()
            // The older release edits alice's entry and writes the file back.
            var file = try fileContents(defaultsFile(in: home))
            file[Self.key] = .dictionary(["alice": "edited there", "bob": "kept", "carol": "new there"])
            try writeDefaultsFile(file, in: home)
            let again = appStore(home, rule: Self.copied)
            #expect(again.object(forKey: Self.key) == .dictionary(["alice": "edited there", "bob": "kept", "carol": "new there"]))
            try again.flush()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["alice": "edited there", "bob": "kept", "carol": "new there"]))
        }
    }

    @Test func anOlderReleasesEditOfWhatItWasShownStandsAsTheSameEditHereWould() throws {
        try withConfigHome { home in
            // The older release is shown a note saved two ways as its text alone, and edits it.
            let store = appStore(home, rule: Self.copied)
            store.set(.dictionary(["text": "newest", "others": .array(["older"])]), forKey: Self.key, entry: "alice")
            try store.flush()
            var file = try fileContents(defaultsFile(in: home))
            file[Self.key] = .dictionary(["alice": "newest, edited there"])
            try writeDefaultsFile(file, in: home)
            let again = appStore(home, rule: Self.copied)
            #expect(again.object(forKey: Self.key, entry: "alice") == "newest, edited there", "not a conflict: nothing changed here since")
        }
    }

    @Test func aSettingsFileCopiedFromAnotherMachineBringsItsCollectionsIn() throws {
        try withConfigHome { first in
            try withConfigHome { second in
                let store = appStore(first, rule: Self.copied)
                store.set("from the other machine", forKey: Self.key, entry: "alice")
                try store.flush()
                try FileManager.default.createDirectory(at: defaultsFile(in: second).deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: defaultsFile(in: first), to: defaultsFile(in: second))
                // Its marks are the other database's: here they mark nothing.
                let here = appStore(second, rule: Self.copied)
                #expect(here.object(forKey: Self.key, entry: "alice") == "from the other machine")
            }
        }
    }

    @Test func aCopyWithNothingThatFitsIsMadeOnceNotAtEveryLaunch() throws {
        try withConfigHome { home in
            let store = appStore(home, rule: Self.copied)
            store.set(.string(String(repeating: "x", count: OlderReleaseCopy.maximumBytes + 1)), forKey: Self.key, entry: "alice")
            try store.flush()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary([:]), "made, and empty: the note does not fit")
            let again = appStore(home, rule: Self.copied)
            #expect(!again.hasUnsavedChanges, "the next launch does not make it again")
        }
    }

    @Test func theFirstLaunchWithACopyWritesItAndACollectionWithoutOneLeavesTheFile() throws {
        try withConfigHome { home in
            let plain = appStore(home)
            plain.set("a note", forKey: Self.key, entry: "alice")
            try plain.saveNow()
            #expect(!FileManager.default.fileExists(atPath: defaultsFile(in: home).path))
            let copying = appStore(home, rule: Self.copied)
            #expect(copying.hasUnsavedChanges, "the copy is due")
            try copying.flush()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["alice": "a note"]))
        }
    }

    @Test func theCopyWaitsForQuittingOrTenMinutesWhileSavesTheUserWaitsForWriteTheirRowsAlone() throws {
        try withConfigHome { home in
            let clock = TestClock()
            let store = appStore(home, clock: clock, rule: Self.copied)
            store.set("page 1", forKey: Self.key, entry: "book")
            try store.flush()
            let stamp = { try FileManager.default.attributesOfItem(atPath: defaultsFile(in: home).path)[.modificationDate] as? Date }
            let written = try stamp()
            clock.now += 1
            store.set("page 2", forKey: Self.key, entry: "book")
            try store.saveNow()
            clock.now += 1
            store.flushIfDue()
            #expect(try stamp() == written, "a save the user waits for, and an idle one within the interval, leave the file alone")
            #expect(store.hasUnsavedChanges, "the copy is still due")
            #expect(store.nextDeadline ?? 0 >= 1000 + 600 - 1)
            let other = appStore(home, clock: clock, rule: Self.copied)
            #expect(other.object(forKey: Self.key, entry: "book") == "page 2", "the database has it; the older copy is not taken for news")
            clock.now += 700
            store.flushIfDue()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["book": "page 2"]))
        }
    }

    @Test func anOlderReleasesEditOfAStaleCopyIsStillMovedIn() throws {
        try withConfigHome { home in
            let clock = TestClock()
            let store = appStore(home, clock: clock, rule: Self.copied)
            store.set("v1", forKey: Self.key, entry: "alice")
            try store.flush()
            clock.now += 1
            store.set("v2", forKey: Self.key, entry: "alice")
            clock.now += 1
            store.flushIfDue()  // the database has v2, the file's copy still v1
            var file = try fileContents(defaultsFile(in: home))
            file[Self.key] = .dictionary(["alice": "edited there"])
            try writeDefaultsFile(file, in: home)
            let again = appStore(home, clock: clock, rule: Self.copied)
            #expect(again.object(forKey: Self.key, entry: "alice") == "edited there")
        }
    }

    @Test func aSaveOfOneEntryLeavesTheDefaultsFileAlone() throws {
        try withConfigHome { home in
            let store = appStore(home)
            store.set("light", forKey: "Theme")
            try store.saveNow()
            let before = try FileManager.default.attributesOfItem(atPath: defaultsFile(in: home).path)[.modificationDate] as? Date
            let inode = try FileManager.default.attributesOfItem(atPath: defaultsFile(in: home).path)[.systemFileNumber] as? Int
            store.set("page 4", forKey: Self.key, entry: "book")
            try store.saveNow()
            #expect(try FileManager.default.attributesOfItem(atPath: defaultsFile(in: home).path)[.systemFileNumber] as? Int == inode)
            #expect(try FileManager.default.attributesOfItem(atPath: defaultsFile(in: home).path)[.modificationDate] as? Date == before)
        }
    }

    @Test func twoStoresKeepEachOthersEntriesAndHearOfThem() throws {
        try withConfigHome { home in
            let first = appStore(home)
            let second = appStore(home)
            #expect(first.object(forKey: Self.key, entry: "b") == nil)
            let log = ChangeLog(first)
            first.set("from first", forKey: Self.key, entry: "a")
            try first.saveNow()
            second.set("from second", forKey: Self.key, entry: "b")
            try second.saveNow()
            first.processExternalChanges()
            #expect(log.all.contains(Self.key))
            #expect(first.object(forKey: Self.key, entry: "b") == "from second")
            #expect(second.object(forKey: Self.key) == .dictionary(["a": "from first", "b": "from second"]))
        }
    }

    @Test func theSameEntryChangedInTwoStoresIsSettledByItsMerge() throws {
        try withConfigHome { home in
            let both = EntryMerge { _, mine, theirs in
                guard case .string(let a)? = mine, case .string(let b)? = theirs else { return mine ?? theirs }
                return .string(b + "+" + a)
            }
            let first = appStore(home, rule: both)
            let second = appStore(home, rule: both)
            _ = first.object(forKey: Self.key, entry: "n")
            _ = second.object(forKey: Self.key, entry: "n")
            first.set("one", forKey: Self.key, entry: "n")
            second.set("two", forKey: Self.key, entry: "n")
            try first.saveNow()
            try second.saveNow()
            #expect(second.object(forKey: Self.key, entry: "n") == "one+two")
            first.processExternalChanges()
            #expect(first.object(forKey: Self.key, entry: "n") == "one+two")
        }
    }

    @Test func unsavedChangesStayOnTopOfOthersSaves() throws {
        try withConfigHome { home in
            let first = appStore(home)
            let second = appStore(home)
            _ = first.object(forKey: Self.key, entry: "n")
            first.set("mine, not yet saved", forKey: Self.key, entry: "n")
            second.set("theirs", forKey: Self.key, entry: "n")
            try second.saveNow()
            first.processExternalChanges()
            #expect(first.object(forKey: Self.key, entry: "n") == "mine, not yet saved")
            try first.saveNow()
            #expect(appStore(home).object(forKey: Self.key, entry: "n") == "mine, not yet saved")
        }
    }

    @Test func aCollectionInTheDefaultsFileMovesInAndLeavesTheFileOnlyThen() throws {
        try withConfigHome { home in
            let file = defaultsFile(in: home)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let old: [String: PropertyListValue] = [Self.key: .dictionary(["a": "kept", "b": "also"]), "Theme": "dark"]
            try PropertyListSerializer.data(from: .dictionary(old), format: .xml).write(to: file)
            let store = appStore(home)
            #expect(store.object(forKey: Self.key, entry: "a") == "kept")
            // Until saved, the file still holds them.
            #expect(try fileContents(file)[Self.key] != nil)
            try store.saveNow()
            #expect(try fileContents(file)[Self.key] == nil)
            #expect(try fileContents(file)["Theme"] == "dark")
            #expect(appStore(home).object(forKey: Self.key) == .dictionary(["a": "kept", "b": "also"]))
        }
    }

    @Test func aMoveKilledBeforeTheFileIsRewrittenIsDoneAgainWithoutHarm() throws {
        try withConfigHome { home in
            let file = defaultsFile(in: home)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try PropertyListSerializer.data(from: .dictionary([Self.key: .dictionary(["a": "one"])]), format: .xml).write(to: file)
            do {
                let store = appStore(home)
                store.set("two, edited after the move", forKey: Self.key, entry: "a")
                // Saved in the database, but the process dies before the file is rewritten.
                store.set(nil, forKey: "nothing")
                _ = store
            }
            try PropertyListSerializer.data(from: .dictionary([Self.key: .dictionary(["a": "one"])]), format: .xml).write(to: file)
            let store = appStore(home)
            #expect(store.object(forKey: Self.key, entry: "a") == "two, edited after the move")
        }
    }

    @Test func whatAnOlderVersionWritesIntoTheFileLaterIsMergedIn() throws {
        try withConfigHome { home in
            let both = EntryMerge { _, mine, theirs in
                guard case .string(let a)? = mine, case .string(let b)? = theirs else { return mine ?? theirs }
                return .string(b + "+" + a)
            }
            let store = appStore(home, rule: both)
            store.set("newer's", forKey: Self.key, entry: "a")
            try store.saveNow()
            // An older version, which knows only the file, writes an entry there.
            let older = DefaultsStore.standard(environment: ["XDG_CONFIG_HOME": home.path], options: .init(safetyPollInterval: 1e9))
            older.mergesPerEntry(Self.key, rule: .lastWriterWins)
            older.set(.dictionary(["a": "older's", "c": "new from older"]), forKey: Self.key)
            try older.saveNow()
            store.processExternalChanges()
            #expect(store.object(forKey: Self.key, entry: "a") == "newer's+older's")
            #expect(store.object(forKey: Self.key, entry: "c") == "new from older")
            try store.saveNow()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == nil)
        }
    }

    @Test func aStoreWithoutDeclarationsNeverMakesTheDatabase() throws {
        try withConfigHome { home in
            let store = appStore(home, declare: false)
            store.set("light", forKey: "Theme")
            try store.saveNow()
            #expect(!FileManager.default.fileExists(atPath: collectionsPath(home)))
        }
    }

    @Test func anUnusableDatabaseKeepsTheCollectionsInTheFileAndSaysSo() throws {
        try withConfigHome { home in
            let path = collectionsPath(home)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)  // a folder where the file goes
            let store = appStore(home)
            #expect(store.takeStartupWarnings().contains { $0.contains("kept in") })
            store.set("still saved", forKey: Self.key, entry: "a")
            try store.saveNow()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["a": "still saved"]))
        }
    }

    @Test func coalescedChangesWaitForTheDelayAndThenSave() throws {
        try withConfigHome { home in
            let clock = TestClock()
            let store = appStore(home, clock: clock)
            store.set("p1", forKey: Self.key, entry: "book")
            #expect(store.hasUnsavedChanges)
            #expect(store.nextDeadline == clock.now + 0.3)
            store.flushIfDue(now: clock.now + 0.1)
            #expect(store.hasUnsavedChanges)
            store.flushIfDue(now: clock.now + 0.4)
            #expect(!store.hasUnsavedChanges)
            #expect(appStore(home).object(forKey: Self.key, entry: "book") == "p1")
        }
    }
}
