import Foundation
import TestPrerequisites
import Testing
import Defaults
import KeyedArchive
import PropertyList

@Suite struct PersistenceTests {
    @Test func valuesSurviveANewStore() throws {
        try withConfigHome { home in
            let values: [String: PropertyListValue] = [
                "s": .string("Alice"), "i": .integer(-3), "r": .real(0.25), "b": .boolean(true),
                "d": .date(Date(timeIntervalSince1970: 1_700_000_000)), "data": .data(Data([0, 255])),
                "a": .array([.string("x"), .integer(1)]), "dict": .dictionary(["lat": .real(51.5)]),
            ]
            do {
                let store = makeStore(home)
                for (key, value) in values { store.set(value, forKey: key) }
                try store.flush()
            }
            let again = makeStore(home)
            #expect(again.persistentDomain == values)
            #expect(try fileContents(defaultsFile(in: home)) == values)
        }
    }

    @Test func theFileIs0600InA0700FolderAndXML() throws {
        try withConfigHome { home in
            let store = makeStore(home)
            store.set(1, forKey: "k")
            try store.flush()
            let file = defaultsFile(in: home)
            let fileMode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            let folderMode = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)[.posixPermissions] as? Int
            #expect(fileMode == 0o600)
            #expect(folderMode == 0o700)
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            #expect(text.hasPrefix("<?xml"))
            // Nothing but the file and its lock: no temporary files left behind.
            let names = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).sorted()
            #expect(names == ["defaults.plist", "defaults.plist.lock"])
        }
    }

    @Test(.requires(.python3)) func pythonsPlistlibReadsTheFile() throws {
        try withConfigHome { home in
            let store = makeStore(home)
            store.set(2, forKey: "HPMapType")
            store.set("Tea party", forKey: "title")
            try store.flush()
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            python.arguments = [
                "python3", "-c",
                "import plistlib,sys; d = plistlib.load(open(sys.argv[1], 'rb')); print(d['HPMapType'], d['title'])",
                defaultsFile(in: home).path,
            ]
            let out = Pipe()
            python.standardOutput = out
            try python.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            python.waitUntilExit()
            #expect(python.terminationStatus == 0)
            #expect(text == "2 Tea party\n")
        }
    }

    @Test func writesAreCoalescedUntilChangesSettle() throws {
        try withConfigHome { home in
            let clock = TestClock()
            let store = makeStore(home, clock: clock)
            let file = defaultsFile(in: home)
            store.set(1, forKey: "a")
            clock.now += 0.1
            store.set(2, forKey: "b")
            store.flushIfDue(now: clock.now + 0.1)
            #expect(!FileManager.default.fileExists(atPath: file.path))
            store.flushIfDue(now: clock.now + 0.5)
            let contents = try fileContents(file)
            #expect(contents == ["a": .integer(1), "b": .integer(2)])
            #expect(!store.hasUnsavedChanges)
        }
    }

    @Test func changesThatNeverSettleAreStillWritten() throws {
        try withConfigHome { home in
            let clock = TestClock()
            let store = makeStore(home, clock: clock)
            for step in 0 ..< 25 {
                store.set(step, forKey: "slider")
                clock.now += 0.1
                store.flushIfDue(now: clock.now)
            }
            let contents = try fileContents(defaultsFile(in: home))
            #expect(contents["slider"] != nil)
        }
    }

    @Test func aCorruptFileIsMovedAsideAndReportedOnce() throws {
        try withConfigHome { home in
            let file = defaultsFile(in: home)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("<plist><dict><key>oops".utf8).write(to: file)
            let store = makeStore(home)
            store.register(defaults: ["HPMapType": .integer(0)])
            #expect(store.integer(forKey: "HPMapType") == 0)
            #expect(store.persistentDomain.isEmpty)
            let warnings = store.takeStartupWarnings()
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("defaults.plist.corrupt-") == true)
            #expect(store.takeStartupWarnings().isEmpty)
            let folder = file.deletingLastPathComponent()
            let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("defaults.plist.corrupt-") }
            #expect(aside.count == 1)
            let kept = try Data(contentsOf: folder.appendingPathComponent(aside[0]))
            #expect(String(decoding: kept, as: UTF8.self) == "<plist><dict><key>oops")
            // The store goes on working and writes a good file.
            store.set(3, forKey: "HPMapType")
            try store.flush()
            #expect(try fileContents(file) == ["HPMapType": .integer(3)])
        }
    }

    @Test func temporariesOfDeadWritersAreRemovedAtStart() throws {
        try withConfigHome { home in
            let folder = defaultsFile(in: home).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // pid 2^22 + 1 is above Linux's pid_max, so no process can hold it.
            let dead = folder.appendingPathComponent(".defaults.plist.tmp-4194305-77")
            let live = folder.appendingPathComponent(".defaults.plist.tmp-\(getpid() == 1 ? 2 : 1)-5")
            try Data("half".utf8).write(to: dead)
            try Data("busy".utf8).write(to: live)
            _ = makeStore(home, watch: false)
            #expect(!FileManager.default.fileExists(atPath: dead.path))
            #expect(FileManager.default.fileExists(atPath: live.path))  // pid 1 (or 2) is alive
        }
    }

    @Test func aFileThatIsNotADictionaryCountsAsCorrupt() throws {
        try withConfigHome { home in
            let file = defaultsFile(in: home)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try PropertyListSerializer.data(from: .array([]), format: .binary).write(to: file)
            let store = makeStore(home, watch: false)
            #expect(store.takeStartupWarnings().count == 1)
        }
    }

    @Test func standardPathFollowsXDG() {
        #expect(DefaultsStore.standardFileURL(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/h"]).path
            == "/x/cfg/wonderland/defaults.plist")
        #expect(DefaultsStore.standardFileURL(environment: ["HOME": "/h"]).path == "/h/.config/wonderland/defaults.plist")
        #expect(DefaultsStore.standardFileURL(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]).path
            == "/h/.config/wonderland/defaults.plist")
    }
}

