import BookFront
import Cloud
import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import MapFront
import Platform

/// What each kind of saved data takes (file lengths, as `lstat` gives them: links are not
/// followed), and what of it `wonderland state clean` may remove: the caches, the files moved
/// aside past `MovedAside.KeepRule.standard`, and the sync copies of backends unused for
/// `LocalReplicaFolder.unusedFor`. What the user made — settings, collections, the saved
/// place, the current backend's copy — is never among them.
public struct SavedDataUsage {
    public enum Kind: String, CaseIterable, Sendable {
        case settings = "settings"
        case collections = "collections"
        case savedPlace = "saved place"
        case bookIndexes = "book indexes"
        case mapCache = "map cache"
        case syncCopies = "sync copies"
        case movedAside = "moved aside"
    }

    /// One file `state clean` may remove, and why.
    public struct Removable: Sendable, Equatable {
        public var kind: Kind
        public var path: String
        /// With its companions, for a sync copy.
        public var size: Int64
        public var why: String
    }

    public struct Entry: Sendable, Equatable {
        public var kind: Kind
        /// Where it is: a file, a folder, or folders.
        public var location: String
        public var files: Int
        public var bytes: Int64
        public var removable: [Removable]
        public var removableBytes: Int64 { removable.reduce(0) { $0 + $1.size } }
    }

    public let places: SavedDataPlaces
    /// The current backend's name (`CloudSyncPlace.replicaBackendName`); nil keeps every sync
    /// copy, as none can be told to be unused.
    public let currentBackend: String?
    public let now: Date

    public init(places: SavedDataPlaces, currentBackend: String?, now: Date = Date()) {
        self.places = places
        self.currentBackend = currentBackend
        self.now = now
    }

    public func entries() -> [Entry] {
        Kind.allCases.map(entry)
    }

    public func entry(_ kind: Kind) -> Entry {
        switch kind {
        case .settings:
            let files = Self.sizes(Self.namesOutsideMovedAside(in: places.settingsFolder))
            return Entry(kind: kind, location: places.settingsFolder, files: files.count, bytes: files.total, removable: [])
        case .collections:
            let files = Self.sizes(places.collectionsFiles)
            return Entry(kind: kind, location: places.collectionsFiles[0], files: files.count, bytes: files.total, removable: [])
        case .savedPlace:
            let restoration = places.restoration
            let files = Self.sizes([restoration.archivePath, restoration.previousPath, restoration.logPath, restoration.markerPath])
            return Entry(kind: kind, location: restoration.folderPath, files: files.count, bytes: files.total, removable: [])
        case .bookIndexes:
            return cache(kind, folder: places.bookIndexFolder, ownFiles: BookIndexStore(folderPath: places.bookIndexFolder).indexPaths())
        case .mapCache:
            return cache(kind, folder: places.mapCacheFolder, ownFiles: MapLevelCache(folder: places.mapCacheFolder).indexPaths())
        case .syncCopies:
            let replicas = places.replicas
            let copies = replicas.copies()
            let identity = Self.sizes([FilePaths.join(replicas.path, "device-id")])
            let unused = currentBackend.map { replicas.unusedCopies(currentBackend: $0, now: now) } ?? []
            let removable = unused.map {
                Removable(kind: kind, path: $0.path, size: $0.size, why: "unused since \(CommandDateText.utc($0.lastUsed))")
            }
            return Entry(kind: kind, location: replicas.path, files: copies.count + identity.count,
                         bytes: copies.reduce(identity.total) { $0 + $1.size }, removable: removable)
        case .movedAside:
            let files = places.movedAsideFolders.flatMap { MovedAside.files(inFolder: $0) }
            let removable = MovedAside.pastKeeping(files, now: now).map {
                Removable(kind: kind, path: $0.path, size: $0.size, why: "moved aside \(CommandDateText.utc($0.name.moved))")
            }
            return Entry(kind: kind, location: places.movedAsideFolders.joined(separator: ", "), files: files.count,
                         bytes: files.reduce(0) { $0 + $1.size }, removable: removable)
        }
    }

    /// A cache folder: everything in it but what was moved aside counts, and the cache's own
    /// files may go.
    private func cache(_ kind: Kind, folder: String, ownFiles: [String]) -> Entry {
        let files = Self.sizes(Self.namesOutsideMovedAside(in: folder))
        let removable = ownFiles.map { Removable(kind: kind, path: $0, size: Self.sizes([$0]).total, why: "a cache, made again when needed") }
        return Entry(kind: kind, location: folder, files: files.count, bytes: files.total, removable: removable)
    }

    /// The paths in `folder` that are not folders and not moved aside (those are a kind of
    /// their own).
    static func namesOutsideMovedAside(in folder: String) -> [String] {
        (folderNames(folder) ?? []).filter { MovedAside.Name($0) == nil }.map { FilePaths.join(folder, $0) }
    }

    /// How many of `paths` exist as other than folders, and their lengths.
    static func sizes(_ paths: [String]) -> (count: Int, total: Int64) {
        var count = 0
        var total: Int64 = 0
        for path in paths {
            var status = stat()
            guard lstat(path, &status) == 0, FileKind(mode: status.st_mode) != .directory else { continue }
            count += 1
            total += Int64(status.st_size)
        }
        return (count, total)
    }
}
