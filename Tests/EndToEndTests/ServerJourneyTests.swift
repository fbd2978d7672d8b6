import Foundation
import Testing

/// Two devices syncing through a PostgreSQL server: two `wonderland`s with their own HOMEs
/// (their own defaults, local copies and device ids) and a throw-away server of their own
/// (scripts/pg-server), as two machines would share a database. The pin goes both ways live;
/// a server that crashes leaves both working, and they catch up when it is back; and the
/// password is never written or printed anywhere.
@Suite("Synced store through a PostgreSQL server, in tmux", .whenEndToEndIsAskedFor)
struct ServerJourneyTests {
    static let paris = "--location 48.8566,2.3522 -HPSyncLocations YES"

    @Test("a pin remembered on one device appears on the other through the server; cleared there, it goes here")
    func twoDevicesShareThePinThroughTheServer() throws {
        let server = try ThrowAwayServer()
        let environment = ["WONDERLAND_SYNC_URL": server.url, "PGPASSWORD": server.password]
        let phone = try TmuxSession(columns: 120, rows: 24, environment: environment, session: "phone")
        let laptop = try TmuxSession(columns: 120, rows: 24, environment: environment, session: "laptop")
        for device in [phone, laptop] {
            try device.launchApp(Self.paris)
            _ = try device.waitForText("synced · server \(server.url)")
        }

        try phone.rememberPlace("Rabbit hole")
        _ = try laptop.waitForText("⚑ Rabbit hole")

        try laptop.clearPin()
        _ = try phone.waitFor("the pin gone") { !$0.joined(separator: "\n").contains("Rabbit hole") }
        _ = try phone.waitForText("No pin yet")

        try laptop.rememberPlace("Tea party")
        _ = try phone.waitForText("⚑ Tea party")
        try quit(phone, laptop)
    }

    @Test("the server crashes mid-run: both keep working and say offline; a pin remembered meanwhile reaches the other once it is back")
    func serverKilledAndRestarted() throws {
        let server = try ThrowAwayServer()
        let environment = ["WONDERLAND_SYNC_URL": server.url, "PGPASSWORD": server.password]
        let phone = try TmuxSession(columns: 160, rows: 24, environment: environment, session: "phone")
        let laptop = try TmuxSession(columns: 160, rows: 24, environment: environment, session: "laptop")
        for device in [phone, laptop] {
            try device.launchApp(Self.paris)
            _ = try device.waitForText("synced · server")
        }
        try phone.rememberPlace("Before the crash")
        _ = try laptop.waitForText("⚑ Before the crash")

        // The throw-away server runs with synchronous_commit off: a commit from the last moments
        // before a crash may be lost, which a server with its default settings never does. What
        // is tested is the apps, so the pin already seen by both is made durable first.
        try server.checkpoint()
        try server.kill()
        _ = try laptop.waitForText("offline", timeout: 20)
        try phone.rememberPlace("While it was down")
        _ = try phone.waitForText("offline", timeout: 20)
        _ = try phone.waitForText("1 change waiting")
        laptop.check(try laptop.screen().joined(separator: "\n").contains("⚑ Before the crash"), "the laptop keeps the pin it had")
        try laptop.type("2")  // the laptop keeps working on its own copy meanwhile
        _ = try laptop.waitForText("▸ Alice")
        try laptop.type("1")
        _ = try laptop.waitForText("⚑ Before the crash")

        try server.start()
        // Reconnecting backs off up to the backend's longest wait: a bounded deadline, not a timing.
        try keepingBothScreens(phone, laptop) {
            _ = try laptop.waitForText("⚑ While it was down", timeout: 40)
            _ = try phone.waitFor("the phone synced again", timeout: 40) { $0[0].contains("synced · server") }
            _ = try laptop.waitFor("the laptop synced again", timeout: 40) { $0[0].contains("synced · server") }
        }
        phone.check(try phone.screen().joined(separator: "\n").contains("⚑ While it was down"), "the phone keeps its pin")
        try quit(phone, laptop)
    }

    /// What another tool does to the defaults: read the plist, set one key, replace the file.
    static let writeSetting = """
    import os, plistlib, sys
    path, key, value = sys.argv[1:4]
    with open(path, "rb") as f:
        values = plistlib.load(f)
    values[key] = value
    with open(path + ".tool", "wb") as f:
        plistlib.dump(values, f)
    os.replace(path + ".tool", path)
    """