/// An archivable object for the tests.
final class Pin: KeyedArchivable {
    static let archiveClassName = "WLPin"
    var title = ""
    var latitude = 0.0

    init() {}

    func encode(with archiver: KeyedArchiver) throws {
        try archiver.encode(title, forKey: "title")
        archiver.encode(latitude, forKey: "lat")
    }

    func decode(from unarchiver: KeyedUnarchiver) throws {
        title = try unarchiver.decodeObject(of: String.self, forKey: "title") ?? ""
        latitude = try unarchiver.decodeDouble(forKey: "lat")
    }
}

final class Other: KeyedArchivable {
    static let archiveClassName = "WLOther"
    init() {}
    func encode(with archiver: KeyedArchiver) throws {}
    func decode(from unarchiver: KeyedUnarchiver) throws {}
}

@Suite struct ArchivedObjectTests {
    @Test func anArchivableObjectIsStoredAsDataAndComesBack() throws {
        try withConfigHome { home in
            do {
                let store = makeStore(home)
                let pin = Pin()
                pin.title = "Rabbit hole"
                pin.latitude = 51.75
                try store.setArchived(pin, forKey: "HPLocation")
                guard case .data = store.object(forKey: "HPLocation") else {
                    Issue.record("not stored as data")
                    return
                }
                try store.flush()
            }
            let store = makeStore(home)
            let pin = try #require(try store.archivedObject(of: Pin.self, forKey: "HPLocation"))
            #expect(pin.title == "Rabbit hole")
            #expect(pin.latitude == 51.75)
            #expect(try store.archivedObject(of: Pin.self, forKey: "missing") == nil)
            #expect(throws: (any Error).self) { try store.archivedObject(of: Other.self, forKey: "HPLocation") }
            store.set(1, forKey: "number")
            #expect(throws: (any Error).self) { try store.archivedObject(of: Pin.self, forKey: "number") }
            try store.setArchived(nil as Pin?, forKey: "HPLocation")
            #expect(store.object(forKey: "HPLocation") == nil)
        }
    }
}
