import CZlib

/// A read-only zip archive: its entries as the central directory lists them (see
/// `ZipDirectory` for what is checked there) and their bytes on demand. Stored and deflated
/// entries only; every extraction is capped by the caller's limit and by the size the entry
/// declares, counted on the bytes actually produced, and ends with the CRC-32 check.
final class ZipArchive {
    let entries: [ZipEntry]
    private let file: ZipFile

    /// Takes over `descriptor`, an open regular file of `size` bytes.
    init(descriptor: Int32, size: Int, maximumEntries: Int) throws(ZipError) {
        file = ZipFile(descriptor: descriptor, size: size)
        entries = try ZipDirectory.entries(of: file, maximumEntries: maximumEntries)
    }

    /// The entry's bytes, refused with `.tooBig` as soon as they pass `limit` or the size the
    /// entry declares.
    func extract(_ entry: ZipEntry, limit: Int) throws(ZipError) -> [UInt8] {
        guard !entry.isEncrypted else { throw .encrypted }
        guard entry.method == 0 || entry.method == 8 else { throw .unsupportedMethod(entry.method) }
        guard entry.uncompressedSize <= UInt64(max(0, limit)) else { throw .tooBig }
        let cap = entry.uncompressedSize
        let start = try dataStart(of: entry)

        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(min(cap, entry.compressedSize &* 1_032 &+ 1_024)))
        var crc = CZlib.crc32(0, nil, 0)
        let sink = { (chunk: UnsafeRawBufferPointer) throws(ZipError) in
            guard UInt64(chunk.count) <= cap - UInt64(bytes.count) else { throw .tooBig }
            crc = CZlib.crc32(crc, chunk.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(chunk.count))
            bytes.append(contentsOf: chunk)
        }
        var offset = start
        let end = start + entry.compressedSize
        let source = { (buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int in
            let count = Int(min(UInt64(buffer.count), end - offset))
            try self.file.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
            offset += UInt64(count)
            return count
        }

        do {
            if entry.method == 0 {
                guard entry.compressedSize == entry.uncompressedSize else {
                    throw ZipError.damaged("a stored entry's two sizes differ")
                }
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ZipInflater.chunk, alignment: 16)
                defer { buffer.deallocate() }
                while true {
                    let count = try source(buffer)
                    if count == 0 { break }
                    try sink(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                }
            } else {
                try ZipInflater().inflate(from: source, into: sink)
            }
        } catch let error as ZipError {
            throw error
        } catch {
            throw .damaged("\(error)")
        }
        guard UInt64(bytes.count) == entry.uncompressedSize else { throw .damaged("it is shorter than it says") }
        guard UInt32(truncatingIfNeeded: crc) == entry.crc32 else { throw .damaged("its CRC-32 does not match") }
        return bytes
    }

    /// Where the entry's data begins: after its local header, whose name and extra field may
    /// not be the lengths the central directory gave. Its sizes and CRC are not read there (with
    /// flag bit 3 they follow the data instead); the central directory's are the ones checked.
    private func dataStart(of entry: ZipEntry) throws(ZipError) -> UInt64 {
        let header = try file.read(at: entry.localHeaderOffset, count: Int(ZipDirectory.localHeaderLength))
        guard header.le32(0) == 0x0403_4B50 else { throw .damaged("its local header is missing") }
        let start = entry.localHeaderOffset + ZipDirectory.localHeaderLength
            + UInt64(header.le16(26)) + UInt64(header.le16(28))
        guard start <= entry.dataLimit, entry.compressedSize <= entry.dataLimit - start else {
            throw .damaged("its data runs into the next entry")
        }
        return start
    }
}
