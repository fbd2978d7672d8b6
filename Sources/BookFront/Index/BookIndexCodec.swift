import FoundationEssentials

/// The book index file: a magic, a version, the payload's length and XXH64, then the payload.
/// Reading believes nothing: a torn or altered file fails its hash, and even a file that passes
/// (written by another program on purpose) must hold offsets inside the book, in order, and
/// counts and strings within bounds, or it is refused whole.
enum BookIndexCodec {
    static let magic = Array("WLBKIDX1".utf8)
    static let version: UInt32 = 1
    static let headerSize = magic.count + 4 + 8 + 8

    static let textLimit = 4096
    static let chapterLimit = 1 << 20
    static let levelLimit = 64
    static let widthLimit = 4096
    static let noteLimit = 64

    private static let emphasisCodes: [TextEmphasis.Kind: UInt8] = [.emphasis: 0, .strong: 1, .heading: 2]
    private static let emphasisKinds = Dictionary(uniqueKeysWithValues: emphasisCodes.map { ($1, $0) })

    enum Problem: Error, Equatable, CustomStringConvertible {
        /// Written for another file, another state of this one, or another version of the format.
        case stale
        /// Not an index this app wrote, or damaged: `reason` says where.
        case corrupt(String)

        var description: String {
            switch self {
            case .stale: "is for another version of the book"
            case .corrupt(let reason): "is damaged (\(reason))"
            }
        }
    }

    static func encode(_ index: BookIndex) -> Data {
        var payload = IndexByteWriter()
        encode(index.identity, into: &payload)
        payload.string(index.bookID)
        payload.optionalString(index.detectedTitle)
        payload.int(index.invalidSequences)
        payload.u8(index.decoded == nil ? 0 : 1)
        if let decoded = index.decoded {
            payload.int(decoded.text.count)
            payload.raw(Array(decoded.text))
            payload.u32(UInt32(decoded.notes.count))
            for note in decoded.notes { payload.string(note) }
            payload.u32(UInt32(decoded.emphasis.count))
            for mark in decoded.emphasis {
                payload.int(mark.range.lowerBound)
                payload.int(mark.range.upperBound)
                payload.u8(emphasisCodes[mark.kind]!)
            }
        }
        payload.u32(UInt32(index.chapters.count))
        for chapter in index.chapters {
            payload.int(chapter.offset)
            payload.u32(UInt32(chapter.level))
            payload.string(chapter.title)
            payload.optionalString(chapter.heading)
            payload.optionalString(chapter.subtitle)
        }
        payload.u32(UInt32(index.lineCounts.count))
        for count in index.lineCounts {
            payload.u32(UInt32(count.width))
            payload.int(count.totalLines)
            payload.u32(UInt32(count.checkpoints.count))
            for checkpoint in count.checkpoints {
                payload.int(checkpoint.blockStart)
                payload.int(checkpoint.linesBefore)
            }
        }
        var file = IndexByteWriter()
        file.raw(magic)
        file.u32(version)
        file.u64(UInt64(payload.bytes.count))
        file.u64(payload.bytes.withUnsafeBytes { XXH64.hash($0, seed: 3) })
        file.raw(payload.bytes)
        return Data(file.bytes)
    }

    /// The index in `data` if it was written for the file `identity` names.
    static func decode(_ data: Data, for identity: FileIdentity) throws(Problem) -> BookIndex {
        do {
            var reader = IndexByteReader(Array(data))
            guard Array(try reader.take(magic.count)) == magic else { throw Problem.corrupt("not a book index") }
            guard try reader.u32() == version else { throw Problem.stale }
            let length = try reader.u64()
            let hash = try reader.u64()
            guard length == UInt64(reader.remaining) else { throw Problem.corrupt("payload is \(reader.remaining) bytes, header says \(length)") }
            let payload = Array(try reader.take(reader.remaining))
            guard payload.withUnsafeBytes({ XXH64.hash($0, seed: 3) }) == hash else { throw Problem.corrupt("checksum mismatch") }
            var fields = IndexByteReader(payload)
            guard try decodeIdentity(&fields) == identity else { throw Problem.stale }
            let index = try decodeFields(&fields, identity: identity)
            guard fields.remaining == 0 else { throw Problem.corrupt("\(fields.remaining) bytes after the last field") }
            return index
        } catch let problem as Problem {
            throw problem
        } catch {
            throw .corrupt("\(error)")
        }
    }

    private static func encode(_ identity: FileIdentity, into writer: inout IndexByteWriter) {
        writer.u64(identity.device)
        writer.u64(identity.inode)
        writer.u64(identity.size)
        for stamp in [identity.modified, identity.changed] {
            writer.i64(stamp.seconds)
            writer.i64(stamp.nanoseconds)
        }
        writer.u64(identity.sampleHash)
    }

