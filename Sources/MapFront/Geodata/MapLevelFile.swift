import FileSafety
import FoundationEssentials

/// The file a map scale's drawing index is kept in, so a launch maps it instead of reading and
/// indexing the shapefiles again: the land's banded edges and the two line layers, each a flat
/// run of values exactly as drawing reads them, behind a header that says which source files
/// (by device, inode, size and times) and which layout of the values it was made from.
///
/// The file is read in place (`MappedFile`): only the bands and chunks a frame touches are ever
/// paged in. Everything the reader indexes with is checked when the file is opened (where each
/// run lies, that the band starts rise through the edges, that every chunk's points are in its
/// layer and its box is made of finite degrees), so a damaged file is refused whole; the values
/// drawn are only ever compared and clipped, never used as an index, so a wrong number in them
/// draws a wrong dot at worst.
enum MapLevelFile {
    static let magic: [UInt8] = Array("WLMAPIDX".utf8)
    /// Raised whenever what is stored, or how the index is made from the shapefiles, changes.
    static let version: UInt32 = 1
    static let byteOrderMark: UInt32 = 0x0102_0304

    /// The runs of values, in file order.
    enum Section: Int, CaseIterable {
        case bandStarts, edges, coastlineXs, coastlineYs, coastlineChunks, boundaryXs, boundaryYs, boundaryChunks

        var stride: Int {
            switch self {
            case .bandStarts: MemoryLayout<Int>.stride
            case .edges: MemoryLayout<LandFillIndex.Edge>.stride
            case .coastlineXs, .coastlineYs, .boundaryXs, .boundaryYs: MemoryLayout<Double>.stride
            case .coastlineChunks, .boundaryChunks: MemoryLayout<LineLayer.Chunk>.stride
            }
        }
    }

    // The header: magic, version and byte order, the value layout, the scale, the sources'
    // stamps, the distinct edge count, then (offset, count) for each section.
    static let layoutOffset = 16
    static let resolutionOffset = 32
    static let sourcesOffset = 40
    static let edgeCountOffset = sourcesOffset + MapSources.fileCount * MapSourceStamp.byteCount
    static let sectionsOffset = edgeCountOffset + 8
    static let headerSize = sectionsOffset + Section.allCases.count * 16

    /// Why a file was not used: `stale` is a good file for other sources or another build of
    /// the app (replaced), `damaged` one that is not what the app writes (moved aside).
    enum Refusal: Error, Equatable {
        case stale
        case damaged(String)
    }

    /// Sizes and field offsets of the stored values: a file written by a build that lays them out
    /// otherwise is stale, never misread.
    static let layout: [UInt64] = {
        typealias Edge = LandFillIndex.Edge
        typealias Chunk = LineLayer.Chunk
        let edge = [MemoryLayout<Edge>.stride, MemoryLayout<Edge>.offset(of: \.y0)!, MemoryLayout<Edge>.offset(of: \.y1)!,
                    MemoryLayout<Edge>.offset(of: \.slope)!]
        let chunk = [MemoryLayout<Chunk>.stride, MemoryLayout<Chunk>.offset(of: \.end)!, MemoryLayout<Chunk>.offset(of: \.west)!,
                     MemoryLayout<Chunk>.offset(of: \.south)!, MemoryLayout<Chunk>.offset(of: \.east)!,
                     MemoryLayout<Chunk>.offset(of: \.north)!, MemoryLayout<Int>.stride]
        // One byte each: every one is well under 256.
        var packed: [UInt64] = [0, 0]
        for (index, value) in (edge + chunk).enumerated() { packed[index / 8] |= UInt64(value & 0xff) << (8 * UInt64(index % 8)) }
        return packed
    }()

    // MARK: Writing

    static func encode(_ level: MapLevel, sources: MapSources) -> Data {
        let runs: [UnsafeRawBufferPointer] = Section.allCases.map { section in
            switch section {
            case .bandStarts: level.land.bandStarts.bytes
            case .edges: level.land.edges.bytes
            case .coastlineXs: level.coastlines.xs.bytes
            case .coastlineYs: level.coastlines.ys.bytes
            case .coastlineChunks: level.coastlines.chunks.bytes
            case .boundaryXs: level.boundaries.xs.bytes
            case .boundaryYs: level.boundaries.ys.bytes
            case .boundaryChunks: level.boundaries.chunks.bytes
            }
        }
        var offsets: [Int] = []
        var end = headerSize
        for run in runs {
            offsets.append(end)
            end += (run.count + 7) & ~7
        }
        // Made as the Data that is written, so a 35 MB index is never held twice.
        var file = Data(count: end)
        file.withUnsafeMutableBytes { out in
            out.copyBytes(from: magic)
            out.storeBytes(of: version.littleEndian, toByteOffset: 8, as: UInt32.self)
            out.storeBytes(of: byteOrderMark, toByteOffset: 12, as: UInt32.self)
            for (index, word) in layout.enumerated() { out.storeBytes(of: word, toByteOffset: layoutOffset + 8 * index, as: UInt64.self) }
            out.storeBytes(of: UInt64(level.resolution.code), toByteOffset: resolutionOffset, as: UInt64.self)
            for (index, stamp) in sources.stamps.enumerated() { stamp.store(in: out, at: sourcesOffset + index * MapSourceStamp.byteCount) }
            out.storeBytes(of: Int64(level.land.edgeCount), toByteOffset: edgeCountOffset, as: Int64.self)
            for (index, section) in Section.allCases.enumerated() {
                let run = runs[index]
                out.storeBytes(of: Int64(offsets[index]), toByteOffset: sectionsOffset + 16 * index, as: Int64.self)
                out.storeBytes(of: Int64(run.count / section.stride), toByteOffset: sectionsOffset + 16 * index + 8, as: Int64.self)
                if run.count > 0 { UnsafeMutableRawBufferPointer(rebasing: out[offsets[index]..<offsets[index] + run.count]).copyMemory(from: run) }
            }
        }
        return file
    }

