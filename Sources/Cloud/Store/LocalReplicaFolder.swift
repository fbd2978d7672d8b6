import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Platform

/// Where this machine keeps its synced stores: `$XDG_DATA_HOME/wonderland/synced-store/`, with
/// one local copy per backend (`folder-…-<hash>.plist`) and the machine's device identity
/// (`device-id`), shared by every backend.
///
/// One copy per backend, not one for all: switching the sync folder, or running
/// `wonderland cloud status` in a shell without WONDERLAND_SYNC_FOLDER, must not throw away
/// the changes another folder has not received yet. Copies unused for a season go
/// (`removeUnusedCopies`).
public struct LocalReplicaFolder: Sendable {
    /// The folder's path; the URL is made only when a store is opened, not at every launch.
    public let path: String
    /// The same folder as a URL.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The copies kept in the folder at `url`.
    public init(url: URL) { self.init(path: url.path) }

    /// The copies kept in the folder at `path`.
    public init(path: String) { self.path = path }

    /// `synced-store` in the app's data folder.
    public static func standard(dataFolder: URL) -> LocalReplicaFolder { standard(dataFolderPath: dataFolder.path) }

    /// `synced-store` in the data folder at `dataFolderPath`.
    public static func standard(dataFolderPath: String) -> LocalReplicaFolder {
        LocalReplicaFolder(path: FilePaths.join(dataFolderPath, "synced-store"))
    }

    /// The copy for the backend `displayName` names, its modification time set to now: a
    /// copy opened and never changed is still in use (`unusedCopies`). A link in its place is
    /// touched itself, never what it names.
    public func replicaFile(forBackend displayName: String) -> LocalReplicaFile {
        let name = Self.fileName(forBackend: displayName)
        utimensat(AT_FDCWD, FilePaths.join(path, name), nil, AT_SYMLINK_NOFOLLOW)
        return LocalReplicaFile(url: url.appendingPathComponent(name))
    }

    /// "folder ~/Sync/wonderland" → "folder-sync-wonderland-1f2e3d4c.plist": readable, and the
    /// hash of the whole name keeps two backends apart whatever the slug drops.
    public static func fileName(forBackend displayName: String) -> String {
        var slug = ""
        for scalar in displayName.lowercased().unicodeScalars {
            let keep = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
            if keep {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        var hash: UInt32 = 2_166_136_261  // FNV-1a
        for byte in displayName.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return String(slug.prefix(48)) + "-" + cFormat("%08x", hash) + ".plist"
    }

    /// This machine's device identifier, made once and kept in `device-id`. A damaged file is
    /// moved aside (the warning says so) and a new identity is made: a new identity only means
    /// the folder sees one more device.
    public func deviceIdentifier(warning: inout String?) -> DeviceIdentifier {
        let file = url.appendingPathComponent("device-id")
        for _ in 0..<3 {
            // Read bounded and only from a regular file: anything else in its place is damage.
            let read: Data?
            do { read = try BoundedFile.read(path: file.path, limit: .syncIdentity, followingLinks: false) } catch {
                switch error {
                case .missing, .unreadable: read = nil
                case .notRegularFile, .tooLarge: read = Data()
                }
            }
            if let read {
                let text = String(decoding: read, as: UTF8.self).trimmingWhitespace()
                if let device = DeviceIdentifier(text) { return device }
                let moved = try? AtomicFile.moveAside(file, label: "damaged")
                warning = "This machine's sync identity \(file.path) could not be read; it was moved to \(moved?.lastPathComponent ?? "?") and a new one was made."
            }
            let device = DeviceIdentifier.random()
            do {
                try AtomicFile.makeFolder(url)
                // O_EXCL: when two instances start at once, the first identity written is the one.
                let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                if descriptor < 0 {
                    if errno == EEXIST { continue }
                    throw AtomicFile.Failure(operation: "create", path: file.path, code: errno)
                }
                let line = Array((device.rawValue + "\n").utf8)
                let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                fsync(descriptor)
                close(descriptor)
                if written == line.count { return device }
                unlink(file.path)
            } catch {
                warning = "This machine's sync identity could not be saved (\(error)); this run syncs under a temporary one."
                return device
            }
        }
        return DeviceIdentifier.random()
    }
}
