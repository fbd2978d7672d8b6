import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The mode and owner of a file that an atomic write replaces. The write makes a new file and
/// renames it over the old one, so without these the result would be the writer's, with the
/// writer's umask: a 0600 file would come back 0644, and a file root rewrote for a user would
/// become root's.
public struct ReplacedFileAttributes: Equatable, Sendable {
    /// Permission bits, set-id and sticky bits included.
    public let mode: mode_t
    /// The user who owned the old file.
    public let owner: uid_t
    /// The group of the old file.
    public let group: gid_t

    /// Attributes given explicitly; ``of(path:)`` reads them from a file.
    public init(mode: mode_t, owner: uid_t, group: gid_t) {
        self.mode = mode & 0o7777
        self.owner = owner
        self.group = group
    }

    /// The attributes of the regular file at `path`, links followed; nil when there is no such
    /// file (a new one then gets the writer's defaults).
    public static func of(path: String) -> ReplacedFileAttributes? {
        var status = stat()
        guard stat(path, &status) == 0, FileKind(mode: status.st_mode) == .regular else { return nil }
        return ReplacedFileAttributes(mode: status.st_mode, owner: status.st_uid, group: status.st_gid)
    }

    /// Gives the open file these attributes. The owner goes first, as a change of owner clears
    /// the set-id bits. Only a privileged writer can give a file away; anyone else keeps it as
    /// their own (it was most likely theirs already) and, if a member of the old group, the group.
    /// fchmod is not subject to the umask, so the mode is the old one exactly.
    func apply(to descriptor: Int32, path: String) throws {
        var current = stat()
        guard fstat(descriptor, &current) == 0 else { throw AtomicFile.Failure(operation: "stat", path: path, code: errno) }
        if current.st_uid != owner || current.st_gid != group {
            if fchown(descriptor, owner, group) != 0 {
                guard Self.isRefusedOwnership(errno) else { throw AtomicFile.Failure(operation: "chown", path: path, code: errno) }
                if current.st_gid != group, fchown(descriptor, uid_t.max, group) != 0, !Self.isRefusedOwnership(errno) {
                    throw AtomicFile.Failure(operation: "chown", path: path, code: errno)
                }
            }
        }
        guard fchmod(descriptor, mode) == 0 else { throw AtomicFile.Failure(operation: "chmod", path: path, code: errno) }
    }

    /// EPERM: not privileged. EINVAL: an owner this user namespace has no number for (a file
    /// made outside a container). Neither is a reason to leave the old file unconverted.
    private static func isRefusedOwnership(_ code: Int32) -> Bool { code == EPERM || code == EINVAL }
}