    // MARK: Reading

    /// The scale in `file`, when it was made for `resolution` from `sources` as they are now by a
    /// build that lays values out as this one does.
    static func decode(_ file: MappedFile, resolution: MapResolution, sources: MapSources) throws(Refusal) -> MapLevel {
        let bytes = file.bytes
        guard bytes.count >= headerSize else { throw .damaged("\(bytes.count) bytes, shorter than its \(headerSize)-byte header") }
        guard bytes.prefix(magic.count).elementsEqual(magic) else { throw .damaged("not a map index (its first bytes are not WLMAPIDX)") }
        func word<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T { bytes.loadUnaligned(fromByteOffset: offset, as: T.self) }
        guard UInt32(littleEndian: word(8, UInt32.self)) == version, word(12, UInt32.self) == byteOrderMark,
              layout.enumerated().allSatisfy({ word(layoutOffset + 8 * $0.offset, UInt64.self) == $0.element }),
              word(resolutionOffset, UInt64.self) == UInt64(resolution.code) else { throw .stale }
        for index in 0..<MapSources.fileCount where MapSourceStamp(loadingFrom: bytes, at: sourcesOffset + index * MapSourceStamp.byteCount) != sources.stamps[index] {
            throw .stale
        }

        var runs: [(offset: Int, count: Int)] = []
        for section in Section.allCases {
            let offset = Int(truncatingIfNeeded: word(sectionsOffset + 16 * section.rawValue, Int64.self))
            let count = Int(truncatingIfNeeded: word(sectionsOffset + 16 * section.rawValue + 8, Int64.self))
            guard offset >= headerSize, offset % 8 == 0, offset <= bytes.count, count >= 0, count <= (bytes.count - offset) / section.stride else {
                throw .damaged("its \(section) lie outside its \(bytes.count) bytes")
            }
            runs.append((offset, count))
        }
        func run<Element: BitwiseCopyable>(_ section: Section, _: Element.Type) -> FlatArray<Element> {
            FlatArray(file, byteOffset: runs[section.rawValue].offset, count: runs[section.rawValue].count)
        }

        let edges = run(.edges, LandFillIndex.Edge.self)
        let bandStarts = run(.bandStarts, Int.self)
        let edgeCount = Int(truncatingIfNeeded: word(edgeCountOffset, Int64.self))
        try checkBands(bandStarts, edges: edges.count)
        guard edgeCount >= 0, edgeCount <= edges.count else { throw .damaged("it counts \(edgeCount) edges among \(edges.count)") }
        let coastlines = try layer(run(.coastlineXs, Double.self), run(.coastlineYs, Double.self), run(.coastlineChunks, LineLayer.Chunk.self), "coastlines")
        let boundaries = try layer(run(.boundaryXs, Double.self), run(.boundaryYs, Double.self), run(.boundaryChunks, LineLayer.Chunk.self), "borders")
        return MapLevel(resolution: resolution, land: LandFillIndex(edges: edges, bandStarts: bandStarts, edgeCount: edgeCount),
                        coastlines: coastlines, boundaries: boundaries)
    }

    private static func checkBands(_ starts: FlatArray<Int>, edges: Int) throws(Refusal) {
        guard (2...LandFillIndex.maximumBandCount + 1).contains(starts.count), starts[0] == 0, starts[starts.count - 1] == edges else {
            throw .damaged("its \(starts.count - 1) land bands do not span its \(edges) edges")
        }
        for band in 1..<starts.count where starts[band] < starts[band - 1] {
            throw .damaged("land band \(band - 1) ends before it starts")
        }
    }

    private static func layer(_ xs: FlatArray<Double>, _ ys: FlatArray<Double>, _ chunks: FlatArray<LineLayer.Chunk>, _ name: String) throws(Refusal) -> LineLayer {
        guard xs.count == ys.count else { throw .damaged("its \(name) have \(xs.count) longitudes and \(ys.count) latitudes") }
        for (index, chunk) in chunks.enumerated() {
            guard chunk.start >= 0, chunk.start < chunk.end, chunk.end <= xs.count else {
                throw .damaged("chunk \(index) of its \(name) lists points \(chunk.start)..<\(chunk.end) of \(xs.count)")
            }
            guard abs(chunk.west) <= 180.5, abs(chunk.east) <= 180.5, abs(chunk.south) <= 90.5, abs(chunk.north) <= 90.5 else {
                throw .damaged("chunk \(index) of its \(name) has a box outside longitude and latitude")
            }
        }
        return LineLayer(xs: xs, ys: ys, chunks: chunks)
    }
}
