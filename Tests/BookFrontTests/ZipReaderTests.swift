import Foundation
import Testing
@testable import BookFront
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The zip reader behind EPUBArchive, on archives built field by field (`RawZip`): what it
/// reads, and every way a hostile archive can lie to it.
@Suite struct ZipReaderTests {
    /// Opens `zip` as the EPUB loader does: a descriptor on a file of its own.
    private func open(_ bytes: [UInt8], maximumEntries: Int = EPUBArchive.maximumEntries) throws -> ZipArchive {
        let path = try BookFixture.write(bytes, name: "test.zip")
        defer { BookFixture.remove(path) }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        return try ZipArchive(descriptor: descriptor, size: bytes.count, maximumEntries: maximumEntries)
    }

    private func open(_ zip: RawZip) throws -> ZipArchive { try open(zip.bytes()) }

    private func openingError(_ bytes: [UInt8], maximumEntries: Int = EPUBArchive.maximumEntries) -> ZipError? {
        do {
            _ = try open(bytes, maximumEntries: maximumEntries)
            return nil
        } catch {
            return error as? ZipError
        }
    }

    private func extractionError(_ archive: ZipArchive, _ name: String, limit: Int = EPUBArchive.entryLimit) throws -> ZipError? {
        let entry = try #require(archive.entries.first { $0.name == name })
        do {
            _ = try archive.extract(entry, limit: limit)
            return nil
        } catch {
            return error
        }
    }

