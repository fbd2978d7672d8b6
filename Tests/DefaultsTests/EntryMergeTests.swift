import Foundation
import Testing
import Defaults
import PropertyList

@Suite struct EntryMergeTests {
    static let key = "Entries"

    func perEntryStore(_ home: URL, rule: EntryMerge = .lastWriterWins) -> DefaultsStore {
        let store = makeStore(home)
        store.mergesPerEntry(Self.key, rule: rule)
        return store
    }

    func entries(_ store: DefaultsStore) -> [String: PropertyListValue] {
        if case .dictionary(let values)? = store.object(forKey: Self.key) { return values }
        return [:]
    }

    func setEntry(_ name: String, _ value: PropertyListValue?, in store: DefaultsStore) {
        var all = entries(store)
        all[name] = value
        store.set(all.isEmpty ? nil : .dictionary(all), forKey: Self.key)
    }

    @Test func twoStoresChangingDifferentEntriesOfOneKeyKeepBoth() throws {
        try withConfigHome { home in
            let first = perEntryStore(home)
            let second = perEntryStore(home)
            setEntry("a", "from first", in: first)
            setEntry("b", "from second", in: second)
            try first.flush()
            try second.flush()
            let expected: PropertyListValue = .dictionary(["a": "from first", "b": "from second"])
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == expected)
            #expect(second.object(forKey: Self.key) == expected)
            first.processExternalChanges()
            #expect(first.object(forKey: Self.key) == expected)
        }
    }

    @Test func withoutTheDeclarationTheLastWholeDictionaryWins() throws {
        // The behaviour per-entry saving exists to avoid, kept for keys that do not declare it.
        try withConfigHome { home in
            let first = makeStore(home)
            let second = makeStore(home)
            first.set(.dictionary(["a": "from first"]), forKey: Self.key)
            second.set(.dictionary(["b": "from second"]), forKey: Self.key)
            try first.flush()
            try second.flush()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["b": "from second"]))
        }
    }

    @Test func removingAnEntryRemovesOnlyThatOneAndTheLastEntryRemovesTheKey() throws {
        try withConfigHome { home in
            let first = perEntryStore(home)
            setEntry("a", 1, in: first)
            setEntry("b", 2, in: first)
            try first.flush()
            let second = perEntryStore(home)
            setEntry("a", nil, in: second)
            setEntry("c", 3, in: first)
            try second.flush()
            try first.flush()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["b": 2, "c": 3]))
            setEntry("b", nil, in: first)
            setEntry("c", nil, in: first)
            try first.flush()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == nil)
        }
    }

    @Test func theMergeDecidesAnEntryBothChangedAndSeesWhatEachHad() throws {
        try withConfigHome { home in
            let seen = Box()
            let rule = EntryMerge { base, mine, theirs in
                seen.calls.append([base, mine, theirs])
                return .string("merged")
            }
            let setup = perEntryStore(home)
            setEntry("a", "base", in: setup)
            try setup.flush()
            let first = perEntryStore(home, rule: rule)
            let second = perEntryStore(home, rule: rule)
            setEntry("a", "first", in: first)
            setEntry("a", "second", in: second)
            setEntry("a", "second, again", in: second)
            try first.flush()
            #expect(seen.calls.isEmpty, "nobody else changed it: no merge")
            try second.flush()
            #expect(seen.calls == [["base", "second, again", "first"]])
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["a": "merged"]))
        }
    }

    @Test func anEntryChangedToTheSameValueElsewhereIsNoConflict() throws {
        try withConfigHome { home in
            let rule = EntryMerge { _, _, _ in .string("should not be called") }
            let first = perEntryStore(home, rule: rule)
            let second = perEntryStore(home, rule: rule)
            setEntry("a", "same", in: first)
            setEntry("a", "same", in: second)
            try first.flush()
            try second.flush()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["a": "same"]))
        }
    }

    @Test func newestWinsByTheStampInTheValueWhicheverSavesLast() throws {
        try withConfigHome { home in
            func value(_ text: String, _ time: Double) -> PropertyListValue {
                var fields = EditStamp(time: time, device: "d").fields()
                fields["text"] = .string(text)
                return .dictionary(fields)
            }
            let rule = EntryMerge.newestWins { value in
                guard case .dictionary(let fields) = value else { return nil }
                return EditStamp(fields: fields)
            }
            let older = perEntryStore(home, rule: rule)
            let newer = perEntryStore(home, rule: rule)
            setEntry("book", value("newer", 200), in: newer)
            setEntry("book", value("older", 100), in: older)
            try newer.flush()
            try older.flush()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["book": value("newer", 200)]))
            #expect(older.object(forKey: Self.key) == .dictionary(["book": value("newer", 200)]))
        }
    }

    @Test func unsavedEntriesStayOnTopOfAReload() throws {
        try withConfigHome { home in
            let first = perEntryStore(home)
            let second = perEntryStore(home)
            setEntry("mine", "unsaved", in: first)
            setEntry("theirs", "saved", in: second)
            try second.flush()
            first.processExternalChanges()
            #expect(entries(first) == ["mine": "unsaved", "theirs": "saved"])
        }
    }

    @Test func aFileWrittenWholeStillLoadsAndIsMergedIntoEntryByEntry() throws {
        try withConfigHome { home in
            let old = makeStore(home)
            old.set(.dictionary(["a": 1, "b": 2]), forKey: Self.key)
            try old.flush()
            let first = perEntryStore(home)
            #expect(entries(first) == ["a": 1, "b": 2])
            let second = perEntryStore(home)
            setEntry("a", 10, in: first)
            setEntry("b", 20, in: second)
            try first.flush()
            try second.flush()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["a": 10, "b": 20]))
        }
    }

    @Test func aValueThatIsNotADictionaryIsSavedWhole() throws {
        try withConfigHome { home in
            let first = perEntryStore(home)
            setEntry("a", 1, in: first)
            try first.flush()
            first.set("not a dictionary", forKey: Self.key)
            try first.flush()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == "not a dictionary")
            setEntry("b", 2, in: first)
            try first.flush()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["b": 2]))
        }
    }

    @Test func saveNowWritesAtOnceWithoutWaitingForTheCoalescingDelay() throws {
        try withConfigHome { home in
            let store = perEntryStore(home)
            setEntry("a", 1, in: store)
            store.flushIfDue()
            #expect(FileManager.default.fileExists(atPath: defaultsFile(in: home).path) == false, "a coalesced change waits")
            try store.saveNow()
            #expect(try fileContents(defaultsFile(in: home))[Self.key] == .dictionary(["a": 1]))
            #expect(!store.hasUnsavedChanges)
        }
    }

    final class Box: @unchecked Sendable { var calls: [[PropertyListValue?]] = [] }
}

@Suite struct EditStampTests {
    @Test func stampsOrderByTimeThenDeviceAndReadBackFromTheirFields() {
        let early = EditStamp(time: 10, device: "b"), late = EditStamp(time: 11, device: "a")
        #expect(early < late)
        #expect(EditStamp(time: 10, device: "a") < early)
        #expect(EditStamp(fields: late.fields()) == late)
        #expect(EditStamp(fields: ["modified": .string("soon")]) == nil)
        #expect(EditStamp(fields: ["modified": .real(-1)]) == nil)
        #expect(EditStamp.zero < early)
    }

    @Test func aStampMadeAfterAnotherIsLaterEvenWhenThatOneIsInTheFuture() {
        let future = EditStamp(time: Date().timeIntervalSince1970 + 3600, device: "ahead")
        #expect(EditStamp.now(after: future) > future)
        let first = EditStamp.now(), second = EditStamp.now()
        #expect(first < second)
    }
}
