import Foundation
import Testing

/// Real processes on one HOME's defaults file, through the `saved-fields` tool (built beside
/// the app): many instances saving different notes, bookmarks and places at once lose none;
/// a process killed with SIGKILL right after an "at once" save has it on disk.
@Suite("Saved fields across processes", .serialized, .whenEndToEndIsAskedFor)
struct SavedFieldsProcessTests {
    static let processes = 8
    static let edits = 50

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-saved-fields-\(getpid())-\(UUID().uuidString.prefix(8))")
    var file: String { folder.appendingPathComponent("defaults.plist").path }

    static func tool() throws -> String {
        let path = URL(fileURLWithPath: try TmuxSession.locateBinary()).deletingLastPathComponent().appendingPathComponent("saved-fields").path
        guard FileManager.default.isExecutableFile(atPath: path) else { throw E2EError("saved-fields not built beside the app at \(path)") }
        return path
    }

    /// Starts every worker, then waits for all: each reads the file, then all begin together.
    func runAtOnce(_ mode: String) throws {
        let tool = try Self.tool()
        let start = String(Date().timeIntervalSince1970 + 2)
        let children = try (0..<Self.processes).map { try ChildProcess(arguments: [tool, mode, file, String($0), String(Self.edits), start]) }
        for child in children {
            let status = child.wait()
            #expect(status == 0, "\(mode) worker: \(child.output)")
        }
    }

    func dump() throws -> [String] {
        let result = try Subprocess.run([try Self.tool(), "dump", file])
        guard result.status == 0 else { throw E2EError("dump failed: \(result.output)") }
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test("8 processes × 50 note saves on characters of their own: every character's last note is kept")
    func notes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try runAtOnce("notes")
        let lines = Set(try dump())
        var lost: [String] = []
        for worker in 0..<Self.processes {
            for character in 0..<10 {
                let last = (0..<Self.edits).last { $0 % 10 == character }!
                let expected = "note c\(worker)-\(character) worker \(worker) edit \(last)"
                if !lines.contains(expected) { lost.append(expected) }
            }
        }
        #expect(lost.isEmpty, "lost: \(lost.prefix(5))")
        #expect(lines.filter { $0.hasPrefix("note ") }.count == Self.processes * 10)
    }