    private func contents(_ archive: ZipArchive, _ name: String) throws -> [UInt8] {
        try archive.extract(try #require(archive.entries.first { $0.name == name }), limit: EPUBArchive.entryLimit)
    }

    /// What EPUBArchive says about `zip`, at opening or at reading `entry`.
    private func reason(_ zip: RawZip, reading entry: String? = nil) throws -> String? {
        let path = try BookFixture.write(zip.bytes(), name: "book.epub")
        defer { BookFixture.remove(path) }
        do {
            let archive = try EPUBArchive(path: path)
            if let entry { _ = try archive.read(entry) }
            return nil
        } catch let error as BookLoadError {
            return error.reason
        }
    }

    static let chapter = Array(String(repeating: "Alice was beginning to get very tired of sitting by her sister on the bank. ", count: 200).utf8)

    @Test func storedAndDeflatedEntriesReadBack() throws {
        var descriptor = RawZip.Entry("OEBPS/late.xhtml", Self.chapter, deflated: true)
        descriptor.dataDescriptor = true
        var extras = RawZip.Entry("OEBPS/extra.css", "p { margin: 0 }")
        extras.localExtra = [0x55, 0x54, 0x05, 0x00, 1, 2, 3, 4, 5]  // a timestamp field the central copy lacks
        var folder = RawZip.Entry("OEBPS/", [UInt8]())
        folder.external = 0o040755 << 16
        let zip = RawZip([
            RawZip.Entry("mimetype", "application/epub+zip"),
            RawZip.Entry("OEBPS/chapter.xhtml", Self.chapter, deflated: true),
            RawZip.Entry("OEBPS/empty.xhtml", [], deflated: true),
            folder, descriptor, extras,
        ])
        let deflatedSize = RawZip.deflate(Self.chapter).count
        #expect(deflatedSize < Self.chapter.count / 10, "the chapter is really compressed")
        let archive = try open(zip)
        #expect(archive.entries.map(\.name) == ["mimetype", "OEBPS/chapter.xhtml", "OEBPS/empty.xhtml", "OEBPS/", "OEBPS/late.xhtml", "OEBPS/extra.css"])
        #expect(archive.entries.map(\.kind) == [.file, .file, .file, .directory, .file, .file])
        #expect(try contents(archive, "mimetype") == Array("application/epub+zip".utf8))
        #expect(try contents(archive, "OEBPS/chapter.xhtml") == Self.chapter)
        #expect(try contents(archive, "OEBPS/empty.xhtml") == [])
        #expect(try contents(archive, "OEBPS/late.xhtml") == Self.chapter)
        #expect(try contents(archive, "OEBPS/extra.css") == Array("p { margin: 0 }".utf8))
    }

    @Test func zip64RecordsAndSizesAreRead() throws {
        var deflated = RawZip.Entry("OEBPS/chapter.xhtml", Self.chapter, deflated: true)
        deflated.zip64 = true
        var zip = RawZip([RawZip.Entry("mimetype", "application/epub+zip"), deflated])
        zip.zip64End = true
        let archive = try open(zip)
        #expect(archive.entries.map(\.uncompressedSize) == [20, UInt64(Self.chapter.count)])
        #expect(try contents(archive, "OEBPS/chapter.xhtml") == Self.chapter)
    }

    @Test func aBadCRCIsRefused() throws {
        var stored = RawZip.Entry("stored.txt", "the stored text")
        stored.crc = RawZip.crc32(stored.data) ^ 1
        var deflated = RawZip.Entry("deflated.txt", Self.chapter, deflated: true)
        deflated.crc = 0x1234_5678
        let archive = try open(RawZip([stored, deflated]))
        #expect(try extractionError(archive, "stored.txt") == .damaged("its CRC-32 does not match"))
        #expect(try extractionError(archive, "deflated.txt") == .damaged("its CRC-32 does not match"))
        #expect(try reason(RawZip([stored]), reading: "stored.txt") == "is not a valid EPUB (stored.txt is damaged in the archive)")
    }

    @Test func aZipBombStopsAtTheSizeItDeclares() throws {
        // 8 MB of zeros deflate to about 8 KB; the directory says the entry is 1,000 bytes.
        var bomb = RawZip.Entry("OEBPS/bomb.xhtml", [UInt8](repeating: 0, count: 8 << 20), deflated: true)
        bomb.uncompressedSize = 1_000
        bomb.crc = 0
        let zip = RawZip([bomb])
        #expect(zip.bytes().count < 20_000)
        #expect(try extractionError(open(zip), "OEBPS/bomb.xhtml") == .tooBig)
        #expect(try reason(zip, reading: "OEBPS/bomb.xhtml") == "refused: OEBPS/bomb.xhtml is too big once unpacked (the limit is 64 MB a file, 200 MB in all)")

        // Honest about its size, it is refused by the caller's limit before anything is inflated.
        var honest = bomb
        honest.uncompressedSize = nil
        #expect(try extractionError(open(RawZip([honest])), "OEBPS/bomb.xhtml", limit: 1 << 20) == .tooBig)
    }

    @Test func lyingSizesAreRefused() throws {
        // Compressed size past the central directory: the data would overlap it.
        var long = RawZip.Entry("a.txt", "some text")
        long.compressedSize = 10_000
        long.uncompressedSize = 10_000
        #expect(openingError(RawZip([long]).bytes()) == .malformed("a.txt overlaps another entry or the central directory"))

        // Declared bigger than what the stream holds.
        var short = RawZip.Entry("b.txt", Self.chapter, deflated: true)
        short.uncompressedSize = UInt32(Self.chapter.count + 1)
        #expect(try extractionError(open(RawZip([short])), "b.txt") == .damaged("it is shorter than it says"))

        // A stored entry whose two sizes differ.
        var stored = RawZip.Entry("c.txt", "twelve bytes")
        stored.uncompressedSize = 11
        #expect(try extractionError(open(RawZip([stored])), "c.txt") == .damaged("a stored entry's two sizes differ"))

        // A deflate stream cut short by its compressed size.
        var cut = RawZip.Entry("d.txt", Self.chapter, deflated: true)
        cut.payload = Array(RawZip.deflate(Self.chapter).dropLast(20))
        #expect(try extractionError(open(RawZip([cut])), "d.txt") == .damaged("its compressed data is cut short"))

        // A local header longer than the central directory has room for.
        var swollen = RawZip.Entry("e.txt", "text")
        swollen.localExtra = [UInt8](repeating: 0, count: 8)
        var zip = RawZip([swollen])
        var bytes = zip.bytes()
        bytes[28] = 0xFF  // the local header's extra length
        #expect(try extractionError(open(bytes), "e.txt") == .damaged("its data runs into the next entry"))
        zip.entries.append(RawZip.Entry("f.txt", "more"))
        bytes = zip.bytes()
        bytes[28] = 0x40
        #expect(try extractionError(open(bytes), "e.txt") == .damaged("its data runs into the next entry"))
    }

    @Test func offsetsPastTheEndAreRefused() throws {
        var far = RawZip.Entry("a.txt", "text")
        far.localOffset = 0x7FFF_0000
        #expect(openingError(RawZip([far]).bytes()) == .malformed("a.txt starts past the central directory"))

        var directory = RawZip([RawZip.Entry("a.txt", "text")])
        directory.directoryOffset = 0x7FFF_0000
        #expect(openingError(directory.bytes()) == .malformed("the central directory lies outside the archive"))
        #expect(try reason(directory) == "is not a valid EPUB (the zip archive cannot be read)")

        // Two entries at one offset: the same bytes read twice over.
        var twin = RawZip.Entry("b.txt", "text")
        twin.localOffset = 0
        let overlap = openingError(RawZip([RawZip.Entry("a.txt", "text"), twin]).bytes())
        #expect(overlap == .malformed("a.txt overlaps another entry or the central directory")
                || overlap == .malformed("b.txt overlaps another entry or the central directory"), "\(String(describing: overlap))")
    }

    @Test func everyTruncationOfAnArchiveIsRefused() throws {
        let bytes = RawZip([RawZip.Entry("mimetype", "application/epub+zip"),
                            RawZip.Entry("OEBPS/chapter.xhtml", Self.chapter, deflated: true)]).bytes()
        for length in 0..<bytes.count {
            #expect(openingError(Array(bytes[0..<length])) != nil, "cut to \(length) of \(bytes.count) bytes")
        }
    }

