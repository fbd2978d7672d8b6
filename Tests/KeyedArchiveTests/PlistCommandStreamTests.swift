import Foundation
import Testing
import KeyedArchive
import PropertyList

// `wonderland plist` reading what is not a regular file: standard input as `-`, /dev/stdin, a
// pipe, a process substitution, a FIFO and a device; all within the size limit.

private let sample = PropertyListValue.dictionary(["name": .string("Alice"), "list": .array([.integer(1), .boolean(true)])])
private let printedSample = "{\n  \"list\" => [\n    0 => 1\n    1 => true\n  ]\n  \"name\" => \"Alice\"\n}\n"

private func sampleFile(in directory: URL) throws -> (path: String, data: Data) {
    let data = try PropertyListSerializer.data(from: sample, format: .binary)
    let file = directory.appendingPathComponent("sample.plist")
    try data.write(to: file)
    return (file.path, data)
}

@Test func printReadsStandardInputGivenAsDash() throws {
    let run = try wonderland(["print", "-"], stdin: try PropertyListSerializer.data(from: sample, format: .binary))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == printedSample)
    #expect(run.stderr.isEmpty)
}

@Test func printReadsAnArchiveFromAPipe() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: sampleTree())
    try withDirectory { directory in
        let file = directory.appendingPathComponent("tree.archive")
        try archive.write(to: file)
        let fromFile = try wonderland("print", file.path)
        let fromPipe = try bash("cat \"$1\" | \"$WONDERLAND\" plist print -", file.path)
        #expect(fromPipe.status == 0, "\(fromPipe.stderr)")
        #expect(fromPipe.stdout == fromFile.stdout)
        #expect(fromPipe.stdout.hasPrefix("NSKeyedArchiver archive"))
    }
}

@Test func lintNamesStandardInputAndFailsOnBadInput() throws {
    let good = try wonderland(["lint", "-"], stdin: try PropertyListSerializer.data(from: sample, format: .xml))
    #expect(good.status == 0)
    #expect(good.stdout == "<stdin>: OK\n")
    let bad = try wonderland(["lint", "-"], stdin: Data("hello".utf8))
    #expect(bad.status == 1)
    #expect(bad.stdout.hasPrefix("<stdin>: unknownFormat"))
}

@Test func convertOfStandardInputWritesStandardOutput() throws {
    let run = try wonderland(["convert", "--format", "xml", "-"], stdin: try PropertyListSerializer.data(from: sample, format: .binary))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("<?xml"))
    #expect(try PropertyListReader.read(Data(run.stdout.utf8)).value == sample)
}

@Test func printReadsDevStdinWhetherAFileOrAPipe() throws {
    try withDirectory { directory in
        let (file, data) = try sampleFile(in: directory)
        let redirected = try wonderland(["print", "/dev/stdin"], stdinFrom: file)
        #expect(redirected.status == 0, "\(redirected.stderr)")
        #expect(redirected.stdout == printedSample)
        let piped = try wonderland(["print", "/dev/stdin"], stdin: data)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == printedSample)
    }
}

/// /dev/stdin as a file has no file to rewrite: the result goes to standard output and the
/// file the shell opened is left alone.
@Test func convertOfDevStdinLeavesTheRedirectedFileAlone() throws {
    try withDirectory { directory in
        let (file, data) = try sampleFile(in: directory)
        let run = try wonderland(["convert", "--format", "xml", "/dev/stdin"], stdinFrom: file)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try PropertyListReader.read(Data(run.stdout.utf8)).value == sample)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == data)
    }
}

@Test func printReadsAProcessSubstitution() throws {
    try withDirectory { directory in
        let (file, _) = try sampleFile(in: directory)
        let run = try bash("\"$WONDERLAND\" plist print <(cat \"$1\")", file)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == printedSample)
    }
}

@Test func aFIFOIsReadFromItsWriter() throws {
    try withDirectory { directory in
        let (_, data) = try sampleFile(in: directory)
        let fifo = directory.appendingPathComponent("in.fifo").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = FIFOWriter(fifo, data)
        let run = try wonderland("print", fifo)
        #expect(writer.finish())
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == printedSample)
        #expect(fileType(fifo) == S_IFIFO)
    }
}

/// /dev/zero never ends: it is refused once one byte past the limit has been read.
@Test func anEndlessDeviceIsRefusedByTheSizeLimit() throws {
    for command in [["print"], ["lint"], ["convert", "--format", "xml"]] {
        let run = try wonderland(command + ["--max-size", "1M", "/dev/zero"])
        #expect(run.status == 1)
        let message = "/dev/zero: is more than the 1 MB allowed for a property list (--max-size raises it)"
        #expect(run.stderr.contains(message) || run.stdout.contains(message), "\(run.stderr)\(run.stdout)")
    }
    #expect(fileType("/dev/zero") == S_IFCHR)
}

@Test func aFolderIsNotAPropertyList() throws {
    try withDirectory { directory in
        let run = try wonderland("print", directory.path)
        #expect(run.status == 1)
        #expect(run.stderr == "wonderland plist: \(directory.path): is a folder, not a property list\n")
    }
}
