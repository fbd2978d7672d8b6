#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileSafety
import FoundationEssentials
import Platform

/// The folder of map indexes, in the user's cache folder: one file per scale
/// (`ne_50m.mapindex`), made from the shapefiles the first time the scale is drawn and mapped on
/// every launch after, as long as the shapefiles are the ones it was made from. A file for
/// other shapefiles, or from a build that lays the values out otherwise, is replaced; one that
/// is not what the app writes is moved aside (`*.corrupt-<time>`), and the scale is read from
/// its shapefiles as if there were no index.
public struct MapLevelCache: Sendable {
    /// The folder the indexes are in (made when the first one is written).
    public let folder: String

    static let fileExtension = "mapindex"

    public init(folder: String) { self.folder = folder }

    /// `$XDG_CACHE_HOME/wonderland/map` (or `~/.cache/…`); nil when `environment` names
    /// neither, so a run with no home of its own (a test) writes nowhere.
    public static func standard(environment: [String: String]) -> MapLevelCache? {
        UserFolders(environment: environment).folderNamedByEnvironment(.cache).map { MapLevelCache(folder: FilePaths.join($0, "wonderland/map")) }
    }

    func path(for resolution: MapResolution) -> String { FilePaths.join(folder, "ne_\(resolution.rawValue).\(Self.fileExtension)") }

    /// The scale's index, when there is one to believe for `sources`.
    func read(_ resolution: MapResolution, sources: MapSources) -> MapLevel? {
        let path = path(for: resolution)
        let file: MappedFile
        do {
            file = try MappedFile.map(path: path, limit: .mapIndex, followingLinks: false)
        } catch .missing {
            return nil
        } catch {
            // Too big, a link or a FIFO in its place: not ours as written, so kept for a look.
            moveAside(path)
            return nil
        }
        do {
            return try MapLevelFile.decode(file, resolution: resolution, sources: sources)
        } catch .stale {
            return nil
        } catch {
            moveAside(path)
            return nil
        }
    }

    /// Replaces the scale's index. Not flushed to the disk: a power cut loses only a cache, and a
    /// torn file cannot result (written aside, then renamed; a process mapping the old file
    /// keeps reading it whole).
    func write(_ level: MapLevel, sources: MapSources) throws {
        let bytes = MapLevelFile.encode(level, sources: sources)
        guard bytes.count <= FileLimit.mapIndex.bytes else { return }
        AtomicFile.removeStaleTemporaries(inFolder: folder)
        try AtomicFile.write(bytes, toPath: path(for: level.resolution), durable: false)
    }

    /// The indexes in the folder by the names `path(for:)` gives them, links included as
    /// themselves and folders left out: what `wonderland state clean` may remove.
    public func indexPaths() -> [String] {
        guard let names = folderNames(folder) else { return [] }
        let paths = MapResolution.allCases.map(path(for:)).filter { names.contains(FilePaths.lastComponent(of: $0)) }
        return paths.filter { path in
            var status = stat()
            return lstat(path, &status) == 0 && FileKind(mode: status.st_mode) != .directory
        }.sorted()
    }

    private func moveAside(_ path: String) {
        _ = try? AtomicFile.moveAside(URL(fileURLWithPath: path), label: "corrupt")
    }
}

/// The shapefiles a scale is made from, as they are on disk now: a map index made from other
/// ones (a package upgrade, a file edited in place) is not used.
struct MapSources: Equatable, Sendable {
    static let fileCount = 4
    let stamps: [MapSourceStamp]

    init(stamps: [MapSourceStamp]) {
        precondition(stamps.count == Self.fileCount)
        self.stamps = stamps
    }

    /// The land and the borders, each with its .shx index.
    init(catalog: MapDataCatalog, resolution: MapResolution) {
        let files = [catalog.land(resolution), catalog.boundaries(resolution)]
        self.init(stamps: files.flatMap { [MapSourceStamp.of(path: $0), MapSourceStamp.of(path: String($0.dropLast(4)) + ".shx")] })
    }
}

/// One file's place and state without reading it: device and inode, size, modification and
/// status change times (a tool can set the first back after an edit, never the second); all
/// zero when there is no file.
struct MapSourceStamp: Equatable, Sendable {
    var device: UInt64 = 0
    var inode: UInt64 = 0
    var size: Int64 = 0
    var modified: Int64 = 0
    var changed: Int64 = 0

    static let byteCount = 40
    static let missing = MapSourceStamp()

    static func of(path: String) -> MapSourceStamp {
        var status = stat()
        guard stat(path, &status) == 0 else { return .missing }
        return MapSourceStamp(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                              modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
                              changed: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec))
    }

    init() {}

    init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
    }

    init(loadingFrom bytes: UnsafeRawBufferPointer, at offset: Int) {
        device = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        inode = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
        size = bytes.loadUnaligned(fromByteOffset: offset + 16, as: Int64.self)
        modified = bytes.loadUnaligned(fromByteOffset: offset + 24, as: Int64.self)
        changed = bytes.loadUnaligned(fromByteOffset: offset + 32, as: Int64.self)
    }

    func store(in bytes: UnsafeMutableRawBufferPointer, at offset: Int) {
        bytes.storeBytes(of: device, toByteOffset: offset, as: UInt64.self)
        bytes.storeBytes(of: inode, toByteOffset: offset + 8, as: UInt64.self)
        bytes.storeBytes(of: size, toByteOffset: offset + 16, as: Int64.self)
        bytes.storeBytes(of: modified, toByteOffset: offset + 24, as: Int64.self)
        bytes.storeBytes(of: changed, toByteOffset: offset + 32, as: Int64.self)
    }
}
