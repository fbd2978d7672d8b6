import Foundation
import Testing
import Defaults
import PropertyList

// `wonderland defaults` end to end: the built binary ($WONDERLAND_BIN, or beside this test
// bundle), with XDG_CONFIG_HOME pointing at a temporary folder.

struct CommandRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

func wonderlandDefaults(_ home: URL, _ arguments: [String], stdin: Data? = nil) throws -> CommandRun {
    let binary: URL
    if let path = ProcessInfo.processInfo.environment["WONDERLAND_BIN"] {
        binary = URL(fileURLWithPath: path)
    } else {
        binary = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("wonderland")
    }
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no wonderland binary at \(binary.path)")
    let process = Process()
    process.executableURL = binary
    process.arguments = ["defaults"] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CONFIG_HOME"] = home.path
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return CommandRun(status: process.terminationStatus, stdout: stdout, stderr: stderr)
}

@Suite struct DefaultsCommandTests {
    @Test func writeThenReadPrintsOldStylePlistText() throws {
        try withConfigHome { home in
            #expect(try wonderlandDefaults(home, ["write", "HPMapType", "-int", "2"]).status == 0)
            let run = try wonderlandDefaults(home, ["read"])
            #expect(run.status == 0)
            #expect(run.stdout == "{\n    HPMapType = 2;\n}\n")
            #expect(try wonderlandDefaults(home, ["read", "HPMapType"]).stdout == "2\n")
        }
    }

    @Test func everyTypeFlagStoresItsType() throws {
        try withConfigHome { home in
            let writes: [[String]] = [
                ["s", "hello world"], ["str", "-string", "-x"], ["i", "-int", "-5"], ["neg", "--", "-5"],
                ["f", "-float", "2.5"], ["b", "-bool", "YES"], ["nb", "-bool", "false"],
                ["d", "-date", "2026-11-22T19:30:00Z"], ["bytes", "-data", "00ff10"],
                ["list", "-array", "a", "b c", "-int", "3"], ["map", "-dict", "k1", "v1", "k2", "-bool", "true"],
            ]
            for write in writes {
                let run = try wonderlandDefaults(home, ["write"] + write)
                #expect(run.status == 0, "write \(write): \(run.stderr)")
            }
            let contents = try fileContents(defaultsFile(in: home))
            #expect(contents == [
                "s": .string("hello world"), "str": .string("-x"), "i": .integer(-5), "neg": .string("-5"),
                "f": .real(2.5), "b": .boolean(true), "nb": .boolean(false),
                "d": .date(Date(timeIntervalSince1970: 1_795_375_800)), "bytes": .data(Data([0, 0xff, 0x10])),
                "list": .array([.string("a"), .string("b c"), .integer(3)]),
                "map": .dictionary(["k1": .string("v1"), "k2": .boolean(true)]),
            ])
            let expected = """
                {
                    b = 1;
                    bytes = {length = 3, bytes = 0x00ff10};
                    d = 2026-11-22 19:30:00 +0000;
                    f = 2.5;
                    i = -5;
                    list =     (
                        a,
                        "b c",
                        3
                    );
                    map =     {
                        k1 = v1;
                        k2 = 1;
                    };
                    nb = 0;
                    neg = -5;
                    s = "hello world";
                    str = -x;
                }

                """
            #expect(try wonderlandDefaults(home, ["read"]).stdout == expected)
            #expect(try wonderlandDefaults(home, ["read", "s"]).stdout == "hello world\n")
        }
    }

    @Test func arrayAddAndDictAddExtendTheSavedValue() throws {
        try withConfigHome { home in
            _ = try wonderlandDefaults(home, ["write", "l", "-array", "a"])
            _ = try wonderlandDefaults(home, ["write", "l", "-array-add", "b"])
            _ = try wonderlandDefaults(home, ["write", "m", "-dict", "x", "1"])
            _ = try wonderlandDefaults(home, ["write", "m", "-dict-add", "y", "2"])
            let contents = try fileContents(defaultsFile(in: home))
            #expect(contents["l"] == .array([.string("a"), .string("b")]))
            #expect(contents["m"] == .dictionary(["x": .string("1"), "y": .string("2")]))
        }
    }

    @Test func readTypeNamesTheTypeLikeMacOS() throws {
        try withConfigHome { home in
            _ = try wonderlandDefaults(home, ["write", "i", "-int", "1"])
            _ = try wonderlandDefaults(home, ["write", "f", "-float", "1"])
            _ = try wonderlandDefaults(home, ["write", "b", "-bool", "NO"])
            _ = try wonderlandDefaults(home, ["write", "s", "x"])
            _ = try wonderlandDefaults(home, ["write", "a", "-array"])
            _ = try wonderlandDefaults(home, ["write", "d", "-dict"])
            for (key, type) in [("i", "integer"), ("f", "float"), ("b", "boolean"), ("s", "string"), ("a", "array"), ("d", "dictionary")] {
                #expect(try wonderlandDefaults(home, ["read-type", key]).stdout == "Type is \(type)\n")
            }
        }
    }

    @Test func missingKeysAndBadValuesFailWithAMessage() throws {
        try withConfigHome { home in
            let empty = try wonderlandDefaults(home, ["read"])
            #expect(empty.status == 1)
            #expect(empty.stderr == "Domain wonderland does not exist\n")
            let missing = try wonderlandDefaults(home, ["read", "Nope"])
            #expect(missing.status == 1)
            #expect(missing.stderr == "The domain/default pair of (wonderland, Nope) does not exist\n")
            #expect(try wonderlandDefaults(home, ["read-type", "Nope"]).status == 1)
            #expect(try wonderlandDefaults(home, ["delete", "Nope"]).status == 1)
            for bad in [["k", "-int", "abc"], ["k", "-bool", "maybe"], ["k", "-data", "0"], ["k", "-float"], ["k"], ["k", "a", "b"], ["k", "-nope", "1"]] {
                let run = try wonderlandDefaults(home, ["write"] + bad)
                #expect(run.status != 0, "write \(bad) should fail")
                #expect(!run.stderr.isEmpty)
            }
            #expect(!FileManager.default.fileExists(atPath: defaultsFile(in: home).path))
        }
    }

    @Test func deleteRemovesOneKeyOrAll() throws {
        try withConfigHome { home in
            _ = try wonderlandDefaults(home, ["write", "a", "1"])
            _ = try wonderlandDefaults(home, ["write", "b", "2"])
            #expect(try wonderlandDefaults(home, ["delete", "a"]).status == 0)
            #expect(try fileContents(defaultsFile(in: home)) == ["b": .string("2")])
            #expect(try wonderlandDefaults(home, ["delete"]).status == 0)
            #expect(try fileContents(defaultsFile(in: home)) == [:])
            #expect(try wonderlandDefaults(home, ["delete"]).status == 1)
        }
    }

    @Test func exportAndImportRoundTripThroughFilesAndPipes() throws {
        try withConfigHome { home in
            _ = try wonderlandDefaults(home, ["write", "HPMapType", "-int", "2"])
            _ = try wonderlandDefaults(home, ["write", "title", "Tea"])
            let exported = try wonderlandDefaults(home, ["export", "-"])
            #expect(exported.status == 0)
            #expect(exported.stdout.hasPrefix("<?xml"))
            let file = home.appendingPathComponent("out.plist")
            #expect(try wonderlandDefaults(home, ["export", file.path]).status == 0)
            #expect(try fileContents(file) == ["HPMapType": .integer(2), "title": .string("Tea")])

            // Import replaces the domain; binary plists are accepted.
            let binary = try PropertyListSerializer.data(from: .dictionary(["only": .boolean(true)]), format: .binary)
            #expect(try wonderlandDefaults(home, ["import", "-"], stdin: binary).status == 0)
            #expect(try fileContents(defaultsFile(in: home)) == ["only": .boolean(true)])
            #expect(try wonderlandDefaults(home, ["import", file.path]).status == 0)
            #expect(try fileContents(defaultsFile(in: home)) == ["HPMapType": .integer(2), "title": .string("Tea")])

            let bad = try wonderlandDefaults(home, ["import", "-"], stdin: Data("nope".utf8))
            #expect(bad.status == 1)
            let array = try PropertyListSerializer.data(from: .array([]), format: .xml)
            #expect(try wonderlandDefaults(home, ["import", "-"], stdin: array).status == 1)
            #expect(try wonderlandDefaults(home, ["import", home.appendingPathComponent("none").path]).status == 1)
        }
    }

    @Test func aRunningStoreSeesTheCommandsWrite() throws {
        try withConfigHome { home in
            let store = makeStore(home)
            let log = ChangeLog(store)
            _ = try wonderlandDefaults(home, ["write", "HPMapType", "-int", "3"])
            store.processExternalChanges()
            #expect(log.batches == [["HPMapType"]])
            #expect(store.integer(forKey: "HPMapType") == 3)
        }
    }

    @Test func aCorruptFileIsReportedOnStderrAndKept() throws {
        try withConfigHome { home in
            let file = defaultsFile(in: home)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("broken".utf8).write(to: file)
            let run = try wonderlandDefaults(home, ["write", "k", "v"])
            #expect(run.status == 0)
            #expect(run.stderr.contains("defaults.plist.corrupt-"))
            #expect(try fileContents(file) == ["k": .string("v")])
            let names = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
            #expect(names.contains { $0.hasPrefix("defaults.plist.corrupt-") })
        }
    }
}