    @Test func anEndRecordWithTheLongestCommentIsFound() throws {
        var zip = RawZip([RawZip.Entry("a.txt", "text")])
        zip.comment = [UInt8](repeating: 0x50, count: 0xFFFF)
        #expect(try contents(open(zip), "a.txt") == Array("text".utf8))
        // One byte more after it and the record lies beyond the 64 KB looked at.
        #expect(openingError(zip.bytes() + [0]) == .notAZip)
    }

    @Test func tooManyEntriesAreRefusedBeforeTheyAreRead() throws {
        let four = RawZip((1...4).map { RawZip.Entry("\($0).txt", "\($0)") })
        #expect(try open(four.bytes(), maximumEntries: 4).entries.count == 4)
        #expect(openingError(four.bytes(), maximumEntries: 3) == .tooManyEntries)

        var claimed = RawZip([RawZip.Entry("a.txt", "text")])
        claimed.entryCount = 60_000
        #expect(openingError(claimed.bytes()) == .tooManyEntries)
        #expect(try reason(claimed) == "is not a valid EPUB (more than 20000 files in the archive)")
        claimed.entryCount = 2
        #expect(openingError(claimed.bytes()) == .malformed("the central directory is too small for its 2 entries"))
    }

    @Test func encryptedEntriesAndUnknownMethodsAreRefused() throws {
        var encrypted = RawZip.Entry("OEBPS/secret.xhtml", "xxxxxxxxxxxx")
        encrypted.flags = 0x0001
        var bzip2 = RawZip.Entry("OEBPS/bzip2.xhtml", "BZh91AY&SY")
        bzip2.method = 12
        let zip = RawZip([RawZip.Entry("mimetype", "application/epub+zip"), encrypted, bzip2])
        let archive = try open(zip)
        #expect(archive.entries.count == 3, "listed all the same")
        #expect(try extractionError(archive, "OEBPS/secret.xhtml") == .encrypted)
        #expect(try extractionError(archive, "OEBPS/bzip2.xhtml") == .unsupportedMethod(12))
        #expect(try reason(zip, reading: "OEBPS/secret.xhtml") == "is not a valid EPUB (OEBPS/secret.xhtml is encrypted with zip encryption)")
        #expect(try reason(zip, reading: "OEBPS/bzip2.xhtml") == "is not a valid EPUB (OEBPS/bzip2.xhtml is compressed with zip method 12, not deflate)")
        #expect(try reason(zip, reading: "mimetype") == nil)
    }

    @Test func aPathLeavingTheArchiveRefusesIt() throws {
        let zip = RawZip([RawZip.Entry("mimetype", "application/epub+zip"), RawZip.Entry("OEBPS/../../up.txt", "x", deflated: true)])
        #expect(try reason(zip) == "refused: the archive holds a file whose path leaves it (OEBPS/../../up.txt)")
    }

    @Test func namesAreUTF8OrCodePage437() {
        #expect(ZipEntry.decodeName(Array("Chapitre é.xhtml".utf8), flags: 0) == "Chapitre é.xhtml")
        #expect(ZipEntry.decodeName([0x82, 0x74, 0xE9], flags: 0) == "étΘ")
        #expect(ZipEntry.decodeName([0x61, 0xFF], flags: 0x0800) == "a\u{FFFD}")
    }

    /// Every single-byte change to an archive: no trap, and what still reads under its own name
    /// is the original bytes (a changed byte of data, size or CRC fails the CRC check).
    @Test func noSingleByteChangeGivesWrongBytes() throws {
        let original: [String: [UInt8]] = ["mimetype": Array("application/epub+zip".utf8), "a.xhtml": Array(Self.chapter.prefix(600))]
        let bytes = RawZip([RawZip.Entry("mimetype", original["mimetype"]!), RawZip.Entry("a.xhtml", original["a.xhtml"]!, deflated: true)]).bytes()
        let path = try BookFixture.write(bytes, name: "mutated.zip")
        defer { BookFixture.remove(path) }
        var mutated = bytes
        for index in bytes.indices {
            for change: UInt8 in [0x01, 0x80, 0xFF] {
                mutated[index] = bytes[index] ^ change
                try Data(mutated).write(to: URL(fileURLWithPath: path))
                let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
                try #require(descriptor >= 0)
                guard let archive = try? ZipArchive(descriptor: descriptor, size: mutated.count, maximumEntries: 100) else { continue }
                for entry in archive.entries {
                    guard let expected = original[entry.name], let read = try? archive.extract(entry, limit: 1 << 20) else { continue }
                    #expect(read == expected, "byte \(index) ^ \(change): \(entry.name) read other bytes")
                }
            }
            mutated[index] = bytes[index]
        }
    }
}
