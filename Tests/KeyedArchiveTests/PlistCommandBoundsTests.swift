import Foundation
import Testing
import KeyedArchive
import PropertyList
import PropertyListTestSupport

// `wonderland plist` on hostile files: a clear message or a bounded tree, never a hang or a trap.

private func write(_ data: Data, _ name: String, in directory: URL) throws -> String {
    let file = directory.appendingPathComponent(name)
    try data.write(to: file)
    return file.path
}

@Test func theSharedReferenceBombIsRefusedByEveryCommand() throws {
    try withDirectory { directory in
        let bomb = try write(CraftedBinary.sharedReferenceBomb(levels: 40), "bomb.plist", in: directory)
        for command in [["print", bomb], ["convert", "--format", "xml", "-o", "-", bomb]] {
            let run = try wonderland(command)
            #expect(run.status == 1)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("expands to more than 1,000,000 objects"))
        }
        let lint = try wonderland(["lint", bomb])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("limitExceeded"))
    }
}

/// 2^18 - 1 nodes: within what a user's file may hold, so it is printed, up to the line budget.
@Test func aLargeTreeIsPrintedUpToTheBudgetThenSaysWhereItStopped() throws {
    try withDirectory { directory in
        let file = try write(CraftedBinary.sharedReferenceBomb(levels: 17), "wide.plist", in: directory)
        let run = try wonderland(["print", file])
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("\n… (stopped: more than 100,000 lines)\n"))
        #expect(run.stdout.split(separator: "\n").count == 100_001)
    }
}

@Test func aNaNDatePrintsFailsLintAndIsNotConverted() throws {
    try withDirectory { directory in
        let file = try write(CraftedBinary.date(.nan), "nan.plist", in: directory)
        let printed = try wonderland(["print", file])
        #expect(printed.status == 0)
        #expect(printed.stdout == "[\n  0 => invalid date (nan)\n]\n")

        let lint = try wonderland(["lint", file])
        #expect(lint.status == 1)
        #expect(lint.stdout == "\(file): unrepresentableValue: the date is not a number (nan) at [0]\n")

        for format in ["xml", "binary"] {
            let before = try Data(contentsOf: URL(fileURLWithPath: file))
            let convert = try wonderland(["convert", "--format", format, file])
            #expect(convert.status == 1)
            #expect(convert.stderr.hasSuffix(": the date is not a number (nan) at [0]\n"))
            #expect(convert.stderr.contains("cannot write as "))
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        }
    }
}

@Test func infiniteAndFarOffDatesPrint() throws {
    try withDirectory { directory in
        for (seconds, shown) in [(Double.infinity, "invalid date (inf)"), (1e300, "date outside years 0...9999")] {
            let file = try write(CraftedBinary.date(seconds), "date.plist", in: directory)
            let run = try wonderland(["print", file])
            #expect(run.status == 0)
            #expect(run.stdout.contains("0 => \(shown)"))
            #expect(try wonderland(["lint", file]).status == 1)
        }
    }
}

/// Forty NSArrays each holding the next twice: 2^40 paths, each object printed once.
@Test func anArchiveOfSharedObjectsPrintsEachOnce() throws {
    try withDirectory { directory in
        var objects: [PropertyListValue] = [classEntry("NSArray")]
        for level in 0..<40 {
            let next = PropertyListValue.uid(UInt64(level + 3))
            objects.append(.dictionary(["NS.objects": .array(level == 39 ? [] : [next, next]), "$class": .uid(1)]))
        }
        let data = try PropertyListSerializer.data(from: archive(top: ["root": .uid(2)], objects: objects), format: .xml)
        let run = try wonderland(["print", try write(data, "shared.archive", in: directory)])
        #expect(run.status == 0)
        #expect(run.stdout.components(separatedBy: "<see #").count == 40)
    }
}

@Test func anArchiveNestedPastTheLimitStopsWithAMarker() throws {
    try withDirectory { directory in
        var objects: [PropertyListValue] = [classEntry("NSArray")]
        for level in 0..<600 {
            objects.append(.dictionary(["NS.objects": .array(level == 599 ? [] : [.uid(UInt64(level + 3))]), "$class": .uid(1)]))
        }
        let data = try PropertyListSerializer.data(from: archive(top: ["root": .uid(2)], objects: objects), format: .binary)
        let run = try wonderland(["print", try write(data, "deep.archive", in: directory)])
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("\n… (stopped: nested deeper than 512 levels)\n"))
    }
}

@Test func quotedInputInMessagesIsCut() throws {
    try withDirectory { directory in
        let key = String(repeating: "k", count: 20_000)
        let xml = "<plist><dict><key>\(key)</key><true/><key>\(key)</key><true/></dict></plist>"
        let file = try write(Data(xml.utf8), "keys.plist", in: directory)
        // A repeated key is a warning (the last is kept), so lint passes and quotes the key cut short.
        let run = try wonderland(["lint", file])
        #expect(run.status == 0)
        #expect(run.stdout.count < 2 * file.count + 400)
        #expect(run.stdout.contains("warning: duplicateKey at line 1"))
        #expect(run.stdout.contains("k…"))
    }
}

/// A defaults file another tool wrote with a sync address holding its password: printed without
/// the password, said on standard error, and the file itself left as it was.
@Test func aPasswordInAnAddressIsNeverPrinted() throws {
    try withDirectory { directory in
        let value = PropertyListValue.dictionary([
            "WLSyncServer": .string("postgres://alice:s3cret@db.example.org/wl"), "WLOther": .string("kept"),
        ])
        let data = try PropertyListSerializer.data(from: value, format: .xml)
        let file = try write(data, "defaults.plist", in: directory)
        let run = try wonderland(["print", file])
        #expect(run.status == 0)
        #expect(!run.stdout.contains("s3cret"))
        #expect(run.stdout.contains("postgres://alice@db.example.org/wl"))
        #expect(run.stdout.contains("kept"))
        #expect(run.stderr.contains("password in WLSyncServer"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == data)
    }
}
