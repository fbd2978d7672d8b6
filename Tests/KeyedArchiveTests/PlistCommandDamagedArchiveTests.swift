import Foundation
import Testing
import KeyedArchive
import PropertyList

// A property list that claims to be a keyed archive but is not a well-formed one: still a
// property list, which convert and print show, with a warning; lint fails on it.

/// `$top.root` points past the end of `$objects`.
private let damaged = archive(top: ["root": .uid(9)], objects: [.string("kept")])
private let problem = "UID 9 is out of range ($objects has 2 entries) at $top.root"

private func damagedFile(in directory: URL) throws -> String {
    let file = directory.appendingPathComponent("damaged.archive")
    try PropertyListSerializer.data(from: damaged, format: .binary).write(to: file)
    return file.path
}

@Test func aDamagedArchiveIsConvertedAsAPropertyListWithAWarning() throws {
    try withDirectory { directory in
        let file = try damagedFile(in: directory)
        let run = try wonderland("convert", "--format", "xml", "-o", "-", file)
        #expect(run.status == 0)
        #expect(run.stderr == "wonderland plist: \(file): warning: not a well-formed keyed archive: \(problem); converted as a property list\n")
        #expect(try PropertyListReader.read(Data(run.stdout.utf8)).value == damaged)

        let inPlace = try wonderland("convert", "--format", "xml", file)
        #expect(inPlace.status == 0)
        #expect(inPlace.stderr.contains("warning: not a well-formed keyed archive"))
        let converted = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(converted.starts(with: Data("<?xml".utf8)))
        #expect(try PropertyListReader.read(converted).value == damaged)
    }
}

@Test func aDamagedArchiveIsPrintedAsAPropertyListWithAWarning() throws {
    try withDirectory { directory in
        let file = try damagedFile(in: directory)
        let run = try wonderland("print", file)
        #expect(run.status == 0)
        #expect(run.stderr == "wonderland plist: \(file): warning: not a well-formed keyed archive: \(problem); shown as a property list\n")
        #expect(run.stdout.hasPrefix("{\n  \"$archiver\" => \"NSKeyedArchiver\"\n"), "\(run.stdout)")
        #expect(run.stdout.contains("\"root\" => UID(9)"), "\(run.stdout)")
    }
}

@Test func lintStillFailsOnADamagedArchive() throws {
    try withDirectory { directory in
        let file = try damagedFile(in: directory)
        let run = try wonderland("lint", file)
        #expect(run.status == 1)
        #expect(run.stdout == "\(file): keyed archive: \(problem)\n")
    }
}
