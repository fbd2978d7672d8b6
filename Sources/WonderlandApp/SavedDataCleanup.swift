import Cloud
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What `wonderland state clean` does with `SavedDataUsage`'s removable files: each is
/// removed with `unlink`, which never follows a link nor removes a folder; a sync copy goes
/// through `LocalReplicaFolder.removeUnusedCopies`, which leaves one an instance is using.
extension SavedDataUsage {
    public struct Cleaning: Sendable {
        public var removed: [Removable] = []
        /// What could not be removed, with why.
        public var kept: [(file: Removable, why: String)] = []
        public var freedBytes: Int64 { removed.reduce(0) { $0 + $1.size } }
    }

    public func clean() -> Cleaning {
        var cleaning = Cleaning()
        for entry in entries() where !entry.removable.isEmpty {
            if entry.kind == .syncCopies, let currentBackend {
                let removed = Set(places.replicas.removeUnusedCopies(currentBackend: currentBackend, now: now).map(\.path))
                for file in entry.removable {
                    if removed.contains(file.path) { cleaning.removed.append(file) } else { cleaning.kept.append((file, "in use")) }
                }
                continue
            }
            for file in entry.removable {
                if unlink(file.path) == 0 || errno == ENOENT {
                    cleaning.removed.append(file)
                } else {
                    cleaning.kept.append((file, String(cString: strerror(errno))))
                }
            }
        }
        return cleaning
    }
}
