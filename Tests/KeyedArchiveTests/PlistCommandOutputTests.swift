import Foundation
import Testing
import PropertyList

// `convert -o` onto what is not a regular file is written into, never replaced; onto a regular
// file, replaced whole, keeping its mode.

private let value = PropertyListValue.array([.string("x"), .integer(7)])

private func binaryFile(in directory: URL, _ name: String = "in.plist") throws -> String {
    let file = directory.appendingPathComponent(name)
    try PropertyListSerializer.data(from: value, format: .binary).write(to: file)
    return file.path
}

@Test func outputToDevNullLeavesItADevice() throws {
    try withDirectory { directory in
        let run = try wonderland("convert", "--format", "xml", "-o", "/dev/null", try binaryFile(in: directory))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(fileType("/dev/null") == S_IFCHR)
    }
}

@Test func outputToDevStdoutAndDashIsStandardOutput() throws {
    try withDirectory { directory in
        let input = try binaryFile(in: directory)
        for destination in ["-", "/dev/stdout", "/proc/self/fd/1"] {
            let run = try wonderland("convert", "--format", "xml", "-o", destination, input)
            #expect(run.status == 0, "\(destination): \(run.stderr)")
            #expect(try PropertyListReader.read(Data(run.stdout.utf8)).value == value, "\(destination)")
        }
        #expect(fileType("/dev/stdout") == S_IFLNK)
    }
}

/// Standard output redirected to a file opened for appending: written where the shell's
/// descriptor is, so what was there stays, as `>>` means.
@Test func outputToDevStdoutAppendsWhereTheShellSaid() throws {
    try withDirectory { directory in
        let input = try binaryFile(in: directory)
        let log = directory.appendingPathComponent("log").path
        try Data("before\n".utf8).write(to: URL(fileURLWithPath: log))
        let run = try bash("echo more >> \"$2\"; \"$WONDERLAND\" plist convert --format xml -o /dev/stdout \"$1\" >> \"$2\"", input, log)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.hasPrefix("before\nmore\n<?xml"))
    }
}

@Test func aLinkToADeviceIsWrittenThroughAndStaysALink() throws {
    try withDirectory { directory in
        let link = directory.appendingPathComponent("sink").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        let run = try wonderland("convert", "--format", "xml", "-o", link, try binaryFile(in: directory))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(fileType(link) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/null")
        #expect(fileType("/dev/null") == S_IFCHR)
    }
}

@Test func aFIFOOutputIsWrittenIntoAndStaysAFIFO() throws {
    try withDirectory { directory in
        let input = try binaryFile(in: directory)
        let fifo = directory.appendingPathComponent("out.fifo").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = try FIFOReader(fifo)
        let run = try wonderland("convert", "--format", "xml", "-o", fifo, input)
        let received = reader.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try PropertyListReader.read(received).value == value)
        #expect(fileType(fifo) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["in.plist", "out.fifo"])
    }
}

@Test func aFailedDeviceWriteIsAnError() throws {
    try withDirectory { directory in
        let input = try binaryFile(in: directory)
        let run = try wonderland("convert", "--format", "xml", "-o", "/dev/full", input)
        #expect(run.status == 1)
        #expect(run.stderr == "wonderland plist: \(input): cannot write /dev/full: No space left on device\n")
        #expect(fileType("/dev/full") == S_IFCHR)
    }
}

@Test func aFolderAsOutputIsAnError() throws {
    try withDirectory { directory in
        let input = try binaryFile(in: directory)
        let run = try wonderland("convert", "--format", "xml", "-o", directory.path, input)
        #expect(run.status == 1)
        #expect(run.stderr == "wonderland plist: \(input): cannot write \(directory.path): it is a folder; -o names the file to write\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["in.plist"])
    }
}

@Test func outputOntoAnExistingFileKeepsItsMode() throws {
    try withDirectory { directory in
        let input = try binaryFile(in: directory)
        let output = directory.appendingPathComponent("out.plist").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        try #require(chmod(output, 0o600) == 0)
        let run = try wonderland("convert", "--format", "xml", "-o", output, input)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try PropertyListReader.read(Data(contentsOf: URL(fileURLWithPath: output))).value == value)
        #expect(attributes(output)?.mode == 0o600)
        #expect(fileType(output) == S_IFREG)
    }
}

/// A new file is the user's like any they make: 0666 less their umask.
@Test func aNewOutputFileFollowsTheUmask() throws {
    try withDirectory { directory in
        let input = try binaryFile(in: directory)
        let output = directory.appendingPathComponent("new.plist").path
        let run = try bash("umask 027; \"$WONDERLAND\" plist convert --format xml -o \"$2\" \"$1\"", input, output)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(attributes(output)?.mode == 0o640)
    }
}

/// A link to nothing yet is followed, as `>` follows it: the file it names is made.
@Test func aDanglingLinkAsOutputMakesItsTarget() throws {
    try withDirectory { directory in
        let input = try binaryFile(in: directory)
        let link = directory.appendingPathComponent("link.plist").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "made.plist")
        let run = try wonderland("convert", "--format", "xml", "-o", link, input)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(fileType(link) == S_IFLNK)
        let made = directory.appendingPathComponent("made.plist")
        #expect(try PropertyListReader.read(Data(contentsOf: made)).value == value)
    }
}

@Test func aLoopOfLinksAsOutputIsAnErrorAndStaysAsItWas() throws {
    try withDirectory { directory in
        let input = try binaryFile(in: directory)
        let first = directory.appendingPathComponent("first").path
        let second = directory.appendingPathComponent("second").path
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: "second")
        try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: "first")
        let run = try wonderland("convert", "--format", "xml", "-o", first, input)
        #expect(run.status == 1)
        #expect(run.stderr == "wonderland plist: \(input): cannot write \(first): Too many levels of symbolic links\n")
        #expect(fileType(first) == S_IFLNK && fileType(second) == S_IFLNK)
    }
}
