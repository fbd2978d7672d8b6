import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Platform

/// Copies of backends no longer used. Every sync folder or server ever used keeps a copy
/// here, so that switching back loses nothing; one not opened for `unusedFor` and not the
/// current backend's has had its chance and may go. A copy's modification time is its last
/// use: saves write it, and opening it touches it (`replicaFile(forBackend:)`).
extension LocalReplicaFolder {
    /// A copy with its companions (its lock, its quarantine list, crash markers).
    public struct Copy: Sendable, Equatable {
        public var path: String
        public var lastUsed: Date
        /// The copy and its companions, as `lstat` gives their lengths.
        public var size: Int64
        /// The companions' paths.
        public var companions: [String]
    }

    /// Ninety days: a folder away for a season is still a folder in use.
    public static let unusedFor: TimeInterval = 90 * 86_400

    /// Every copy in the folder, by the names `fileName(forBackend:)` makes. Links and
    /// folders under such a name are not copies.
    public func copies() -> [Copy] {
        guard let names = folderNames(path) else { return [] }
        var copies: [Copy] = []
        for name in names where Self.isCopyName(name) {
            let copyPath = FilePaths.join(path, name)
            var status = stat()
            guard lstat(copyPath, &status) == 0, FileKind(mode: status.st_mode) == .regular else { continue }
            var size = Int64(status.st_size)
            var companions: [String] = []
            for other in names where Self.isCompanion(other, of: name) {
                let companionPath = FilePaths.join(path, other)
                var companion = stat()
                guard lstat(companionPath, &companion) == 0, FileKind(mode: companion.st_mode) != .directory else { continue }
                size += Int64(companion.st_size)
                companions.append(companionPath)
            }
            let modified = TimeInterval(status.st_mtim.tv_sec) + TimeInterval(status.st_mtim.tv_nsec) / 1e9
            copies.append(Copy(path: copyPath, lastUsed: Date(timeIntervalSince1970: modified), size: size, companions: companions.sorted()))
        }
        return copies.sorted { $0.path < $1.path }
    }

    /// The copies that may go: not `currentBackend`'s, and unused for `unusedFor` seconds.
    public func unusedCopies(currentBackend: String, unusedFor: TimeInterval = Self.unusedFor, now: Date = Date()) -> [Copy] {
        let current = FilePaths.join(path, Self.fileName(forBackend: currentBackend))
        return copies().filter { $0.path != current && now.timeIntervalSince($0.lastUsed) >= unusedFor }
    }

    /// Removes the unused copies and their companions; returns those removed. A copy another
    /// process holds the lock of, or has a crash marker of a live process beside, is left:
    /// it is in use after all.
    @discardableResult
    public func removeUnusedCopies(currentBackend: String, unusedFor: TimeInterval = Self.unusedFor, now: Date = Date()) -> [Copy] {
        unusedCopies(currentBackend: currentBackend, unusedFor: unusedFor, now: now).filter { remove($0, unusedFor: unusedFor, now: now) }
    }

    private func remove(_ copy: Copy, unusedFor: TimeInterval, now: Date) -> Bool {
        let lockPath = copy.path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        defer { flock(descriptor, LOCK_UN) }
        // Looked at again under the lock: an instance may have opened it since the listing.
        var status = stat()
        guard lstat(copy.path, &status) == 0, FileKind(mode: status.st_mode) == .regular,
              now.timeIntervalSince1970 - TimeInterval(status.st_mtim.tv_sec) >= unusedFor else { return false }
        let markerPrefix = FilePaths.lastComponent(of: copy.path) + ".applying-"
        for companion in copy.companions where FilePaths.lastComponent(of: companion).hasPrefix(markerPrefix) {
            let pidText = FilePaths.lastComponent(of: companion).dropFirst(markerPrefix.count).prefix { $0 != "-" }
            if let pid = pid_t(pidText), pid > 0, kill(pid, 0) == 0 || errno == EPERM { return false }
        }
        guard unlink(copy.path) == 0 else { return false }
        for companion in copy.companions where companion != lockPath { unlink(companion) }
        unlink(lockPath)
        return true
    }

    /// "folder-sync-wonderland-1f2e3d4c.plist": a slug of at most 48 of `a-z0-9-`, a dash and
    /// eight hexadecimal digits.
    static func isCopyName(_ name: String) -> Bool {
        guard name.hasSuffix(".plist") else { return false }
        let stem = Array(name.dropLast(6).unicodeScalars)
        guard stem.count >= 9, stem.count <= 57, stem[stem.count - 9] == "-" else { return false }
        let hash = stem.suffix(8), slug = stem.dropLast(9)
        let isHex = { (scalar: Unicode.Scalar) in (scalar >= "0" && scalar <= "9") || (scalar >= "a" && scalar <= "f") }
        let isSlug = { (scalar: Unicode.Scalar) in (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "-" }
        return hash.allSatisfy(isHex) && slug.allSatisfy(isSlug)
    }

    /// The lock, the quarantine list and crash markers the copy `copy` has beside it; copies
    /// moved aside are not companions (`MovedAside` keeps them).
    static func isCompanion(_ name: String, of copy: String) -> Bool {
        guard name.hasPrefix(copy + "."), name.utf8.count > copy.utf8.count + 1 else { return false }
        let rest = name.dropFirst(copy.count + 1)
        if rest == "lock" || rest == "quarantine" { return true }
        guard rest.hasPrefix("applying-") else { return false }
        let parts = rest.dropFirst("applying-".count).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}
