import Foundation
import Testing
import Defaults
import FileSafety
import PropertyList
import PropertyListTestSupport

/// Values the defaults file cannot hold (its XML form has no NaN date, no year 10000) are
/// refused where they come in, and left out, original kept, when a file from another tool
/// holds one: otherwise every later save would fail for ever.
@Suite struct UnstorableValueTests {
    static let nanDate = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: .nan))
    static let farFuture = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: 1e13))

    /// A binary plist holding a NaN date under WLWhen beside `others`, as a tool that writes any
    /// double as a date leaves it (our writers refuse to).
    func writeBinaryWithNaNDate(_ others: [String: PropertyListValue], to url: URL) throws -> Data {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = nanDatePlist(others)
        try data.write(to: url)
        return data
    }

    func asideFiles(_ home: URL) throws -> [URL] {
        let folder = defaultsFile(in: home).deletingLastPathComponent()
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("defaults.plist.corrupt-") }
            .sorted().map { folder.appendingPathComponent($0) }
    }

    /// By name: a NaN date cannot even be described (Foundation traps), so the test's
    /// arguments are names rather than values.
    static let unstorable: [String: (value: PropertyListValue, problem: String)] = [
        "NaN date": (nanDate, "the date is not a number (nan) at k"),
        "infinite date": (.date(Date(timeIntervalSinceReferenceDate: .infinity)), "the date is infinite (inf) at k"),
        "year 300000": (farFuture, "the date 10000000000000.0 seconds from 2001 lies outside years 0...9999 at k"),
        "nested NaN date": (.array([.string("fine"), .dictionary(["when": nanDate])]), "the date is not a number (nan) at k[1].when"),
        "huge UID": (.uid(.max), "the UID 18446744073709551615 does not fit a signed 64-bit integer at k"),
    ]

    @Test("what the file cannot hold is named in words, with where it is", arguments: unstorable.keys.sorted())
    func problems(_ name: String) throws {
        let (value, expected) = try #require(Self.unstorable[name])
        #expect(DefaultsStorability.problem(forKey: "k", value: value) == expected)
    }

    @Test func valuesTheFileHoldsHaveNoProblem() {
        for value: PropertyListValue in [.real(.nan), .real(-.infinity), .date(Date(timeIntervalSince1970: 0)), .string(""), .data(Data())] {
            #expect(DefaultsStorability.problem(forKey: "k", value: value) == nil)
        }
    }

    @Test func aNaNDateIsRefusedAtTheDoorAndEverythingElseStillSaves() throws {
        try withConfigHome { home in
            let store = makeStore(home)
            store.set(Self.nanDate, forKey: "WLWhen")
            store.set(Self.farFuture, forKey: "WLLater")
            store.set("kept", forKey: "title")
            #expect(store.persistentDomain == ["title": "kept"])
            #expect(store.takeStartupWarnings() == [
                "Not saved: the date is not a number (nan) at WLWhen, which the settings file cannot hold.",
                "Not saved: the date 10000000000000.0 seconds from 2001 lies outside years 0...9999 at WLLater, which the settings file cannot hold.",
            ])
            try store.flush()
            store.set(2, forKey: "HPMapType")
            try store.flush()
            #expect(try fileContents(defaultsFile(in: home)) == ["title": "kept", "HPMapType": 2])
        }
    }

    @Test func replacingTheWholeDomainLeavesOutOnlyTheBadKeys() throws {
        try withConfigHome { home in
            let store = makeStore(home)
            store.setPersistentDomain(["WLWhen": Self.nanDate, "title": "kept"])
            try store.flush()
            #expect(try fileContents(defaultsFile(in: home)) == ["title": "kept"])
            #expect(store.takeStartupWarnings().first?.contains("the date is not a number (nan) at WLWhen") == true)
        }
    }

    @Test func aFileHoldingANaNDateLoadsWithoutItKeepsTheOriginalAndSavesAgain() throws {
        try withConfigHome { home in
            let file = defaultsFile(in: home)
            let original = try writeBinaryWithNaNDate(["title": "kept", "HPMapType": 2], to: file)

            let store = makeStore(home)
            #expect(store.persistentDomain == ["title": "kept", "HPMapType": 2])
            let warnings = store.takeStartupWarnings()
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("the date is not a number (nan) at WLWhen") == true)
            // The original, byte for byte, beside the file; the file itself holds the rest, as XML.
            let aside = try asideFiles(home)
            #expect(aside.count == 1)
            #expect(try Data(contentsOf: aside[0]) == original)
            #expect(warnings.first?.contains(aside[0].path) == true)
            #expect(try fileContents(file) == ["title": "kept", "HPMapType": 2])
            #expect(String(decoding: try Data(contentsOf: file), as: UTF8.self).hasPrefix("<?xml"))

            store.set("again", forKey: "title")
            try store.flush()
            #expect(try fileContents(file) == ["title": "again", "HPMapType": 2])
            // Told once: the next store on the repaired file has nothing to say.
            #expect(makeStore(home).takeStartupWarnings().isEmpty)
            #expect(try asideFiles(home).count == 1)
        }
    }

    @Test func aNaNDateWrittenByAnotherToolWhileRunningIsSetAsideOnReload() throws {
        try withConfigHome { home in
            let file = defaultsFile(in: home)
            let store = makeStore(home, watch: true, inotify: false)
            store.set("mine", forKey: "title")
            try store.flush()
            let original = try writeBinaryWithNaNDate(["title": "theirs"], to: file)
            store.processExternalChanges()
            #expect(store.persistentDomain == ["title": "theirs"])
            #expect(try Data(contentsOf: try #require(try asideFiles(home).first)) == original)
            store.set(3, forKey: "HPMapType")
            try store.flush()
            #expect(try fileContents(file) == ["title": "theirs", "HPMapType": 3])
        }
    }

    @Test func aSaveThatFindsANaNDateOnDiskStillSucceeds() throws {
        try withConfigHome { home in
            let file = defaultsFile(in: home)
            let store = makeStore(home, watch: false)
            store.set("mine", forKey: "title")
            // Replaced behind the store's back, between its read and its save.
            let original = try writeBinaryWithNaNDate(["other": "theirs"], to: file)
            try store.flush()
            #expect(try fileContents(file) == ["title": "mine", "other": "theirs"])
            #expect(try Data(contentsOf: try #require(try asideFiles(home).first)) == original)
            #expect(store.takeStartupWarnings().contains { $0.contains("the date is not a number (nan) at WLWhen") })
        }
    }

    @Test func aFIFOInPlaceOfTheFileIsMovedAsideWithoutBlocking() throws {
        try withConfigHome { home in
            let file = defaultsFile(in: home)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            #expect(mkfifo(file.path, 0o600) == 0)
            let store = makeStore(home)
            #expect(store.persistentDomain.isEmpty)
            let warnings = store.takeStartupWarnings()
            #expect(warnings.first?.contains("could not be read (it is a FIFO (named pipe), not a regular file)") == true)
            var status = stat()
            #expect(lstat(try #require(try asideFiles(home).first).path, &status) == 0 && FileKind(mode: status.st_mode) == .fifo)
            store.set(1, forKey: "k")
            try store.flush()
            #expect(try fileContents(file) == ["k": 1])
        }
    }

    @Test func aHugeSparseFileIsMovedAsideUnread() throws {
        try withConfigHome { home in
            let file = defaultsFile(in: home)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let descriptor = open(file.path, O_WRONLY | O_CREAT, 0o600)
            #expect(ftruncate(descriptor, 3 << 30) == 0)
            close(descriptor)
            let store = makeStore(home)
            #expect(store.takeStartupWarnings().first?.contains("(it is 3 GB, more than the 16 MB allowed for a settings file)") == true)
            #expect(try asideFiles(home).count == 1)
        }
    }

    @Test func aSaveTooBigToReadBackIsRefusedAndThePreviousFileKept() throws {
        try withConfigHome { home in
            let store = makeStore(home, watch: false)
            store.set("small", forKey: "title")
            try store.flush()
            store.set(.data(Data(count: FileLimit.defaults.bytes)), forKey: "blob")
            #expect(throws: (any Error).self) { try store.flush() }
            #expect(try fileContents(defaultsFile(in: home)) == ["title": "small"])
        }
    }
}

/// `{ WLWhen = <date NaN>; …others }` as `bplist00`; `others` are short ASCII strings and
/// integers below 256.
func nanDatePlist(_ others: [String: PropertyListValue]) -> Data {
    let entries = [("WLWhen", [0x33] + CraftedBinary.bigEndian(Double.nan.bitPattern, size: 8))]
        + others.keys.sorted().map { key -> (String, [UInt8]) in
            switch others[key]! {
            case .string(let text): (key, [0x50 | UInt8(text.utf8.count)] + Array(text.utf8))
            case .integer(let number): (key, [0x10, UInt8(number)])
            default: preconditionFailure("only short strings and small integers")
            }
        }
    let count = entries.count
    let dictionary = [0xD0 | UInt8(count)] + (1 ... 2 * count).map { UInt8($0) }
    let keys = entries.map { [0x50 | UInt8($0.0.utf8.count)] + Array($0.0.utf8) }
    return CraftedBinary.file([dictionary] + keys + entries.map(\.1))
}
