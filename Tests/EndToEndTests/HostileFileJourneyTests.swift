import Foundation
import Testing

/// The real binary against files that are not what they seem: a FIFO where defaults.plist
/// should be, a symlink to /dev/zero, a 3 GB sparse file, a defaults.plist holding a NaN date,
/// a sync address holding a password, and an archive a newer version wrote. Every command runs
/// under `timeout`, so one that blocks fails the test instead of hanging it.
@Suite("Hostile files, values and credentials with the real binary", .whenEndToEndIsAskedFor)
struct HostileFileJourneyTests {
    /// Far above what any of these commands needs; only a blocked one reaches it.
    static let commandTimeout = 30

    /// `wonderland ARGUMENTS` with only `home` for HOME, killed after `commandTimeout` seconds
    /// (status 137); output is stdout and stderr together.
    static func run(_ home: URL, _ arguments: String...) throws -> (status: Int32, output: String) {
        try run(home, arguments)
    }

    static func run(_ home: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try Subprocess.run(["/usr/bin/timeout", "-s", "KILL", "\(commandTimeout)", "/usr/bin/env", "-i", "PATH=/usr/bin:/bin",
                            "HOME=\(home.path)", "LANG=C.UTF-8", try TmuxSession.locateBinary()] + arguments)
    }

    static func configFolder(_ home: URL) throws -> URL {
        let folder = home.appendingPathComponent(".config/wonderland")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func movedAside(in folder: URL, _ prefix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(prefix) }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    static func kind(_ url: URL) -> mode_t {
        var status = stat()
        return lstat(url.path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    static func sparseFile(_ url: URL, size: String = "3G") throws {
        let made = try Subprocess.run(["truncate", "-s", size, url.path])
        try #require(made.status == 0, "truncate: \(made.output)")
    }

    @Test("a FIFO for defaults.plist: commands finish, it is moved aside, the next write saves; a FIFO given to plist is read from its writer, to an import refused")
    func fifo() throws {
        let home = try HomeFolder()
        let config = try Self.configFolder(home.url)
        let defaults = config.appendingPathComponent("defaults.plist")
        #expect(mkfifo(defaults.path, 0o600) == 0)

        let read = try Self.run(home.url, "defaults", "read")
        #expect(read.status == 1, "\(read.output)")
        #expect(read.output.contains("could not be read (it is a FIFO (named pipe), not a regular file)"), "\(read.output)")
        let aside = try Self.movedAside(in: config, "defaults.plist.corrupt-")
        #expect(aside.count == 1)
        #expect(aside.first.map(Self.kind) == S_IFIFO, "the FIFO itself is what was moved aside")

        #expect(try Self.run(home.url, "defaults", "write", "title", "after").status == 0)
        #expect(try Self.run(home.url, "defaults", "read", "title") == (0, "after\n"))

        let elsewhere = home.url.appendingPathComponent("given.plist")
        #expect(mkfifo(elsewhere.path, 0o600) == 0)
        // Named on plist's command line, a FIFO is the user's choice, read once a writer comes (as
        // cat reads it); the writer here is started beside the command, in the same timeout.
        let print = try Subprocess.run(["/usr/bin/timeout", "-s", "KILL", "\(Self.commandTimeout)", "/bin/sh", "-c",
                                        "echo '<plist><true/></plist>' > \"$1\" & exec \"$0\" plist print \"$1\"",
                                        try TmuxSession.locateBinary(), elsewhere.path])
        #expect(print == (0, "true\n"))
        let imported = try Self.run(home.url, "defaults", "import", elsewhere.path)
        #expect(imported == (1, "cannot read \(elsewhere.path): is a FIFO (named pipe), not a regular file\n"))
        #expect(Self.kind(elsewhere) == S_IFIFO, "a user's file is left where it is")
    }

    @Test("a symlink to /dev/zero: defaults and the archive are refused unread, a file given to plist at its size limit")
    func devZero() throws {
        let home = try HomeFolder()
        let config = try Self.configFolder(home.url)
        try FileManager.default.createSymbolicLink(atPath: config.appendingPathComponent("defaults.plist").path, withDestinationPath: "/dev/zero")
        let read = try Self.run(home.url, "defaults", "read")
        #expect(read.status == 1)
        #expect(read.output.contains("(it is a character device, not a regular file)"), "\(read.output)")
        let aside = try #require(try Self.movedAside(in: config, "defaults.plist.corrupt-").first)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: aside.path) == "/dev/zero")

        let link = home.url.appendingPathComponent("zero.plist")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/zero")
        // Named on plist's command line, a device is read, and refused one byte past the limit.
        #expect(try Self.run(home.url, "plist", "lint", link.path)
                == (1, "\(link.path): is more than the 256 MB allowed for a property list (--max-size raises it)\n"))

        let state = home.url.appendingPathComponent(".local/state/wonderland")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: state.appendingPathComponent("restoration.archive").path, withDestinationPath: "/dev/zero")
        let show = try Self.run(home.url, "state", "show")
        #expect(show.status == 1)
        #expect(show.output.contains("is a character device, not a regular file"), "\(show.output)")
    }

    @Test("a 3 GB sparse file: refused by its size as a property list, an import, the defaults and a book")
    func sparseGiant() throws {
        let home = try HomeFolder()
        let big = home.url.appendingPathComponent("big.plist")
        try Self.sparseFile(big)
        #expect(try Self.run(home.url, "plist", "print", big.path)
                == (1, "wonderland plist: \(big.path): is 3 GB, more than the 256 MB allowed for a property list (--max-size raises it)\n"))
        #expect(try Self.run(home.url, "defaults", "import", big.path)
                == (1, "cannot read \(big.path): is 3 GB, more than the 16 MB allowed for a settings file\n"))