    @Test("the password, given in PGPASSWORD and in the address, is never in the defaults, the state, a log, the screen or cloud status; the settings refuse it")
    func credentialsStayOut() throws {
        let server = try ThrowAwayServer()
        let withPassword = server.url.replacingOccurrences(of: "postgres://wonderland@", with: "postgres://wonderland:\(server.password)@")
        let environment = ["WONDERLAND_SYNC_URL": withPassword, "PGPASSWORD": server.password]
        let phone = try TmuxSession(columns: 160, rows: 30, environment: environment, session: "phone")
        let errors = phone.home.appendingPathComponent("stderr.txt").path
        // No "; echo" after the app: the shell would run it as soon as the job stops (Ctrl-Z below).
        try phone.run("clear; \(phone.binary) \(Self.paris) 2>>\(errors)")
        _ = try phone.waitForText("synced · server \(server.url)")
        try phone.rememberPlace("Secret garden")
        _ = try phone.waitFor("the pin sent") { $0[0].contains("synced · server") }

        // Half-typed into the in-app settings, then Ctrl-Z, which saves the place with the
        // draft: `state show` prints the draft without its password.
        try phone.type(",")
        try selectRow("Sync Server", in: phone)
        try phone.press("Enter")
        try phone.press("C-u")
        // What is typed shows while it is typed, as in any text field; only those screens may hold it.
        let typingStarts = phone.captures.count
        try phone.type(withPassword)
        // Ctrl-Z stops the app at once, even before it read what was typed: wait for the field.
        _ = try phone.waitForText(withPassword)
        try phone.press("C-z")
        _ = try phone.waitForText("Stopped")
        let whileStopped = try phone.wonderland(["state", "show"], environment: environment)
        // A draft holding a password is not archived at all (the rest of the screen is).
        #expect(!whileStopped.output.contains("postgres://wonderland:"), "the draft with its password is not saved: \(whileStopped.output)")
        #expect(whileStopped.output.contains("SettingsSheet"), "\(whileStopped.output)")
        try phone.run("fg")
        _ = try phone.waitForText("Sync Server")
        try phone.press("Escape")  // the edit is dropped
        try phone.press("Escape")  // the settings close
        _ = try phone.waitFor("the settings closed") { !$0.joined(separator: "\n").contains("Sync Reading Position") }
        let typingEnds = phone.captures.count

        // `wonderland defaults write` refuses an address with a password, and changes nothing.
        let refusedWrite = try phone.wonderland(["defaults", "write", "WLSyncServer", withPassword], environment: environment)
        #expect(refusedWrite.status == 1, "\(refusedWrite.output)")
        #expect(!refusedWrite.output.contains(server.password), "\(refusedWrite.output)")
        // Another tool writes the password into the setting: the app takes it out and says so.
        let defaultsFile = phone.home.appendingPathComponent(".config/wonderland/defaults.plist").path
        let written = try Subprocess.run(["python3", "-c", Self.writeSetting, defaultsFile, "WLSyncServer", withPassword])
        #expect(written.status == 0, "\(written.output)")
        _ = try phone.waitForText("held a password", timeout: 15)
        try phone.press("Enter")
        let deadline = Date().addingTimeInterval(10)
        while try phone.wonderland(["defaults", "read", "WLSyncServer"], environment: [:]).output.trimmingCharacters(in: .whitespacesAndNewlines) != server.url {
            if Date() > deadline { throw E2EError("the app never wrote the setting back without its password") }
            usleep(100_000)
        }

        // The settings program refuses an address with a password, and says where it goes.
        let settings = try TmuxSession(columns: 120, rows: 40, home: phone.homeFolder, session: "settings")
        try settings.run("clear; \(settings.binary) settings 2>>\(errors); echo \"exit=$?\"")
        try selectRow("Sync Server", in: settings)
        try settings.press("Enter")
        try settings.press("C-u")
        try settings.type(withPassword)
        try settings.press("Enter")
        _ = try settings.waitForText("not saved")
        let refused = settings.captures.count - 1
        _ = try settings.waitForText("~/.pgpass")
        try settings.press("Enter")
        try settings.type("q")
        _ = try settings.waitForText("exit=0")

        try phone.type("q")
        _ = try phone.waitFor("the app gone") { !$0.joined(separator: "\n").contains("1 Map") }
        try phone.run("echo \"exit=$?\"")
        _ = try phone.waitForText("exit=0")

        // What the user and other programs can see.
        let status = try phone.wonderland(["cloud", "status"], environment: environment)
        #expect(status.output.contains("Server:   \(server.url) (from WONDERLAND_SYNC_URL)"), "\(status.output)")
        // As in libpq, the address's own password comes before PGPASSWORD.
        #expect(status.output.contains("Password: from the address"), "\(status.output)")
        #expect(status.output.contains("Backend:  server \(server.url)"), "\(status.output)")
        #expect(status.output.contains("Reached:  yes"), "\(status.output)")
        let state = try phone.wonderland(["state", "show"], environment: environment)
        let defaults = try phone.wonderland(["defaults", "read"], environment: environment)
        #expect(defaults.output.contains("WLSyncServer"), "the scrubbed address is kept: \(defaults.output)")
        var seen: [(String, String)] = [("cloud status", status.output), ("state show", state.output), ("defaults read", defaults.output)]
        let appScreens = phone.captures.enumerated().filter { !(typingStarts..<typingEnds).contains($0.offset) }.map(\.element)
        seen += appScreens.map { ("the app's screen", $0) } + settings.captures[refused...].map { ("the settings' screen", $0) }
        for (what, text) in seen {
            #expect(!text.contains(server.password), "the password is in \(what)")
        }
        // Every file the app and the settings wrote (defaults, saved state, restoration log,
        // local copy of the store, device id) and everything they wrote to standard error.
        let files = try filesUnder(phone.home)
        #expect(files.contains { $0.hasSuffix("stderr.txt") })
        #expect(files.contains { $0.contains(".config/wonderland") }, "the defaults file is among them: \(files)")
        for file in files {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data(server.password.utf8)) == nil, "the password is in \(file)")
        }
    }

    // MARK: helpers

    /// Moves the settings' selection down to the row titled `title`.
    private func selectRow(_ title: String, in device: TmuxSession) throws {
        _ = try device.waitForText("▸ Sync Locations")
        for _ in 0..<12 {
            let selected = try device.screen("selecting \(title)").first { $0.hasPrefix("▸") } ?? ""
            if selected.contains(title) { return }
            try device.press("Down")
            try device.waitFor("the selection below “\(selected)”") { $0.first { $0.hasPrefix("▸") } != selected }
        }
        throw E2EError("no row \(title) in the settings")
    }

    /// Runs `steps`; when one fails, every device's screens are kept, not only the one that
    /// timed out: the other device is usually where the reason shows.
    private func keepingBothScreens(_ devices: TmuxSession..., steps: () throws -> Void) throws {
        do {
            try steps()
        } catch {
            for device in devices { _ = device.keepScreens() }
            throw error
        }
    }

    private func quit(_ devices: TmuxSession...) throws {
        for device in devices {
            try device.type("q")
            _ = try device.waitForText("exit=0")
        }
    }

    private func filesUnder(_ folder: URL) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { throw E2EError("cannot list \(folder.path)") }
        var files: [String] = []
        for case let relative as String in walker {
            let path = folder.appendingPathComponent(relative).path
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue { files.append(path) }
        }
        return files
    }
}

