import Foundation
import Testing
import KeyedArchive
import PropertyList

/// `defaults read --decode` shows a data value that holds a keyed archive as its object tree;
/// without the flag the output stays macOS's.
@Suite struct DefaultsDecodeTests {
    @Test func decodeShowsArchivedDataAsItsObjectTree() throws {
        let archiver = KeyedArchiver()
        try archiver.encode(["chapter 3", "the hatter"] as [String], forKey: "root")
        let archive = try PropertyListSerializer.data(from: archiver.encodedArchive, format: .binary)
        let hex = archive.map { String(format: "%02x", $0) }.joined()
        try withConfigHome { home in
            #expect(try wonderlandDefaults(home, ["write", "WLBookmarks", "-dict", "alice", "-data", hex]).status == 0)
            let plain = try wonderlandDefaults(home, ["read", "WLBookmarks"])
            #expect(plain.stdout.contains("alice = {length = \(archive.count), bytes = 0x\(hex)};"))
            let decoded = try wonderlandDefaults(home, ["read", "--decode", "WLBookmarks"])
            #expect(decoded.status == 0)
            #expect(decoded.stdout.contains("alice = NSKeyedArchiver archive,"))
            #expect(decoded.stdout.contains("0 => \"chapter 3\""))
            #expect(decoded.stdout.contains("1 => \"the hatter\""))
            #expect(!decoded.stdout.contains("bytes = 0x"))
        }
    }
}