@Suite struct ConcurrentWriterTests {
    @Test func commandsWritingAtOnceLoseNothing() throws {
        try withConfigHome { home in
            let store = makeStore(home)
            store.set("app", forKey: "fromTheApp")
            // Four shells each write five keys while the app's change is still unsaved.
            let group = DispatchGroup()
            let failures = Failures()
            for writer in 0 ..< 4 {
                DispatchQueue.global().async(group: group) {
                    for step in 0 ..< 5 {
                        let status = (try? wonderlandDefaults(home, ["write", "w\(writer)-\(step)", "-int", "\(step)"]).status) ?? -1
                        if status != 0 { failures.add() }
                    }
                }
            }
            group.wait()
            try store.flush()
            #expect(failures.count == 0)
            let contents = try fileContents(defaultsFile(in: home))
            #expect(contents.count == 21)
            #expect(contents["fromTheApp"] == .string("app"))
            #expect(contents["w3-4"] == .integer(4))
        }
    }

    @Test func aDeletedFileReportsItsKeysAsRemoved() throws {
        try withConfigHome { home in
            let store = makeStore(home)
            store.set(1, forKey: "a")
            try store.flush()
            let log = ChangeLog(store)
            try FileManager.default.removeItem(at: defaultsFile(in: home))
            store.processExternalChanges()
            #expect(log.batches == [["a"]])
            #expect(store.object(forKey: "a") == nil)
        }
    }
}

/// A counter the writer threads share.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.lock(); value += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
}
