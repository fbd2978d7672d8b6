#if canImport(Glibc)
import Glibc
#endif

/// Whether inotify on a folder hears of every change to it. On a local file system every write
/// goes through this kernel, so a watch misses nothing and a watcher may sleep until it fires.
/// On a network or FUSE file system another machine's writes (or the FUSE daemon's own) never
/// reach this kernel's inotify: a watcher there must also look again now and then.
public enum FileSystemKind {
    /// File system types (as /proc/self/mounts names them) whose changes can come from elsewhere.
    static let remoteTypes: Set<String> = ["nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ceph", "glusterfs",
                                           "gfs2", "ocfs2", "lustre", "davfs", "fuse", "fuseblk", "virtiofs", "vboxsf"]

    /// True when `path` (a folder) is on a file system known to be local. Unknown (the folder is
    /// missing, the mount table cannot be read) answers false, so the caller keeps looking.
    public static func inotifySeesEveryChange(at path: String) -> Bool {
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        guard let table = mountTable(), let type = mountType(of: String(cString: resolved), in: table) else { return false }
        return isLocal(type)
    }

    /// /proc/self/mounts, read to its end (its size is 0 to stat) and at most 1 MiB: a machine
    /// with more mounts than that is answered "unknown".
    private static func mountTable() -> String? {
        let descriptor = open("/proc/self/mounts", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let limit = 1 << 20
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[..<count]
        }
        return nil
    }

    static func isLocal(_ type: String) -> Bool {
        !remoteTypes.contains(type) && !type.hasPrefix("fuse.")
    }

    /// The type of the mount that holds `path` (its longest mount point prefix), from the text
    /// of /proc/self/mounts.
    static func mountType(of path: String, in table: String) -> String? {
        var best: (point: String, type: String)?
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = unescaped(fields[1])
            let inside = point == "/" || path == point || path.hasPrefix(point + "/")
            if inside, point.count >= (best?.point.count ?? -1) { best = (point, String(fields[2])) }
        }
        return best?.type
    }

    /// The mount table writes a space, tab, newline and backslash in a path as \040, \011, \012, \134.
    private static func unescaped(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var bytes: [UInt8] = []
        var source = Array(field.utf8)[...]
        while let byte = source.first {
            if byte == UInt8(ascii: "\\"), source.count >= 4,
               let code = UInt8(String(decoding: source.dropFirst().prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(code)
                source = source.dropFirst(4)
            } else {
                bytes.append(byte)
                source = source.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