    private static func decodeIdentity(_ reader: inout IndexByteReader) throws -> FileIdentity {
        let device = try reader.u64(), inode = try reader.u64(), size = try reader.u64()
        let modified = FileIdentity.Timestamp(seconds: try reader.i64(), nanoseconds: try reader.i64())
        let changed = FileIdentity.Timestamp(seconds: try reader.i64(), nanoseconds: try reader.i64())
        return FileIdentity(device: device, inode: inode, size: size, modified: modified, changed: changed, sampleHash: try reader.u64())
    }

    private static func decodeFields(_ reader: inout IndexByteReader, identity: FileIdentity) throws -> BookIndex {
        let bookID = try reader.string(atMost: 16, "book id")
        guard bookID.count == 16, bookID.allSatisfy(\.isHexDigit) else { throw Problem.corrupt("book id \(bookID.debugDescription)") }
        let title = try reader.optionalString(atMost: textLimit, "title")
        let invalid = try reader.int(atMost: Int(clamping: identity.size), "invalid sequence count")
        let decoded: BookIndex.DecodedText?
        switch try reader.u8() {
        case 0: decoded = nil
        case 1: decoded = try decodeText(&reader)
        case let flag: throw Problem.corrupt("text flag \(flag)")
        }
        // Offsets are into the decoded text when there is one, else into the file.
        let size = decoded?.text.count ?? Int(clamping: identity.size)

        var chapters: [BookChapter] = []
        let chapterCount = try reader.count(atMost: min(chapterLimit, size), "chapters")
        for _ in 0..<chapterCount {
            let offset = try reader.int(atMost: decoded == nil ? size - 1 : size, "chapter offset")
            guard offset >= (chapters.last?.offset ?? 0) else { throw Problem.corrupt("chapter offsets out of order") }
            let level = Int(try reader.u32())
            guard level <= levelLimit else { throw Problem.corrupt("chapter level \(level)") }
            let title = try reader.string(atMost: textLimit, "chapter title")
            let heading = try reader.optionalString(atMost: textLimit, "chapter heading")
            let subtitle = try reader.optionalString(atMost: textLimit, "chapter subtitle")
            chapters.append(BookChapter(title: title, offset: offset, level: level, heading: heading, subtitle: subtitle))
        }

        var index = BookIndex(identity: identity, bookID: bookID, detectedTitle: title, invalidSequences: invalid, chapters: chapters, decoded: decoded)
        let countCount = try reader.count(atMost: BookIndex.lineCountLimit, "page counts")
        for _ in 0..<countCount {
            let count = try decodeLineCount(&reader, size: size)
            guard index.lineCount(width: count.width) == nil else { throw Problem.corrupt("two page counts at width \(count.width)") }
            index.remember(count)
        }
        return index
    }

    /// An EPUB's text (not empty) with its notes and emphasis, every range inside the text.
    private static func decodeText(_ reader: inout IndexByteReader) throws -> BookIndex.DecodedText {
        let length = try reader.int(atMost: BookIndexStore.fileLimit.bytes, "text length")
        guard length > 0 else { throw Problem.corrupt("an empty text") }
        let text = Data(try reader.take(length))
        var notes: [String] = []
        for _ in 0..<(try reader.count(atMost: noteLimit, "notes")) { notes.append(try reader.string(atMost: textLimit, "note")) }
        var emphasis: [TextEmphasis] = []
        for _ in 0..<(try reader.count(atMost: length, "emphasis")) {
            let start = try reader.int(atMost: length, "emphasis start")
            let end = try reader.int(atMost: length, "emphasis end")
            guard start <= end, let kind = emphasisKinds[try reader.u8()] else { throw Problem.corrupt("emphasis \(start)..<\(end)") }
            emphasis.append(TextEmphasis(range: start..<end, kind: kind))
        }
        return BookIndex.DecodedText(text: text, emphasis: emphasis, notes: notes)
    }

    /// Checkpoints start at (0, 0), then go strictly forward in the text and never back in
    /// lines; a line holds at least one byte, so a book has no more lines than bytes.
    private static func decodeLineCount(_ reader: inout IndexByteReader, size: Int) throws -> LineCount {
        let width = Int(try reader.u32())
        guard (1...widthLimit).contains(width) else { throw Problem.corrupt("page count width \(width)") }
        let total = try reader.int(atMost: size, "line total")
        let checkpointCount = try reader.count(atMost: size / LineCount.checkpointSpacing + 2, "checkpoints")
        guard checkpointCount >= 1 else { throw Problem.corrupt("a page count without checkpoints") }
        var checkpoints: [(blockStart: Int, linesBefore: Int)] = []
        checkpoints.reserveCapacity(checkpointCount)
        for _ in 0..<checkpointCount {
            let start = try reader.int(atMost: size - 1, "checkpoint offset")
            let lines = try reader.int(atMost: total, "checkpoint line")
            if let last = checkpoints.last {
                guard start > last.blockStart, lines >= last.linesBefore else { throw Problem.corrupt("checkpoints out of order") }
            } else {
                guard start == 0, lines == 0 else { throw Problem.corrupt("first checkpoint is not the start") }
            }
            checkpoints.append((start, lines))
        }
        return LineCount(width: width, totalLines: total, checkpoints: checkpoints)
    }
}
