import Foundation
import Testing
@testable import PropertyList

/// One test case per file in `Crafted/`. A file named `KIND.what-is-wrong.EXT` must make the
/// reader chosen by EXT (bplist: binary, plist: XML, any: detection) throw that error kind, at a
/// position inside the file.
@Suite struct CraftedFileTests {
    static let folder = Bundle.module.url(forResource: "Crafted", withExtension: nil)!

    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { ["bplist", "plist", "any"].contains(($0 as NSString).pathExtension) }.sorted()
    }()

    @Test func folderHoldsCraftedFiles() {
        #expect(Self.files.count >= 40)
    }

    @Test(arguments: files)
    func craftedFileFailsWithItsNamedKind(_ name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        // Crash inputs saved by the fuzzers are named fuzz-KIND.something.EXT.
        let kindName = name.split(separator: ".")[0].replacingOccurrences(of: "fuzz-", with: "")
        let expected = try #require(PropertyListError.Kind(rawValue: kindName), "no error kind \(kindName)")
        do {
            switch (name as NSString).pathExtension {
            case "bplist": _ = try BinaryPropertyListReader.read(data)
            case "plist": _ = try XMLPropertyListReader.read(data)
            default: _ = try PropertyListReader.read(data)
            }
            Issue.record("\(name) was read without error")
        } catch let error as PropertyListError {
            #expect(error.kind == expected, "\(error)")
            switch error.unit {
            case .byteOffset: #expect((0...data.count).contains(error.position), "\(error)")
            case .line: #expect((1...data.count(where: { $0 == 0x0A }) + 1).contains(error.position), "\(error)")
            case .none: Issue.record("reader error without a position: \(error)")
            }
        }
    }
}
