@testable import Cloud
import Foundation
import Testing

@Suite struct FolderFormatTests {
    @Test func theChecksumIsZlibsCRC32() {
        // Values from Python's zlib.crc32, which the reference merge uses.
        #expect(CRC32.checksum([]) == 0)
        #expect(CRC32.checksum(Array("a".utf8)) == 0xE8B7_BE43)
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum((0 ..< 3).flatMap { _ in (0 ... 255).map(UInt8.init) } + Array("xyz".utf8)) == 0x4390_6281)
    }

    @Test func recordsRoundTripThroughTheFormat() {
        let records = [
            FolderTestData.record("", "empty key", 1, FolderTestData.deviceA),
            FolderTestData.record("clé ✓", nil, UInt64(1) << 47, FolderTestData.deviceB, counter: 65535),
            FolderTestData.record(String(repeating: "k", count: 64), String(repeating: "v", count: 100_000), 5, DeviceIdentifier(String(repeating: "z", count: 64))!),
        ]
        var scanner = ChangeFileScanner()
        let result = ChangeFileFormat.file(records).withUnsafeBytes { scanner.scan($0, fileOffset: 0) }
        #expect(result.records == records)
        #expect(result.damagedRegions == 0)
    }

    @Test func onlyTheExactPatternIsADevicesGeneration() {
        #expect(ChangeFileName(parsing: "abc-1.12.wlkv") == ChangeFileName(device: DeviceIdentifier("abc-1")!, generation: 12))
        for name in ["abc.3.sync-conflict-20261122-101010-ABCDEFG.wlkv", "abc.3 (conflicted copy).wlkv", "abc.wlkv",
                     "ABC.3.wlkv", ".abc.3.wlkv.tmp-1-2", "abc.3.wlkv.tmp", "abc.-3.wlkv", "abc..wlkv"] {
            #expect(ChangeFileName(parsing: name) == nil, "\(name)")
        }
        #expect(ChangeFileName.isChangeFile("abc.3 (conflicted copy).wlkv"))
        #expect(!ChangeFileName.isChangeFile(".syncthing.abc.3.wlkv.tmp"))
        #expect(!ChangeFileName.isChangeFile(".abc.3.wlkv"))
    }
}