        let config = try Self.configFolder(home.url)
        try Self.sparseFile(config.appendingPathComponent("defaults.plist"))
        let write = try Self.run(home.url, "defaults", "write", "title", "fresh")
        #expect(write.status == 0)
        #expect(write.output.contains("(it is 3 GB, more than the 16 MB allowed for a settings file)"), "\(write.output)")
        #expect(try Self.movedAside(in: config, "defaults.plist.corrupt-").count == 1)
        #expect(try Self.run(home.url, "defaults", "read", "title") == (0, "fresh\n"))

        let tmux = try TmuxSession(columns: 100, rows: 24, home: home)
        let book = home.url.appendingPathComponent("big.txt")
        try Self.sparseFile(book)
        try tmux.launchApp("--book \(book.path)")
        try tmux.type("3")
        try tmux.waitForText("is 3 GB, more than the 2 GB allowed for a book")
        try tmux.press("Enter")
        try tmux.type("q")
        try tmux.waitForText("exit=0")
    }

    /// `bplist00` holding { WLWhen = <date NaN>; title = "kept" }, as a tool that writes any
    /// double as a date would leave it.
    static let nanDatePlist: Data = {
        var bytes = Array("bplist00".utf8)
        bytes += [0xD2, 1, 2, 3, 4]                              // 8: dictionary, keys 1 2, values 3 4
        bytes += [0x56] + Array("WLWhen".utf8)                   // 13
        bytes += [0x55] + Array("title".utf8)                    // 20
        bytes += [0x33, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0]            // 26: date, NaN
        bytes += [0x54] + Array("kept".utf8)                     // 35
        bytes += [8, 13, 20, 26, 35]                             // 40: offset table
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]                        // trailer: offset and reference sizes
        bytes += [0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 40]
        return Data(bytes)
    }()

    @Test("a defaults.plist holding a NaN date: read without it, the original kept byte for byte, the next write saves")
    func nanDate() throws {
        let home = try HomeFolder()
        let config = try Self.configFolder(home.url)
        let defaults = config.appendingPathComponent("defaults.plist")
        try Self.nanDatePlist.write(to: defaults)
        // A valid binary plist (python's plistlib cannot turn a NaN date into a datetime, so
        // the app's own reader says so), which `plist print` shows without trapping.
        let print = try Self.run(home.url, "plist", "print", defaults.path)
        #expect(print.status == 0)
        #expect(print.output.contains("WLWhen") && print.output.contains("invalid date (nan)") && print.output.contains("\"kept\""), "\(print.output)")

        let read = try Self.run(home.url, "defaults", "read")
        #expect(read.status == 0)
        #expect(read.output.contains("the date is not a number (nan) at WLWhen"), "\(read.output)")
        #expect(read.output.hasSuffix("{\n    title = kept;\n}\n"), "\(read.output)")
        let aside = try #require(try Self.movedAside(in: config, "defaults.plist.corrupt-").first)
        #expect(try Data(contentsOf: aside) == Self.nanDatePlist)

        #expect(try Self.run(home.url, "defaults", "write", "HPMapType", "-int", "2") == (0, ""))
        #expect(try Self.run(home.url, "defaults", "read") == (0, "{\n    HPMapType = 2;\n    title = kept;\n}\n"))
        let python = try Subprocess.run(["python3", "-c", "import plistlib,sys; print(sorted(plistlib.load(open(sys.argv[1], 'rb')).items()))", defaults.path])
        #expect(python.output == "[('HPMapType', 2), ('title', 'kept')]\n")
    }

    @Test("a sync address with a password: refused with the advice, never saved; one another tool saved is never printed")
    func password() throws {
        let home = try HomeFolder()
        let secret = "Jabberwock-77"
        let write = try Self.run(home.url, "defaults", "write", "WLSyncServer", "postgres://u:\(secret)@host/db")
        #expect(write.status == 1)
        #expect(write.output.contains("PGPASSWORD") && write.output.contains("~/.pgpass"), "\(write.output)")
        #expect(!write.output.contains(secret))
        let config = try Self.configFolder(home.url)
        for name in try FileManager.default.contentsOfDirectory(atPath: config.path) {
            let data = try Data(contentsOf: config.appendingPathComponent(name))
            #expect(data.range(of: Data(secret.utf8)) == nil, "\(name) holds the password")
        }

        let other = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>WLSyncServer</key><string>postgres://u:\(secret)@host/db</string></dict></plist>
            """
        try Data(other.utf8).write(to: config.appendingPathComponent("defaults.plist"))
        for arguments in [["defaults", "read"], ["defaults", "read", "WLSyncServer"], ["defaults", "export", "-"]] {
            let shown = try Self.run(home.url, arguments)
            #expect(shown.status == 0)
            #expect(shown.output.contains("postgres://u@host/db"), "\(arguments): \(shown.output)")
            #expect(!shown.output.contains(secret), "\(arguments) printed the password")
        }
    }

    @Test("an archive a newer version wrote: moved aside byte for byte, the user told, the log says so, never overwritten")
    func newerArchive() throws {
        let tmux = try TmuxSession(columns: 120, rows: 30)
        try tmux.launchApp()
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.type("q")
        try tmux.waitForText("exit=0")

        let bump = """
            import plistlib, sys
            path = sys.argv[1]
            archive = plistlib.load(open(path, 'rb'))
            archive['$top']['WLFormatVersion'] = 99
            open(path, 'wb').write(plistlib.dumps(archive, fmt=plistlib.FMT_BINARY))
            """
        let bumped = try Subprocess.run(["python3", "-c", bump, tmux.archive.path])
        try #require(bumped.status == 0, "python3 could not rewrite the archive: \(bumped.output)")
        let newer = try Data(contentsOf: tmux.archive)

        try tmux.run("clear; \(tmux.binary); echo \"exit=$?\"")
        let told = try tmux.waitForText("Starting fresh").joined(separator: " ")
        #expect(told.contains("newer version"), "\(told)")
        try tmux.press("Enter")
        try tmux.type("3")
        try tmux.type("q")
        try tmux.waitForText("exit=0")

        let kept = try Self.movedAside(in: tmux.stateFolder, "restoration.archive.newer-")
        #expect(kept.count == 1)
        let keptCopy = try #require(kept.first)
        #expect(try Data(contentsOf: keptCopy) == newer)
        let log = try String(contentsOf: tmux.stateFolder.appendingPathComponent("restoration.log"), encoding: .utf8)
        #expect(log.contains("written by a newer version of wonderland; it was moved, unchanged, to \(keptCopy.path)"))
        let saved = try Data(contentsOf: tmux.archive)
        #expect(saved != newer, "this version saved its own archive")

        let frame = try tmux.launchForFirstFrame(forbidding: nil)
        #expect(!frame.joined().contains("Starting fresh"), "told once")
        try tmux.type("q")
        try tmux.waitForText("exit=0")
        #expect(try Data(contentsOf: keptCopy) == newer)
        #expect(try Self.movedAside(in: tmux.stateFolder, "restoration.archive.newer-").count == 1)
    }
}
