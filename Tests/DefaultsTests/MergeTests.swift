import Foundation
import Testing
import Defaults
import PropertyList

@Suite struct MergeTests {
    @Test func twoStoresOnOneFileLoseNothingAndTheLastWriterWinsPerKey() throws {
        try withConfigHome { home in
            let first = makeStore(home)
            let second = makeStore(home)
            first.set("first", forKey: "a")
            first.set("first", forKey: "shared")
            second.set("second", forKey: "b")
            second.set("second", forKey: "shared")
            try first.flush()
            try second.flush()
            let expected: [String: PropertyListValue] = ["a": .string("first"), "b": .string("second"), "shared": .string("second")]
            #expect(try fileContents(defaultsFile(in: home)) == expected)
            #expect(second.persistentDomain == expected)
            first.processExternalChanges()
            #expect(first.persistentDomain == expected)
        }
    }

    @Test func removalsMergeToo() throws {
        try withConfigHome { home in
            let first = makeStore(home)
            first.set(1, forKey: "gone")
            first.set(1, forKey: "kept")
            try first.flush()
            let second = makeStore(home)
            second.removeObject(forKey: "gone")
            first.set(2, forKey: "new")
            try second.flush()
            try first.flush()
            #expect(try fileContents(defaultsFile(in: home)) == ["kept": .integer(1), "new": .integer(2)])
        }
    }

    @Test func unsavedLocalChangesStayOnTopOfExternalOnes() throws {
        try withConfigHome { home in
            let first = makeStore(home)
            let second = makeStore(home)
            first.set("mine", forKey: "k")
            second.set("theirs", forKey: "k")
            second.set("theirs", forKey: "other")
            try second.flush()
            first.processExternalChanges()
            #expect(first.string(forKey: "k") == "mine")
            #expect(first.string(forKey: "other") == "theirs")
        }
    }

    @Test(arguments: [true, false])
    func externalChangesAreNoticedAndNameExactlyTheChangedKeys(inotify: Bool) throws {
        try withConfigHome { home in
            let writer = makeStore(home)
            writer.set(1, forKey: "same")
            writer.set(1, forKey: "changed")
            writer.set(1, forKey: "removed")
            try writer.flush()
            let reader = makeStore(home, inotify: inotify)
            #expect(reader.wakeupFileDescriptor != nil || !inotify)
            let log = ChangeLog(reader)
            reader.processExternalChanges()
            #expect(log.batches.isEmpty)

            writer.set(1, forKey: "same")
            writer.set(2, forKey: "changed")
            writer.removeObject(forKey: "removed")
            writer.set(3, forKey: "added")
            try writer.flush()
            reader.processExternalChanges()
            #expect(log.batches == [["changed", "removed", "added"]])
            #expect(reader.integer(forKey: "changed") == 2)
            #expect(reader.object(forKey: "removed") == nil)

            reader.processExternalChanges()  // nothing new
            #expect(log.batches.count == 1)
        }
    }

    @Test func ownWritesAreNotReportedAsExternal() throws {
        try withConfigHome { home in
            let store = makeStore(home)
            let log = ChangeLog(store)
            store.set(1, forKey: "k")
            try store.flush()
            store.processExternalChanges()
            #expect(log.batches == [["k"]])
        }
    }

    @Test func changesHiddenByAHigherDomainAreNotReported() throws {
        try withConfigHome { home in
            let writer = makeStore(home)
            let reader = makeStore(home, arguments: ["k": .string("arg")])
            let log = ChangeLog(reader)
            writer.set(5, forKey: "k")
            try writer.flush()
            reader.processExternalChanges()
            #expect(log.batches.isEmpty)
            #expect(reader.persistentDomain["k"] == .integer(5))
        }
    }

    @Test func aFileBrokenWhileRunningIsMovedAsideAndRewrittenFromMemory() throws {
        try withConfigHome { home in
            let store = makeStore(home)
            store.set(1, forKey: "a")
            try store.flush()
            try Data("garbage".utf8).write(to: defaultsFile(in: home))
            store.processExternalChanges()
            #expect(store.integer(forKey: "a") == 1)
            #expect(store.takeStartupWarnings().count == 1)
            store.flushIfDue()
            #expect(try fileContents(defaultsFile(in: home)) == ["a": .integer(1)])
        }
    }
}
