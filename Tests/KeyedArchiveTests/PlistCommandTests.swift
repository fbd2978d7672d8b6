import Foundation
import Testing
import KeyedArchive
import PropertyList

// `wonderland plist` end to end, through the built binary (PlistCommandSupport.swift).

@Test func lintReportsEachFileAndFailsIfAnyIsBad() throws {
    try withDirectory { directory in
        let good = directory.appendingPathComponent("good.plist").path
        let tree = directory.appendingPathComponent("tree.archive").path
        let bad = directory.appendingPathComponent("bad.plist").path
        let broken = directory.appendingPathComponent("broken.archive").path
        try PropertyListSerializer.data(from: .dictionary(["a": .integer(1)]), format: .xml).write(to: URL(fileURLWithPath: good))
        try KeyedArchiver.archivedData(withRootObject: sampleTree()).write(to: URL(fileURLWithPath: tree))
        try Data("hello".utf8).write(to: URL(fileURLWithPath: bad))
        try PropertyListSerializer.data(from: archive(top: ["root": .uid(9)], objects: []), format: .binary)
            .write(to: URL(fileURLWithPath: broken))

        let run = try wonderland("lint", good, tree, bad, broken)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0] == "\(good): OK")
        #expect(lines[1] == "\(tree): OK")
        #expect(lines[2].hasPrefix("\(bad): unknownFormat"))
        #expect(lines[3] == "\(broken): keyed archive: UID 9 is out of range ($objects has 1 entries) at $top.root")
    }
}

@Test func lintSucceedsWhenEveryFileIsGood() throws {
    try withDirectory { directory in
        let good = directory.appendingPathComponent("good.plist")
        try PropertyListSerializer.data(from: .array([.string("x")]), format: .binary).write(to: good)
        let run = try wonderland("lint", good.path)
        #expect(run.status == 0)
        #expect(run.stdout == "\(good.path): OK\n")
    }
}

@Test func printShowsAnArchiveAsItsResolvedObjectGraph() throws {
    try withDirectory { directory in
        let file = directory.appendingPathComponent("tree.archive")
        try KeyedArchiver.archivedData(withRootObject: sampleTree()).write(to: file)
        let run = try wonderland("print", file.path)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("NSKeyedArchiver archive, "))
        #expect(run.stdout.contains("root => WLNode #1 {"))
        #expect(run.stdout.contains("\"name\" => \"shared\""))
        #expect(run.stdout.contains("\"tags\" => NSArray #"))
        #expect(run.stdout.contains("\"stamp\" => 2001-01-09"))
        // The cycle back to the root and the second sighting of "shared" are markers.
        #expect(run.stdout.contains("\"parent\" => <see #1 WLNode>"))
        #expect(run.stdout.components(separatedBy: "\"name\" => \"shared\"").count == 2)
        #expect(!run.stdout.contains("UID("))
    }
}

@Test func printStopsAtAnArrayThatContainsItself() throws {
    try withDirectory { directory in
        let file = directory.appendingPathComponent("loop.archive")
        let loop = archive(objects: [.dictionary(["NS.objects": .array([.uid(1)]), "$class": .uid(2)]), classEntry("NSArray")])
        try PropertyListSerializer.data(from: loop, format: .binary).write(to: file)
        let run = try wonderland("print", file.path)
        #expect(run.status == 0)
        #expect(run.stdout == "NSKeyedArchiver archive, 3 objects\nroot => NSArray #1 [\n  0 => <see #1 NSArray>\n]\n")
    }
}

@Test func printShowsAPlainPropertyList() throws {
    try withDirectory { directory in
        let file = directory.appendingPathComponent("plain.plist")
        let value = PropertyListValue.dictionary(["list": .array([.integer(1), .boolean(true)]), "name": .string("a\"b")])
        try PropertyListSerializer.data(from: value, format: .xml).write(to: file)
        let run = try wonderland("print", file.path)
        #expect(run.status == 0)
        #expect(run.stdout == "{\n  \"list\" => [\n    0 => 1\n    1 => true\n  ]\n  \"name\" => \"a\\\"b\"\n}\n")
    }
}

@Test func convertRewritesTheFileInPlace() throws {
    try withDirectory { directory in
        let file = directory.appendingPathComponent("tree.archive")
        let original = try KeyedArchiver.archivedData(withRootObject: sampleTree())
        try original.write(to: file)
        let run = try wonderland("convert", "--format", "xml", file.path)
        #expect(run.status == 0)
        let converted = try Data(contentsOf: file)
        #expect(converted.starts(with: Data("<?xml".utf8)))
        let (value, format) = try PropertyListReader.read(converted)
        #expect(format == .xml)
        #expect(value == (try PropertyListReader.value(from: original)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tree.archive"])
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Node.self, from: converted).name == "root")
    }
}

@Test func convertWritesToTheOutputAndLeavesTheInput() throws {
    try withDirectory { directory in
        let input = directory.appendingPathComponent("in.plist")
        let output = directory.appendingPathComponent("out.plist")
        let xml = try PropertyListSerializer.data(from: .array([.string("x")]), format: .xml)
        try xml.write(to: input)
        let run = try wonderland("convert", "--format", "binary", input.path, "-o", output.path)
        #expect(run.status == 0)
        #expect(try Data(contentsOf: input) == xml)
        #expect(try Data(contentsOf: output).starts(with: Data("bplist00".utf8)))
    }
}

@Test func failuresAreOneLineOnStderrWithStatusOne() throws {
    try withDirectory { directory in
        let missing = directory.appendingPathComponent("missing.plist").path
        let printRun = try wonderland("print", missing)
        #expect(printRun.status == 1)
        #expect(printRun.stdout.isEmpty)
        #expect(printRun.stderr == "wonderland plist: \(missing): cannot read: no such file\n")
        let convertRun = try wonderland("convert", "--format", "xml", missing)
        #expect(convertRun.status == 1)
        #expect(convertRun.stderr == "wonderland plist: \(missing): cannot read: no such file\n")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
