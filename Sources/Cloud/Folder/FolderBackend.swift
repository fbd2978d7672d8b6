import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Platform

/// The default backend: a folder, which the user may keep in any folder-syncing tool
/// (Syncthing, Dropbox, NFS). Each device appends only to its own change files
/// (`<device>.<generation>.wlkv`, see `ChangeFileFormat`), so no two devices ever write the same
/// file; every device reads all of them and the store merges last-writer-wins.
///
/// The backend never creates the folder: a missing one means "unavailable" (not made yet, an
/// unmounted share, a sync tool that moved it), and the store keeps the changes waiting until
/// it is there. Made behind the user's back, it would be a folder on the local disk that
/// nothing syncs, reported as reached. Creating it is the user's act (`createFolder`, which
/// `wonderland cloud init` and the Sync settings call); the watcher notices when it appears.
public final class FolderBackend: KeyValueBackend, @unchecked Sendable {
    public struct Options: Sendable {
        /// How often the listing is looked at while waiting where inotify cannot be trusted (no
        /// inotify, a network or FUSE file system, a folder that went away). On a local folder
        /// with a watch the wait is not sliced at all.
        public var pollInterval: Double
        public var usesInotify: Bool
        /// Compaction runs once this device's files hold more than `compactionFactor` × its
        /// distinct keys + `compactionSlack` records.
        public var compactionFactor: Int
        public var compactionSlack: Int

        public init(pollInterval: Double = 0.5, usesInotify: Bool = true, compactionFactor: Int = 2, compactionSlack: Int = 64) {
            self.pollInterval = pollInterval
            self.usesInotify = usesInotify
            self.compactionFactor = compactionFactor
            self.compactionSlack = compactionSlack
        }
    }

    public let folder: URL
    public let device: DeviceIdentifier
    public let options: Options
    private let path: String
    private let lock = Lock()
    private var reader: FolderReader
    private let writer: FolderWriter
    private let watcher: FolderWatcher

    /// Touches nothing on disk: the folder is looked at when the store first syncs.
    public init(folder: URL, device: DeviceIdentifier, options: Options = Options()) throws {
        let path = folder.standardizedFileURL.path
        self.folder = URL(fileURLWithPath: path)
        self.path = path
        self.device = device
        self.options = options
        reader = FolderReader(folder: path, device: device)
        writer = FolderWriter(folder: path, device: device)
        watcher = FolderWatcher(folder: path, pollInterval: options.pollInterval, usesInotify: options.usesInotify)
    }

    /// `$XDG_DATA_HOME/wonderland/cloud`, or `~/.local/share/wonderland/cloud` when XDG_DATA_HOME
    /// is unset or not absolute (as the XDG spec says to treat it).
    /// What creating `folder` did.
    public enum Creation: Equatable, Sendable {
        case created
        case alreadyThere
    }

    /// Creates `folder` (0700, and any missing parents 0700) for the user who asked for it; a
    /// folder already there is left as it is. Throws `BackendUnavailable` with the reason when
    /// it cannot be made, or something other than a folder is in the way.
    @discardableResult
    public static func createFolder(_ folder: URL) throws -> Creation {
        let path = folder.standardizedFileURL.path
        if let kind = FolderSystemCalls.kind(of: path) {
            guard kind == .directory else { throw BackendUnavailable(reason: FolderSystemCalls.reason("create", path, ENOTDIR)) }
            return .alreadyThere
        }
        do {
            try AtomicFile.makeFolder(URL(fileURLWithPath: path))
        } catch let failure as AtomicFile.Failure {
            throw BackendUnavailable(reason: FolderSystemCalls.reason("create", failure.path, failure.code))
        } catch {
            throw BackendUnavailable(reason: "cannot create \(path): \(error)")
        }
        return .created
    }

    /// What the store says while the folder is not there.
    public static func missingReason(_ path: String) -> String {
        "folder missing: \(path) — run `wonderland cloud init` to create it"
    }

    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        URL(fileURLWithPath: UserFolders(environment: environment).dataHome).appendingPathComponent("wonderland/cloud")
    }

    public var displayName: String {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        if !home.isEmpty, home != "/", path.hasPrefix(home + "/") { return "folder ~" + path.dropFirst(home.count) }
        return "folder \(path)"
    }

    public func append(_ records: [ChangeRecord]) throws {
        try lock.withLock {
            try checkFolder()
            try writer.append(records)
        }
    }

    public func fetchChanges() throws -> [ChangeRecord] {
        try lock.withLock {
            // Remembered even while the folder is missing, so its appearing is news at once.
            watcher.remember(watcher.snapshot())
            try checkFolder()
            let names = try FolderSystemCalls.names(in: path)
            return reader.read(names: names)
        }
    }

    public func waitForChanges(timeout: Double) {
        watcher.wait(timeout: timeout)
    }

    public func wake() { watcher.wake() }

    public func compact(latest: MergedChanges) {
        lock.withLock {
            let records = reader.ownRecordCount
            guard records > options.compactionFactor * reader.ownKeys.count + options.compactionSlack else { return }
            if let deleted = try? writer.compact(latest: latest) { reader.forget(deleted) }
        }
    }

    /// Regions of damaged bytes skipped so far (damage is never returned as a record).
    public var damagedRegionsSkipped: Int { lock.withLock { reader.damagedRegions } }

    /// Change files left unread (newer format, not a regular file, too large), with why.
    public var readProblems: [String] { lock.withLock { reader.problems } }

    /// Whether inotify is watching the folder now (false: polling only).
    public var isWatchingWithInotify: Bool { watcher.isWatching }

    /// The folder must be there and be a folder: a missing one is unavailable, never created.
    private func checkFolder() throws {
        guard let kind = FolderSystemCalls.kind(of: path) else {
            throw BackendUnavailable(reason: Self.missingReason(path))
        }
        guard kind == .directory else { throw BackendUnavailable(reason: FolderSystemCalls.reason("read", path, ENOTDIR)) }
    }
}
