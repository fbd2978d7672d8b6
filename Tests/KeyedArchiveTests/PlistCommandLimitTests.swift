import Foundation
import Testing
import KeyedArchive
import PropertyList

// The limits a file given to `wonderland plist` is read under: named in the help, refused with
// a message naming the option that raises them, raised by it, and the option checked.

/// An array of a million integers: 1,000,001 values, one more than the default allows.
private func millionIntegers(in directory: URL) throws -> String {
    let file = directory.appendingPathComponent("million.plist")
    try PropertyListSerializer.data(from: .array((0..<1_000_000).map { .integer(Int64($0)) }), format: .binary).write(to: file)
    return file.path
}

@Test func aMillionValuesAreRefusedByDefaultAndReadWithTheOption() throws {
    try withDirectory { directory in
        let file = try millionIntegers(in: directory)
        let refused = try wonderland("lint", file)
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("limitExceeded"))
        #expect(refused.stdout.hasSuffix("(--max-values raises it)\n"), "\(refused.stdout)")
        let convertRefused = try wonderland("convert", "--format", "xml", "-o", "/dev/null", file)
        #expect(convertRefused.status == 1)
        #expect(convertRefused.stderr.contains("--max-values"))

        let lint = try wonderland("lint", "--max-values", "2000000", file)
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(lint.stdout == "\(file): OK\n")
        let print = try wonderland("print", "--max-values", "2000000", file)
        #expect(print.status == 0, "\(print.stderr)")
        #expect(print.stdout.hasPrefix("[\n  0 => 0\n  1 => 1\n"))
        let convert = try wonderland("convert", "--format", "xml", "--max-values", "2000000", "-o", "/dev/null", file)
        #expect(convert.status == 0, "\(convert.stderr)")
    }
}

/// The archive check and the printer walk the value under the raised limits too: this archive
/// of a million-element NSArray passes the reader with the option, then needs it again for its
/// UIDs to be checked and its objects printed.
@Test func theRaisedLimitReachesTheArchiveCheckAndThePrinter() throws {
    try withDirectory { directory in
        let count = 600_000
        let elements = (0..<count).map { PropertyListValue.uid(UInt64($0 + 3)) }
        let objects = [classEntry("NSArray"), .dictionary(["NS.objects": .array(elements), "$class": .uid(1)])]
            + (0..<count).map { PropertyListValue.integer(Int64($0)) }
        let file = directory.appendingPathComponent("big.archive")
        try PropertyListSerializer.data(from: archive(top: ["root": .uid(2)], objects: objects), format: .binary).write(to: file)

        let refused = try wonderland("print", file.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("(--max-values raises it)"), "\(refused.stderr)")
        let printed = try wonderland("print", "--max-values", "3000000", file.path)
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stderr.isEmpty, "\(printed.stderr)")
        #expect(printed.stdout.hasPrefix("NSKeyedArchiver archive, \(count + 3) objects\n"))
        #expect(printed.stdout.hasSuffix("… (stopped: more than 100,000 lines)\n"))
    }
}

@Test func aFileOverTheSizeLimitNamesTheOptionAndIsReadWithIt() throws {
    try withDirectory { directory in
        let file = directory.appendingPathComponent("text.plist")
        try PropertyListSerializer.data(from: .string(String(repeating: "a", count: 3 << 20)), format: .binary).write(to: file)
        let refused = try wonderland("lint", "--max-size", "2M", file.path)
        #expect(refused.status == 1)
        #expect(refused.stdout.hasPrefix("\(file.path): is 3"), "\(refused.stdout)")
        #expect(refused.stdout.hasSuffix(" MB, more than the 2 MB allowed for a property list (--max-size raises it)\n"), "\(refused.stdout)")
        for size in ["4M", "4MB", "4096k", "\(4 << 20)"] {
            let run = try wonderland("lint", "--max-size", size, file.path)
            #expect(run.stdout == "\(file.path): OK\n", "\(size): \(run.stdout)")
        }
        // The strings' budget moves with the size: a 3 MB string needs more than 2 MB.
        let stdin = try wonderland(["lint", "--max-size", "2M", "-"], stdin: try Data(contentsOf: file))
        #expect(stdin.stdout.hasPrefix("<stdin>: is more than the 2 MB allowed"), "\(stdin.stdout)")
    }
}

@Test(arguments: [
    (["--max-size", "lots"], "not a size"), (["--max-size", "0"], "more than 0"), (["--max-size=-1"], "not a size"),
    (["--max-size", "1.5G"], "not a size"), (["--max-size", "99999999T"], "of memory"),
    (["--max-values", "0"], "more than 0"), (["--max-values", "1e6"], "not a whole number"),
    (["--max-values", "99999999999999999999"], "memory can hold"),
])
func aBadLimitIsAUsageError(_ option: [String], _ expected: String) throws {
    let run = try wonderland(["print"] + option + ["/nonexistent.plist"])
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("wonderland: ") && run.stderr.contains(expected), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
}

@Test(arguments: ["lint", "print", "convert"])
func theHelpNamesTheLimitsAndTheirOptions(_ subcommand: String) throws {
    let help = try wonderland(subcommand, "--help")
    #expect(help.status == 0)
    // ArgumentParser wraps the text; the words are what count.
    let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for phrase in ["at most 256 MB", "1,000,000 values", "64 MB of strings", "256 MB of data", "nested at most 512 deep",
                   "--max-size <size>", "--max-values <count>", "A FILE of - is standard input"] {
        #expect(words.contains(phrase), "\(subcommand) --help lacks \"\(phrase)\"")
    }
}
