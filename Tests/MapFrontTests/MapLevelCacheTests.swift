import FileSafety
import Foundation
import Testing
@testable import MapFront

/// A scale's map index: it draws exactly what the shapefiles it was made from draw, it is used
/// only while they are unchanged, and a damaged one is moved aside and never trusted.
@Suite struct MapLevelCacheTests {
    typealias W = ShapefileWriter

    /// Two islands (one with a lake) and a border, at every scale.
    func world() throws -> FixtureMapData {
        let data = try FixtureMapData()
        let lake = W.square(west: 4, south: 4, east: 6, north: 6).reversed().map { $0 }
        try data.writeWorld(land: [[W.square(west: 0, south: 0, east: 10, north: 10), lake], [W.square(west: -40, south: -30, east: -20, north: 5)]],
                            borders: [[(5, 0), (5, 10)], [(-30, -30), (-30, 5)]])
        return data
    }

    func cache() -> (MapLevelCache, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-mapindex-\(UUID().uuidString)")
        return (MapLevelCache(folder: folder.path), folder)
    }

    /// The 1:50m index of `data`, written to `cache`: its sources and where it is.
    func writeIndex(of data: FixtureMapData, to cache: MapLevelCache) throws -> (MapSources, String) {
        let sources = MapSources(catalog: data.catalog, resolution: .medium)
        try cache.write(try MapLevel.load(.medium, from: data.catalog), sources: sources)
        return (sources, cache.path(for: .medium))
    }

    /// The bytes of `data`'s 1:50m index, and the sources they were made for.
    func encodedIndex(of data: FixtureMapData) throws -> ([UInt8], MapSources) {
        let sources = MapSources(catalog: data.catalog, resolution: .medium)
        return ([UInt8](MapLevelFile.encode(try MapLevel.load(.medium, from: data.catalog), sources: sources)), sources)
    }

    func expectSameLevel(_ a: MapLevel, _ b: MapLevel) {
        #expect(a.resolution == b.resolution)
        #expect(a.land.edges.elementsEqual(b.land.edges) && a.land.bandStarts.elementsEqual(b.land.bandStarts))
        #expect(a.land.edgeCount == b.land.edgeCount && a.land.bandHeight == b.land.bandHeight)
        for (x, y) in [(a.coastlines, b.coastlines), (a.boundaries, b.boundaries)] {
            #expect(x.xs.elementsEqual(y.xs) && x.ys.elementsEqual(y.ys) && x.chunks.elementsEqual(y.chunks))
        }
    }

    /// Every layer of `level` at a few places and zooms, as dots.
    func dots(_ level: MapLevel) -> [[UInt8]] {
        var all: [[UInt8]] = []
        for (latitude, longitude, zoom) in [(0.0, 0.0, 0), (5.0, 5.0, 3), (-10.0, -30.0, 4), (51.5, 0.0, 4), (5.0, 5.0, 7)] {
            let viewport = MapViewport(center: GeoPoint(latitude: latitude, longitude: longitude), zoom: zoom)
            let window = DotWindow(projection: MapProjection(viewport: viewport, dotWidth: 160, dotHeight: 88))
            for type in [MapType.standard, .satellite, .hybrid] {
                let layers = MapComposer.rasterise(level, window: window, columns: 80, rows: 22, type: type)
                all += [layers.land, layers.coast, layers.borders].compactMap { $0?.cells }
            }
        }
        return all
    }

    @Test func anIndexReadsBackAsTheLevelItWasMadeFrom() throws {
        let data = try world()
        let (cache, folder) = cache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = MapSources(catalog: data.catalog, resolution: .medium)
        let built = try MapLevel.load(.medium, from: data.catalog)
        #expect(cache.read(.medium, sources: sources) == nil, "no index yet")
        try cache.write(built, sources: sources)
        let read = try #require(cache.read(.medium, sources: sources))
        expectSameLevel(read, built)
        #expect(dots(read) == dots(built))
        #expect(dots(built).contains { $0.contains { $0 != 0 } }, "the comparison draws something")
        #expect(cache.read(.coarse, sources: MapSources(catalog: data.catalog, resolution: .coarse)) == nil, "one file per scale")
    }