    @Test("8 processes × 50 bookmarks added to one shared book: all 400 are kept")
    func bookmarks() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try runAtOnce("bookmarks")
        let line = try #require(try dump().first { $0.hasPrefix("bookmarks shared-book ") })
        let offsets = Set(line.dropFirst("bookmarks shared-book ".count).split(separator: ",").compactMap { Int($0) })
        let expected = Set((0..<Self.processes).flatMap { worker in (0..<Self.edits).map { worker * 100_000 + $0 } })
        #expect(expected.subtracting(offsets).isEmpty, "lost \(expected.subtracting(offsets).count) bookmarks")
        #expect(offsets == expected)
    }

    @Test("8 processes × 50 page turns, each in a book of its own: every book keeps its last place")
    func positions() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try runAtOnce("positions")
        let lines = Set(try dump())
        for worker in 0..<Self.processes {
            #expect(lines.contains("position book-\(worker) \((Self.edits - 1) * 10)"))
        }
    }

    @Test("8 processes making the collections database at once, 10 rounds: they share one, nothing is moved aside, no place lost")
    func makingTheDatabaseAtOnce() throws {
        let tool = try Self.tool()
        for round in 0..<10 {
            let home = folder.appendingPathComponent("round-\(round)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = home.appendingPathComponent("defaults.plist").path
            let start = String(Date().timeIntervalSince1970 + 0.5)
            let children = try (0..<Self.processes).map { try ChildProcess(arguments: [tool, "positions", file, String($0), "3", start]) }
            for child in children { #expect(child.wait() == 0, "worker: \(child.output)") }
            let lines = Set(try Subprocess.run([tool, "dump", file]).output.split(separator: "\n").map(String.init))
            for worker in 0..<Self.processes { #expect(lines.contains("position book-\(worker) 20"), "round \(round): \(lines)") }
            let names = try FileManager.default.contentsOfDirectory(atPath: home.path)
            #expect(!names.contains { $0.contains(".corrupt-") }, "round \(round): \(names)")
        }
    }

    @Test("kill -9 the moment an at-once save says saved: 100 tries, the value is on disk every time")
    func killedRightAfterSaving() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tool = try Self.tool()
        let kinds = ["pin", "map-type", "tracking", "note", "bookmark-add", "bookmark-delete"]
        var failures: [String] = []
        for attempt in 0..<100 {
            let kind = kinds[attempt % kinds.count]
            let value = attempt + 1
            if kind == "bookmark-delete" {
                // Something to delete, saved by a process that exits normally.
                let add = try ChildProcess(arguments: [tool, "save-and-wait", file, "bookmark-add", String(value)], readsOutput: true)
                _ = add.readLine()
                add.kill()
            }
            let child = try ChildProcess(arguments: [tool, "save-and-wait", file, kind, String(value)], readsOutput: true)
            let said = child.readLine()
            child.kill()
            guard said == "saved" else {
                failures.append("\(kind) \(value): the tool said \(said ?? "nothing")")
                continue
            }
            let lines = try dump()
            let expected: Bool
            switch kind {
            case "pin": expected = lines.contains("pin pin \(value)")
            case "map-type": expected = lines.contains("map-type \(value % 3)")
            case "tracking": expected = lines.contains("tracking \(value % 3)")
            case "note": expected = lines.contains("note alice note \(value)")
            case "bookmark-add": expected = Self.bookmarkOffsets(lines).contains(value)
            default: expected = !Self.bookmarkOffsets(lines).contains(value)
            }
            if !expected { failures.append("\(kind) \(value) lost; saved: \(lines)") }
        }
        #expect(failures.isEmpty, "\(failures.count) of 100 lost: \(failures.prefix(3))")
    }

    static func bookmarkOffsets(_ lines: [String]) -> Set<Int> {
        guard let line = lines.first(where: { $0.hasPrefix("bookmarks book ") }) else { return [] }
        return Set(line.dropFirst("bookmarks book ".count).split(separator: ",").compactMap { Int($0) })
    }
}

/// A child started with posix_spawn that this test waits for (or kills) itself; its output goes
/// to a pipe to read a line from, or to a file read at the end.
final class ChildProcess {
    let pid: pid_t
    private var reader: FileHandle?
    private let outputPath: String
    private var exitStatus: Int32?

    init(arguments: [String], readsOutput: Bool = false) throws {
        outputPath = NSTemporaryDirectory() + "wl-child-\(getpid())-\(UUID().uuidString).out"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pipeEnds: [Int32] = [-1, -1]
        if readsOutput {
            guard pipe(&pipeEnds) == 0 else { throw E2EError("pipe failed") }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        posix_spawn_file_actions_addopen(&actions, 2, outputPath + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, arguments[0], &actions, nil, &argv, environ)
        if readsOutput { close(pipeEnds[1]) }
        guard spawned == 0 else { throw E2EError("cannot start \(arguments[0]): error \(spawned)") }
        pid = child
        if readsOutput { reader = FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true) }
    }

    /// The first line the child writes; nil if it exits first.
    func readLine() -> String? {
        guard let reader else { return nil }
        var bytes = Data()
        while true {
            let byte = reader.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    func kill() {
        Glibc.kill(pid, SIGKILL)
        _ = wait()
    }

    @discardableResult
    func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let result = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitStatus = result
        return result
    }

    /// What the child wrote (standard output, then standard error).
    var output: String {
        let out = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: outputPath + ".err", encoding: .utf8)) ?? ""
        return out + err
    }

    deinit {
        unlink(outputPath)
        unlink(outputPath + ".err")
    }
}
