import Foundation
import Testing
import Defaults
import PropertyList

/// `wonderland defaults` never saves, prints or exports a Sync Server password, and never saves
/// a value the file cannot hold: exit status 1 and a message instead.
@Suite struct DefaultsCommandRefusalTests {
    static let password = "Tea-Party-9f2"

    func writeXML(_ values: [String: PropertyListValue], to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PropertyListSerializer.data(from: .dictionary(values), format: .xml).write(to: url)
    }

    @Test func anAddressWithAPasswordIsRefusedWithTheAdvice() throws {
        try withConfigHome { home in
            let run = try wonderlandDefaults(home, ["write", "WLSyncServer", "postgres://alice:\(Self.password)@db.example.org/wonderland"])
            #expect(run.status == 1)
            #expect(run.stderr.contains("PGPASSWORD"))
            #expect(run.stderr.contains("~/.pgpass"))
            #expect(!(run.stdout + run.stderr).contains(Self.password))
            #expect(!FileManager.default.fileExists(atPath: defaultsFile(in: home).path))

            // A password holding '/' and '@', not percent-encoded, is still one.
            let slashed = try wonderlandDefaults(home, ["write", "WLSyncServer", "postgres://alice:a/b@c@db.example.org/wl"])
            #expect(slashed.status == 1)

            let plain = try wonderlandDefaults(home, ["write", "WLSyncServer", "postgres://alice@db.example.org/wonderland"])
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(try fileContents(defaultsFile(in: home)) == ["WLSyncServer": "postgres://alice@db.example.org/wonderland"])
        }
    }

    @Test func aPasswordAnotherToolSavedIsNeverPrintedOrExported() throws {
        try withConfigHome { home in
            let file = defaultsFile(in: home)
            try writeXML(["WLSyncServer": .string("postgres://alice:\(Self.password)@db.example.org/wl"), "HPMapType": 2], to: file)
            for arguments in [["read"], ["read", "WLSyncServer"], ["export", "-"]] {
                let run = try wonderlandDefaults(home, arguments)
                #expect(run.status == 0, "\(arguments): \(run.stderr)")
                #expect(!(run.stdout + run.stderr).contains(Self.password), "\(arguments) showed the password")
                #expect(run.stdout.contains("postgres://alice@db.example.org/wl"), "\(arguments): \(run.stdout)")
                #expect(run.stderr.contains("holds a password, which is not shown"))
            }
        }
    }

    @Test func anImportHoldingAPasswordOrANaNDateChangesNothing() throws {
        try withConfigHome { home in
            #expect(try wonderlandDefaults(home, ["write", "title", "before"]).status == 0)
            let withPassword = home.appendingPathComponent("password.plist")
            try writeXML(["WLSyncServer": .string("postgres://alice:\(Self.password)@db/wl")], to: withPassword)
            let refused = try wonderlandDefaults(home, ["import", withPassword.path])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("PGPASSWORD"))
            #expect(!refused.stderr.contains(Self.password))

            let withNaN = home.appendingPathComponent("nan.plist")
            try nanDatePlist([:]).write(to: withNaN)
            let nan = try wonderlandDefaults(home, ["import", withNaN.path])
            #expect(nan.status == 1)
            #expect(nan.stderr.contains("Not saved: the date is not a number (nan) at WLWhen, which the settings file cannot hold."))
            #expect(try fileContents(defaultsFile(in: home)) == ["title": "before"])
        }
    }

    @Test func anImportOfSomethingThatIsNotAFileSaysWhatItIs() throws {
        try withConfigHome { home in
            let zero = home.appendingPathComponent("zero.plist")
            try FileManager.default.createSymbolicLink(atPath: zero.path, withDestinationPath: "/dev/zero")
            let run = try wonderlandDefaults(home, ["import", zero.path])
            #expect(run.status == 1)
            #expect(run.stderr == "cannot read \(zero.path): is a character device, not a regular file\n")
        }
    }

    @Test func aNaNDateInTheFileIsLeftOutOfReadAndTheOriginalKept() throws {
        try withConfigHome { home in
            let file = defaultsFile(in: home)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let original = nanDatePlist(["HPMapType": 2])
            try original.write(to: file)
            let run = try wonderlandDefaults(home, ["read"])
            #expect(run.status == 0)
            #expect(run.stdout == "{\n    HPMapType = 2;\n}\n")
            #expect(run.stderr.contains("the date is not a number (nan) at WLWhen"))
            let folder = file.deletingLastPathComponent()
            let aside = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("defaults.plist.corrupt-") })
            #expect(try Data(contentsOf: folder.appendingPathComponent(aside)) == original)
            #expect(try wonderlandDefaults(home, ["write", "title", "after"]).status == 0)
            #expect(try fileContents(file) == ["HPMapType": 2, "title": "after"])
        }
    }
}