extension TmuxSession {
    /// `wonderland ARGUMENTS` outside tmux with this session's HOME and `environment` only.
    func wonderland(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let variables = environment.map { "\($0.key)=\($0.value)" }.sorted()
        return try Subprocess.run(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home.path)"] + variables + [binary] + arguments)
    }
}

/// A PostgreSQL server of one journey's own (scripts/pg-server: its own data folder, port and
/// generated password, on loopback), stopped and removed when the journey ends, failed or not.
final class ThrowAwayServer {
    let folder: URL
    let url: String
    let password: String
    private let script: String

    init() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        script = repository.appendingPathComponent("scripts/pg-server").path
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-e2e-pg-\(getpid())-\(UUID().uuidString.prefix(8))")
        let started = try Subprocess.run([script, "start", folder.path])
        guard started.status == 0, let line = started.output.split(separator: "\n").last(where: { $0.hasPrefix("postgres://") }) else {
            try? FileManager.default.removeItem(at: folder)
            throw E2EError("scripts/pg-server start failed (scripts/setup postgresql installs the server):\n\(started.output)")
        }
        url = String(line)
        password = try Self.run(script, "password", folder.path).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        _ = try? Subprocess.run([script, "stop", folder.path])
        try? FileManager.default.removeItem(at: folder)
    }

    /// As a crash would: no shutdown, connections dropped.
    func kill() throws { _ = try Self.run(script, "kill", folder.path) }

    /// Everything committed so far, on disk.
    func checkpoint() throws { _ = try Self.run(script, "psql", folder.path, "-qAt", "-c", "CHECKPOINT") }

    /// One statement's rows, unaligned, through the server's own psql.
    func query(_ sql: String) throws -> String { try Self.run(script, "psql", folder.path, "-qAt", "-c", sql) }

    /// Again, on the same port and data.
    func start() throws { _ = try Self.run(script, "start", folder.path) }


    private static func run(_ arguments: String...) throws -> String {
        let result = try Subprocess.run(arguments)
        guard result.status == 0 else { throw E2EError("\(arguments.joined(separator: " ")) failed:\n\(result.output)") }
        return result.output
    }
}