    @Test(.requires(.naturalEarth)) func theInstalledMapDrawsTheSameFromItsIndex() throws {
        // scripts/setup installs libmagics++-data; without it this fails and says so.
        let catalog = MapDataCatalog()
        try #require(FileManager.default.fileExists(atPath: catalog.land(.medium)), "\(MapDataCatalog.installHint)")
        let (cache, folder) = cache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = MapSources(catalog: catalog, resolution: .medium)
        let built = try MapLevel.load(.medium, from: catalog)
        try cache.write(built, sources: sources)
        let read = try #require(cache.read(.medium, sources: sources))
        expectSameLevel(read, built)
        #expect(dots(read) == dots(built))
    }

    @Test func aChangedShapefileMakesTheIndexStaleAndItIsReplacedNotMovedAside() throws {
        let data = try world()
        let (cache, folder) = cache()
        defer { try? FileManager.default.removeItem(at: folder) }
        try cache.write(try MapLevel.load(.medium, from: data.catalog), sources: MapSources(catalog: data.catalog, resolution: .medium))
        try data.writeWorld(land: [[W.square(west: 0, south: 0, east: 20, north: 20)]])
        let now = MapSources(catalog: data.catalog, resolution: .medium)
        #expect(cache.read(.medium, sources: now) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["ne_50m.mapindex"], "stale is not damaged")

        // Through the renderer: the new land is drawn and its index written in place.
        let renderer = ShapefileMapRenderer(catalog: MapDataCatalog(directory: data.directory.path, levelCache: cache), notify: {})
        renderer.preload(.medium)
        renderer.finishLoading()
        let fresh = try #require(cache.read(.medium, sources: now))
        expectSameLevel(fresh, try MapLevel.load(.medium, from: data.catalog))
    }

