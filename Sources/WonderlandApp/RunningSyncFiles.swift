import FileSafety
import FoundationEssentials
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// What a running app knows of its sync: whether its last attempt reached the store, when it
/// last synced, why it is offline. `wonderland cloud status` reads it, so a machine whose app is
/// connected is told so without a server connection of its own (which a full server refuses).
public struct RunningSyncState: Codable, Equatable, Sendable {
    /// The file's layout; a reader takes only this one.
    public static let currentFormat = 1
    /// Seconds a newer last sync alone waits before the file is written again.
    public static let refreshInterval = 60.0

    /// The layout this state was written in (`currentFormat` for one made here).
    public var format: Int
    /// The app's process.
    public var pid: Int32
    /// The folder or server address it syncs through, without a password.
    public var address: String
    /// Whether it syncs through a server (rather than a folder).
    public var isServer: Bool
    /// Nil until its first attempt finished; then whether the last one reached the store.
    public var reached: Bool?
    /// Seconds since 1970 of its last sync that reached the store.
    public var lastSync: Double?
    /// Why it is offline, when it is (redacted, as its tab bar shows it).
    public var problem: String?

    /// A state in the current format.
    public init(pid: Int32, address: String, isServer: Bool, reached: Bool?, lastSync: Double?, problem: String?) {
        format = Self.currentFormat
        self.pid = pid
        self.address = address
        self.isServer = isServer
        self.reached = reached
        self.lastSync = lastSync
        self.problem = problem
    }

    /// One line for `cloud status`: "Running app (pid 812): reached the server, last recorded 3 s ago",
    /// "… offline: the server is full: …", "… connecting". Every text from the file is made
    /// visible (no control characters) by the caller's `sanitize`.
    public func line(now: Double, sanitize: (String) -> String = { $0 }) -> String {
        let what = isServer ? "the server" : "the folder"
        let state: String
        switch reached {
        case nil:
            state = "connecting to \(what)"
        case true?:
            // Recorded once a minute while nothing else changes: the app may have synced since.
            state = "reached \(what)" + (lastSync.map { ", last recorded " + Self.ago(now - $0) } ?? "")
        case false?:
            state = "offline: " + sanitize(problem ?? "unknown reason")
                + (lastSync.map { " (last reached \(what) \(Self.ago(now - $0)))" } ?? "")
        }
        return "Running app (pid \(pid)): \(state) · \(sanitize(address))"
    }

    /// Whether this differs from `written` only by a last sync less than `refreshInterval`
    /// later, which is not worth writing: a device that polls syncs every half second, and
    /// the file, written anew and renamed into place each time, would cost more than it tells.
    public func isOnlyALaterSync(than written: RunningSyncState?) -> Bool {
        guard let written, let last = lastSync, let before = written.lastSync,
              last >= before, last - before < Self.refreshInterval else { return false }
        var same = self
        same.lastSync = before
        return same == written
    }

    /// "3 s ago", "4 min ago", "2 h ago"; "just now" for a clock that ran backwards.
    static func ago(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 1 else { return "just now" }
        let whole = Int(min(seconds, Double(Int32.max)))
        if whole < 120 { return "\(whole) s ago" }
        if whole < 7200 { return "\(whole / 60) min ago" }
        return "\(whole / 3600) h ago"
    }
}

/// `$XDG_STATE_HOME/wonderland/running/sync-<pid>.json`: one file per running app that syncs,
/// written (atomically, 0600) when its sync state changes and removed when it quits. Readers
/// treat every byte as hostile: a file over `limit`, one that is not JSON of the current
/// format, or one whose name and contents disagree on the pid is skipped; one whose app is no
/// longer running (a crash, a kill) is skipped and removed.
public struct RunningSyncFiles: Sendable {
    /// The folder holding the files.
    public let folderPath: String
    /// Whether the process is a running wonderland; tests pass their own.
    private let isRunning: @Sendable (Int32) -> Bool

    /// A state file is a few hundred bytes; anything over this was not written by the app.
    public static let limit = FileLimit(bytes: 64 << 10, name: "a running app's sync state")

    /// The files in the folder at `folderPath` (made when first written, 0700); `isRunning`
    /// tells a live app's pid from a dead one's.
    public init(folderPath: String, isRunning: @escaping @Sendable (Int32) -> Bool = RunningSyncFiles.isRunningWonderland) {
        self.folderPath = folderPath
        self.isRunning = isRunning
    }

    /// In `$XDG_STATE_HOME/wonderland/running`; nil when the environment names neither that
    /// nor HOME (a test's process keeps nothing there).
    public static func standard(environment: [String: String]) -> RunningSyncFiles? {
        UserFolders(environment: environment).folderNamedByEnvironment(.state)
            .map { RunningSyncFiles(folderPath: FilePaths.join($0, "wonderland/running")) }
    }

    /// The file of the process `pid`.
    public func path(pid: Int32) -> String { FilePaths.join(folderPath, "sync-\(pid).json") }

    /// Writes `state` to its process's file, replacing what was there.
    public func write(_ state: RunningSyncState) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(state)
        guard data.count <= Self.limit.bytes else { return }
        try AtomicFile.write(data, toPath: path(pid: state.pid), durable: false)
    }

    /// Removes the file of the process `pid`, if there is one.
    public func remove(pid: Int32) {
        unlink(path(pid: pid))
    }

    /// The states of the apps running now, by pid. Stale files (their app gone) are removed.
    public func read() -> [RunningSyncState] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folderPath) else { return [] }
        var states: [RunningSyncState] = []
        for name in names.sorted() {
            guard let pid = Self.pid(fromName: name) else { continue }
            guard isRunning(pid) else {
                remove(pid: pid)
                continue
            }
            guard let data = try? BoundedFile.read(path: path(pid: pid), limit: Self.limit, followingLinks: false),
                  let state = try? JSONDecoder().decode(RunningSyncState.self, from: data),
                  state.format == RunningSyncState.currentFormat, state.pid == pid else { continue }
            states.append(state)
        }
        return states.sorted { $0.pid < $1.pid }
    }

    /// The pid in "sync-<pid>.json", when the name is exactly that.
    static func pid(fromName name: String) -> Int32? {
        guard name.hasPrefix("sync-"), name.hasSuffix(".json") else { return nil }
        let digits = name.dropFirst("sync-".count).dropLast(".json".count)
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let pid = Int32(digits), pid > 0 else { return nil }
        return pid
    }

    /// Whether `pid` is a live process running the `wonderland` binary (its executable's name,
    /// as /proc shows it; a binary replaced since it started is "wonderland (deleted)").
    public static let isRunningWonderland: @Sendable (Int32) -> Bool = { pid in
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        // Without /proc (or the right to read the link), a live process is taken as the app.
        guard length > 0 else { return true }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var name = FilePaths.lastComponent(of: path)
        if name.hasSuffix(" (deleted)") { name.removeLast(" (deleted)".count) }
        return name == "wonderland"
    }
}
