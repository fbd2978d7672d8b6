import Testing
import Foundation
@testable import BookFront

@Suite struct HashTests {
    private func xxh64(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { XXH64.hash($0, seed: seed) }
    }

    // Reference values from the system's libxxhash (XXH64 via Python's ctypes).
    @Test func xxh64MatchesTheReferenceImplementation() {
        #expect(xxh64([]) == 0xEF46_DB37_51D8_E999)
        #expect(xxh64([], seed: 1) == 0xD5AF_BA13_36A3_BE4B)
        #expect(xxh64(Array("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
        #expect(xxh64(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(xxh64(Array("Nobody inspects the spammish repetition".utf8)) == 0xFBCE_A83C_8A37_8BF1)
        let long: [UInt8] = Array(repeating: Array(UInt8(0)...UInt8(255)), count: 3).flatMap { $0 } + Array("xyz".utf8)
        #expect(xxh64(long) == 0xE921_A1B4_5BD7_79F8)
        #expect(xxh64(long, seed: 1) == 0x0616_ED66_BE1B_D5BB)
    }

    @Test func theSameContentGetsTheSameIdWhereverItLies() throws {
        let first = try BookFixture.document()
        let again = try BookLoader.load(path: first.path!)
        let renamed = try BookLoader.load(path: BookFixture.write(BookFixture.bytes, name: "another name.txt"))
        defer { [first.path, renamed.path].compactMap { $0 }.forEach(BookFixture.remove) }
        #expect(first.id == again.id)
        #expect(first.id == renamed.id)
        #expect(first.id.count == 16)
        #expect(first.id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    }

    @Test func oneChangedByteChangesTheId() throws {
        var changed = BookFixture.bytes
        changed[changed.count / 2] ^= 0x20
        let original = ContentHash.id(of: BookFixture.bytes)
        #expect(ContentHash.id(of: changed) != original)
        #expect(ContentHash.id(of: BookFixture.bytes + [0x0A]) != original)
        #expect(ContentHash.id(of: BookText(bytes: Data(BookFixture.bytes))) == original)
    }

    @Test func bigTextsAreHashedFromTheirLengthAndSpreadSamples() {
        // The sampling starts above 64 MB; a lower limit keeps this test's memory small while it
        // runs beside the 1 GB test (which measures the process's peak memory).
        let limit = 16 << 20
        func id(_ bytes: [UInt8]) -> UInt64 {
            bytes.withUnsafeBytes { ContentHash.value(of: $0, releasing: nil, fullHashLimit: limit) }
        }
        let size = limit + 12_345
        var bytes = [UInt8](repeating: 0x61, count: size)
        let base = id(bytes)
        #expect(id(bytes) == base)

        // A byte at the very start, the very end, or inside a sampled slice changes the id.
        for position in [0, size - 1, ContentHash.edgeSize + 10] {
            bytes[position] = 0x62
            #expect(id(bytes) != base)
            bytes[position] = 0x61
        }
        // A byte between the slices does not: that is the price of not reading 1 GB.
        bytes[ContentHash.edgeSize + ContentHash.sliceSize + 10] = 0x62
        #expect(id(bytes) == base)
        bytes[ContentHash.edgeSize + ContentHash.sliceSize + 10] = 0x61
        // The length counts, even when every sampled byte is the same.
        bytes.append(0x61)
        #expect(id(bytes) != base)
        bytes.removeLast()
        // The sampled hash uses its own seed: it is not the whole-text hash of those bytes.
        #expect(base != bytes.withUnsafeBytes { XXH64.hash($0, seed: 0) })
        // Below the limit the whole text is hashed, so the byte between slices counts there.
        #expect(ContentHash.id(of: bytes) != ContentHash.hex(base))
    }
}