    @Test func theRendererWritesAnIndexOnceAndThenDrawsFromIt() throws {
        let data = try world()
        let (cache, folder) = cache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = MapDataCatalog(directory: data.directory.path, levelCache: cache)
        let first = ShapefileMapRenderer(catalog: catalog, notify: {})
        first.preload(.coarse)
        first.finishLoading()
        #expect(first.loadedLevel(.coarse)?.land.edges.isMapped == true, "the scale built in memory is replaced by its index, mapped")
        #expect(first.loadedLevel(.coarse)?.coastlines.xs.isMapped == true)
        let path = cache.path(for: .coarse)
        let written = try #require(try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        let second = ShapefileMapRenderer(catalog: catalog, notify: {})
        second.preload(.coarse)
        #expect(second.takeLoadedData(), "mapped when started, with no thread to wait for")
        #expect(second.loadedResolutions == [.coarse])
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) == written, "read, not written again")
    }

    @Test func anIndexFromAnotherVersionIsStaleNotDamaged() throws {
        let data = try world()
        let (cache, folder) = cache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (sources, path) = try writeIndex(of: data, to: cache)
        for (offset, byte) in [(8, UInt8(99)), (12, UInt8(0x40)), (MapLevelFile.layoutOffset, UInt8(33)), (MapLevelFile.resolutionOffset, UInt8(110))] {
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let original = bytes
            bytes[offset] = byte
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(cache.read(.medium, sources: sources) == nil, "byte \(offset)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["ne_50m.mapindex"])
            try Data(original).write(to: URL(fileURLWithPath: path))
        }
    }

    /// Decodes `bytes` as the 1:50m index of `sources`.
    func decode(_ bytes: [UInt8], sources: MapSources, in folder: URL) throws -> Result<MapLevel, MapLevelFile.Refusal> {
        let path = folder.appendingPathComponent("probe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try MappedFile.map(path: path, limit: .mapIndex)
        return Result { () throws(MapLevelFile.Refusal) in try MapLevelFile.decode(file, resolution: .medium, sources: sources) }
    }

    @Test func everyDamageThatCouldMisleadTheDrawingIsRefused() throws {
        let data = try world()
        let (_, folder) = cache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (good, sources) = try encodedIndex(of: data)
        #expect(try decode(good, sources: sources, in: folder).map { _ in true } == .success(true))

        func section(_ section: MapLevelFile.Section) -> (offset: Int, count: Int) {
            let at = MapLevelFile.sectionsOffset + 16 * section.rawValue
            return (good.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: Int.self) },
                    good.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at + 8, as: Int.self) })
        }
        func patched(_ at: Int, _ value: some BitwiseCopyable) -> [UInt8] {
            var bytes = good
            bytes.withUnsafeMutableBytes { $0.storeBytes(of: value, toByteOffset: at, as: type(of: value)) }
            return bytes
        }
        let chunks = section(.coastlineChunks), starts = section(.bandStarts)
        let chunkStride = MemoryLayout<LineLayer.Chunk>.stride
        let damaged: [(String, [UInt8])] = [
            ("not ours", Array("hello".utf8) + good.dropFirst(5)),
            ("cut inside the header", Array(good.prefix(MapLevelFile.headerSize - 1))),
            ("cut inside the data", Array(good.prefix(good.count - 8))),
            ("a section past the end", patched(MapLevelFile.sectionsOffset + 16 * MapLevelFile.Section.edges.rawValue + 8, Int.max / 2)),
            ("a negative count", patched(MapLevelFile.sectionsOffset + 8, -1)),
            ("a misaligned section", patched(MapLevelFile.sectionsOffset + 16 * 2, section(.coastlineXs).offset + 1)),
            ("a section inside the header", patched(MapLevelFile.sectionsOffset + 16 * 2, 8)),
            ("bands that fall", patched(starts.offset + 8, Int.max)),
            ("bands that miss edges", patched(starts.offset + 8 * (starts.count - 1), 1)),
            ("a chunk past its points", patched(chunks.offset + MemoryLayout<LineLayer.Chunk>.offset(of: \.end)!, 1_000_000)),
            ("a backwards chunk", patched(chunks.offset, 5)),
            ("a chunk with no box", patched(chunks.offset + chunkStride + MemoryLayout<LineLayer.Chunk>.offset(of: \.west)!, Double.nan)),
            ("a chunk off the globe", patched(chunks.offset + MemoryLayout<LineLayer.Chunk>.offset(of: \.north)!, 1e300)),
            ("more edges counted than stored", patched(MapLevelFile.edgeCountOffset, Int.max)),
        ]
        #expect(chunks.count >= 2 && starts.count >= 2, "the fixture has what is patched")
        for (what, bytes) in damaged {
            guard case .failure(.damaged(let reason)) = try decode(bytes, sources: sources, in: folder) else {
                Issue.record("\(what): not refused as damaged")
                continue
            }
            #expect(!reason.isEmpty, "\(what)")
        }
    }

    @Test func noSingleChangedByteCrashesTheReaderOrTheDrawing() throws {
        let data = try world()
        let (_, folder) = cache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (good, sources) = try encodedIndex(of: data)
        var generator = SystemRandomNumberGenerator()
        var drawn = 0
        // Every byte of the header and the section table, then a sample of the data.
        let positions = Array(0..<MapLevelFile.headerSize) + (0..<400).map { _ in Int.random(in: MapLevelFile.headerSize..<good.count, using: &generator) }
        for position in positions {
            var bytes = good
            bytes[position] ^= UInt8.random(in: 1...255, using: &generator)
            if case .success(let level) = try decode(bytes, sources: sources, in: folder) {
                _ = dots(level)
                drawn += 1
            }
        }
        #expect(drawn > 0, "a changed coordinate still reads and draws")
    }

    @Test func aDamagedIndexIsMovedAsideAndTheShapefilesAreRead() throws {
        let data = try world()
        let (cache, folder) = cache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (sources, path) = try writeIndex(of: data, to: cache)
        try Data(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(MapLevelFile.headerSize + 3)).write(to: URL(fileURLWithPath: path))
        #expect(cache.read(.medium, sources: sources) == nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 1 && names[0].hasPrefix("ne_50m.mapindex.corrupt-"), "\(names)")
    }

    @Test func aFIFOOrALinkInItsPlaceIsNeitherOpenedNorFollowed() throws {
        let data = try world()
        let (cache, folder) = cache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = MapSources(catalog: data.catalog, resolution: .medium)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = cache.path(for: .medium)
        #expect(mkfifo(path, 0o600) == 0)
        #expect(cache.read(.medium, sources: sources) == nil, "a FIFO with no writer does not block the read")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        #expect(cache.read(.medium, sources: sources) == nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 2 && names.allSatisfy { $0.hasPrefix("ne_50m.mapindex.corrupt-") }, "\(names)")
    }
}
