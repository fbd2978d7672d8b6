/// Reads a zip archive's central directory: finds the end-of-central-directory record (and its
/// ZIP64 form), then walks the directory's entries. Nothing the archive says is taken on trust:
/// the entry count is capped before anything is read, every offset and length is checked against
/// the file, and entries whose local header and data would overlap another's are refused, so the
/// entries handed out can be read without further doubt about where they lie.
enum ZipDirectory {
    /// The longest entry name taken, in bytes: a path longer than any file system's is a sign of
    /// a hostile archive, not of a book.
    static let maximumNameLength = 4_096

    static let endSignature: UInt32 = 0x0605_4B50
    static let zip64EndSignature: UInt32 = 0x0606_4B50
    static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    static let centralSignature: UInt32 = 0x0201_4B50
    static let endLength = 22
    static let centralHeaderLength = 46
    static let localHeaderLength: UInt64 = 30

    /// Where the directory is, as the end record(s) give it.
    struct End: Equatable {
        var entryCount: UInt64
        var offset: UInt64
        var size: UInt64
        /// Where the end records begin: the directory must end before it.
        var limit: UInt64
    }

    static func entries(of file: ZipFile, maximumEntries: Int) throws(ZipError) -> [ZipEntry] {
        let end = try findEnd(in: file)
        guard end.entryCount <= UInt64(maximumEntries) else { throw .tooManyEntries }
        guard end.offset <= end.limit, end.size <= end.limit - end.offset else {
            throw .malformed("the central directory lies outside the archive")
        }
        guard end.size >= end.entryCount * UInt64(centralHeaderLength) else {
            throw .malformed("the central directory is too small for its \(end.entryCount) entries")
        }
        var reader = Window(file: file, start: end.offset, end: end.offset + end.size)
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(end.entryCount))
        for _ in 0..<end.entryCount {
            entries.append(try reader.entry(directoryOffset: end.offset))
        }
        try bound(&entries, directoryOffset: end.offset)
        return entries
    }

    /// The end record is the last thing in the file, followed only by a comment of up to 64 KB:
    /// it is looked for backwards over the last 65,535 + 22 bytes and nowhere else.
    static func findEnd(in file: ZipFile) throws(ZipError) -> End {
        guard file.size >= UInt64(endLength) else { throw .notAZip }
        let tailLength = Int(min(file.size, UInt64(0xFFFF + endLength)))
        let tailStart = file.size - UInt64(tailLength)
        let tail = try file.read(at: tailStart, count: tailLength)
        var position = tailLength - endLength
        while position >= 0 {
            if tail.le32(position) == endSignature,
               position + endLength + Int(tail.le16(position + 20)) <= tailLength {
                return try end(record: Array(tail[position..<(position + endLength)]),
                               at: tailStart + UInt64(position), in: file)
            }
            position -= 1
        }
        throw .notAZip
    }

    private static func end(record: [UInt8], at offset: UInt64, in file: ZipFile) throws(ZipError) -> End {
        // ZIP64 writers may put 0xFFFF in the disk numbers and give the real ones (checked below).
        guard [0, 0xFFFF].contains(record.le16(4)), [0, 0xFFFF].contains(record.le16(6)) else {
            throw .malformed("the archive spans several disks")
        }
        var end = End(entryCount: UInt64(record.le16(10)), offset: UInt64(record.le32(16)),
                      size: UInt64(record.le32(12)), limit: offset)
        // A ZIP64 locator sits right before the end record when the archive has one.
        guard offset >= 20 else { return end }
        let locator = try file.read(at: offset - 20, count: 20)
        guard locator.le32(0) == zip64LocatorSignature else { return end }
        let recordOffset = locator.le64(8)
        guard recordOffset <= offset - 20, offset - 20 - recordOffset >= 56 else {
            throw .malformed("the ZIP64 end record lies outside the archive")
        }
        let zip64 = try file.read(at: recordOffset, count: 56)
        guard zip64.le32(0) == zip64EndSignature else { throw .malformed("the ZIP64 end record is missing") }
        guard zip64.le32(16) == 0, zip64.le32(20) == 0 else { throw .malformed("the archive spans several disks") }
        end = End(entryCount: zip64.le64(32), offset: zip64.le64(48), size: zip64.le64(40), limit: recordOffset)
        return end
    }

    /// Sets each entry's data limit (the next local header, or the directory) and refuses
    /// entries that cannot fit there: two entries at one offset, or data that would run into
    /// the next entry, are how an archive makes a few bytes inflate many times over.
    private static func bound(_ entries: inout [ZipEntry], directoryOffset: UInt64) throws(ZipError) {
        let order = entries.indices.sorted { entries[$0].localHeaderOffset < entries[$1].localHeaderOffset }
        for (rank, index) in order.enumerated() {
            let limit = rank + 1 < order.count ? entries[order[rank + 1]].localHeaderOffset : directoryOffset
            let entry = entries[index]
            guard entry.localHeaderOffset < limit,
                  limit - entry.localHeaderOffset >= localHeaderLength,
                  entry.compressedSize <= limit - entry.localHeaderOffset - localHeaderLength else {
                throw .malformed("\(entry.name) overlaps another entry or the central directory")
            }
            entries[index].dataLimit = limit
        }
    }

    /// A sequential reader over the central directory that fetches it from the file 64 KB at a
    /// time, so a directory is never read whole into memory on the strength of its stated size.
    private struct Window {
        let file: ZipFile
        var position: UInt64
        let end: UInt64
        var buffer: [UInt8] = []
        var bufferStart: UInt64 = 0

        init(file: ZipFile, start: UInt64, end: UInt64) {
            self.file = file
            self.position = start
            self.end = end
        }

        /// The next `count` bytes of the directory.
        mutating func take(_ count: Int) throws(ZipError) -> ArraySlice<UInt8> {
            guard UInt64(count) <= end - position else { throw .malformed("an entry runs past the end of the central directory") }
            let bufferEnd = bufferStart + UInt64(buffer.count)
            if position < bufferStart || position + UInt64(count) > bufferEnd {
                let length = Int(min(end - position, UInt64(max(count, 65_536))))
                buffer = try file.read(at: position, count: length)
                bufferStart = position
            }
            let start = Int(position - bufferStart)
            position += UInt64(count)
            return buffer[start..<(start + count)]
        }

        mutating func entry(directoryOffset: UInt64) throws(ZipError) -> ZipEntry {
            let header = Array(try take(centralHeaderLength))
            guard header.le32(0) == centralSignature else { throw .malformed("a central directory entry has no signature") }
            let flags = header.le16(8)
            let nameLength = Int(header.le16(28))
            let extraLength = Int(header.le16(30))
            let commentLength = Int(header.le16(32))
            guard nameLength <= maximumNameLength else { throw .malformed("an entry name is \(nameLength) bytes long") }
            let name = ZipEntry.decodeName(Array(try take(nameLength)), flags: flags)
            let extra = Array(try take(extraLength))
            _ = try take(commentLength)

            var compressed = UInt64(header.le32(20))
            var uncompressed = UInt64(header.le32(24))
            var localOffset = UInt64(header.le32(42))
            if compressed == 0xFFFF_FFFF || uncompressed == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF {
                // The ZIP64 extra field holds the real values, in this order, for those maxed out.
                guard var field = Self.zip64Field(in: extra) else { throw .malformed("\(name) has no ZIP64 sizes") }
                func next() throws(ZipError) -> UInt64 {
                    guard field.count >= 8 else { throw .malformed("\(name) has a short ZIP64 field") }
                    defer { field = field.dropFirst(8) }
                    return field.le64(field.startIndex)
                }
                if uncompressed == 0xFFFF_FFFF { uncompressed = try next() }
                if compressed == 0xFFFF_FFFF { compressed = try next() }
                if localOffset == 0xFFFF_FFFF { localOffset = try next() }
            }
            guard header.le16(34) == 0 || header.le16(34) == 0xFFFF else { throw .malformed("\(name) lies on another disk") }
            guard localOffset < directoryOffset else { throw .malformed("\(name) starts past the central directory") }

            let external = header.le32(38)
            let madeBy = header.le16(4) >> 8
            var kind: ZipEntry.Kind = name.hasSuffix("/") ? .directory : .file
            switch madeBy {
            case 3, 19:  // Unix, macOS: a file mode in the high half
                switch (external >> 16) & 0o170000 {
                case 0o040000: kind = .directory
                case 0o120000: kind = .symbolicLink
                default: break
                }
            case 0:  // MS-DOS attributes
                if external & 0x10 != 0 { kind = .directory }
            default: break
            }
            return ZipEntry(name: name, kind: kind, flags: flags, method: header.le16(10), crc32: header.le32(16),
                            compressedSize: compressed, uncompressedSize: uncompressed,
                            localHeaderOffset: localOffset, dataLimit: directoryOffset)
        }

        /// The data of the extra field's ZIP64 block (tag 1), if it has one that fits.
        static func zip64Field(in extra: [UInt8]) -> ArraySlice<UInt8>? {
            var position = 0
            while position + 4 <= extra.count {
                let tag = extra.le16(position)
                let length = Int(extra.le16(position + 2))
                guard position + 4 + length <= extra.count else { return nil }
                if tag == 0x0001 { return extra[(position + 4)..<(position + 4 + length)] }
                position += 4 + length
            }
            return nil
        }
    }
}

extension Collection where Element == UInt8, Index == Int {
    /// Little-endian integers at `offset`, which the caller has checked lies inside.
    func le16(_ offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    func le32(_ offset: Int) -> UInt32 { UInt32(le16(offset)) | UInt32(le16(offset + 2)) << 16 }
    func le64(_ offset: Int) -> UInt64 { UInt64(le32(offset)) | UInt64(le32(offset + 4)) << 32 }
}
