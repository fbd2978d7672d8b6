import Foundation
import Testing

/// Two devices in two terminals: two `wonderland`s with their own HOMEs (their own defaults,
/// local copies and device ids) syncing through one folder, as two machines would through
/// Syncthing. The pin goes both ways live; sync turned off keeps them apart; a folder that is
/// gone for a while leaves both working and they catch up when it is back.
@Suite("Synced store journeys in tmux", .whenEndToEndIsAskedFor)
struct CloudJourneyTests {
    static let paris = "--location 48.8566,2.3522"

    @Test("a pin remembered on one device appears on the other; cleared there, it goes here; sync off, they diverge; folder gone and back, they catch up")
    func twoDevicesShareThePin() throws {
        let folder = try SyncFolder()
        let environment = ["WONDERLAND_SYNC_FOLDER": folder.url.path]
        let phone = try TmuxSession(columns: 100, rows: 24, environment: environment)
        let laptop = try TmuxSession(columns: 100, rows: 24, environment: environment)
        for device in [phone, laptop] {
            try device.launchApp(Self.paris)
            try toggleSyncLocations(device)
            _ = try device.waitForText("synced")
        }

        // Remember a place on the phone: the laptop's map shows it.
        try phone.rememberPlace("Rabbit hole")
        _ = try laptop.waitForText("⚑ Rabbit hole")

        // Clear it on the laptop: it goes on the phone.
        try laptop.clearPin()
        _ = try phone.waitFor("the pin gone") { !$0.joined(separator: "\n").contains("Rabbit hole") }
        _ = try phone.waitForText("No pin yet")

        // Sync off on the laptop (live, from the settings): the two go their own ways.
        try toggleSyncLocations(laptop)
        _ = try laptop.waitFor("no sync status") { !$0[0].contains("sync") }
        try phone.rememberPlace("Phone only")
        try laptop.rememberPlace("Laptop only")
        _ = try phone.waitFor("the phone's pin sent") { $0[0].hasSuffix("synced") }
        _ = try wonderlandCloud(["list"], home: phone.home, folder: folder.url, expecting: "Phone only")
        // Nothing to wait for when nothing should happen: give a change time to travel
        // (the folder is watched within a second), then look.
        usleep(2_000_000)
        phone.check(try phone.screen().joined(separator: "\n").contains("⚑ Phone only"), "the phone keeps its pin")
        laptop.check(try laptop.screen().joined(separator: "\n").contains("⚑ Laptop only"), "the laptop keeps its own pin")

        // Sync on again: the store has a pin, and the store wins.
        try toggleSyncLocations(laptop)
        _ = try laptop.waitForText("⚑ Phone only")

        // The folder goes away (renamed: root reads anything, so permissions would not stop
        // it): both keep working on their own copies and say so.
        let away = folder.url.deletingLastPathComponent().appendingPathComponent(folder.url.lastPathComponent + ".away")
        try FileManager.default.moveItem(at: folder.url, to: away)
        try phone.rememberPlace("While offline")
        _ = try phone.waitForText("offline")
        _ = try phone.waitForText("1 change waiting")
        _ = try laptop.waitForText("offline")
        try FileManager.default.moveItem(at: away, to: folder.url)
        _ = try laptop.waitForText("⚑ While offline", timeout: 15)
        _ = try phone.waitFor("synced again") { $0[0].hasSuffix("synced") }

        for device in [phone, laptop] {
            try device.type("q")
            _ = try device.waitForText("exit=0")
        }
    }

    @Test("a sync folder the apps may not read (chmod 000, the apps run as an unprivileged user): both keep working, say so, and catch up when it is readable again")
    func unreadableFolder() throws {
        let folder = try SyncFolder()
        let environment = ["WONDERLAND_SYNC_FOLDER": folder.url.path]
        // 160 columns: the status names the reason after the folder's long path.
        let phone = try TmuxSession(columns: 160, rows: 24, environment: environment)
        let laptop = try TmuxSession(columns: 160, rows: 24, environment: environment)
        // Permissions do not stop root, so as root the apps run as nobody, who owns the folders.
        let asUser = try Unprivileged.prefix(owning: [folder.url, phone.home, laptop.home])
        for device in [phone, laptop] {
            try device.launchApp(Self.paris + " -HPSyncLocations YES", environment: asUser)
            _ = try device.waitForText("synced")
        }
        try phone.rememberPlace("Before")
        _ = try laptop.waitForText("⚑ Before")

        #expect(chmod(folder.url.path, 0) == 0)
        try phone.rememberPlace("Unreadable meanwhile")
        _ = try phone.waitForText("offline")
        _ = try phone.waitForText("1 change waiting")
        _ = try phone.waitForText("Permission denied")
        _ = try laptop.waitForText("offline")
        laptop.check(try laptop.screen().joined(separator: "\n").contains("⚑ Before"), "the laptop keeps the pin it had")

        #expect(chmod(folder.url.path, 0o700) == 0)
        _ = try laptop.waitForText("⚑ Unreadable meanwhile", timeout: 15)
        _ = try phone.waitFor("synced again") { $0[0].hasSuffix("synced") }
        for device in [phone, laptop] {
            try device.type("q")
            _ = try device.waitForText("exit=0")
        }
    }

    @Test("reading on one device moves the other's open book to the same place, and says so")
    func readingPositionFollows() throws {
        let folder = try SyncFolder()
        let book = try SyncedBook(beside: folder.url)
        let environment = ["WONDERLAND_SYNC_FOLDER": folder.url.path]
        let phone = try TmuxSession(columns: 100, rows: 24, environment: environment)
        let laptop = try TmuxSession(columns: 100, rows: 24, environment: environment)
        for device in [phone, laptop] { try device.openSynced(book) }
        let paragraph = try phone.readSixPages()
        _ = try laptop.waitForText("Moved to where you were reading elsewhere.")
        _ = try laptop.waitForText(paragraph)
        for device in [phone, laptop] {
            try device.type("q")
            _ = try device.waitForText("exit=0")
        }
    }

    @Test("Ctrl-Z stops syncing, fg fetches what changed meanwhile; a pin remembered just before quitting still goes")
    func suspendAndQuit() throws {
        let folder = try SyncFolder()
        let environment = ["WONDERLAND_SYNC_FOLDER": folder.url.path]
        let phone = try TmuxSession(columns: 100, rows: 24, environment: environment)
        let laptop = try TmuxSession(columns: 100, rows: 24, environment: environment)
        try phone.launchApp(Self.paris + " -HPSyncLocations YES")
        // No "; echo" after the app: the shell would run it as soon as the job stops.
        try laptop.run("clear; \(laptop.binary) \(Self.paris) -HPSyncLocations YES")
        for device in [phone, laptop] { _ = try device.waitForText("synced") }

        try laptop.press("C-z")
        _ = try laptop.waitForText("Stopped")
        try phone.rememberPlace("While stopped")
        _ = try phone.waitFor("the pin sent") { $0[0].hasSuffix("synced") }
        try laptop.run("fg")
        _ = try laptop.waitForText("⚑ While stopped")

        // Remember and quit at once: quitting sends what is queued.
        try laptop.type("r")
        _ = try laptop.waitForText("Remember this place")
        try laptop.press("C-u")
        try laptop.type("Last words")
        try laptop.press("Enter")
        try laptop.type("q")
        try laptop.run("echo \"exit=$?\"")
        _ = try laptop.waitForText("exit=0")
        _ = try phone.waitForText("⚑ Last words")
        try phone.type("q")
        _ = try phone.waitForText("exit=0")
    }

    @Test("wonderland cloud status tells the folder, the device and what waits")
    func cloudStatusCommand() throws {
        let folder = try SyncFolder()
        let home = try HomeFolder()
        let output = try wonderlandCloud(["status"], home: home.url, folder: folder.url, expecting: "Reached:  yes")
        #expect(output.contains("Folder:   \(folder.url.path) (from WONDERLAND_SYNC_FOLDER)"))
        #expect(output.contains("Device:   "))
        #expect(output.contains("Waiting:  0 changes"))
    }

    // MARK: helpers

    /// `,` opens the settings; their first row is Sync Locations.
    private func toggleSyncLocations(_ device: TmuxSession) throws {
        try device.type(",")
        _ = try device.waitForText("Sync Locations")
        try device.press("Space")
        try device.press("Escape")
        _ = try device.waitFor("the settings closed") { !$0.joined(separator: "\n").contains("Sync Locations") }
    }

    /// Runs `wonderland cloud …` as the device with that HOME would, until its output holds
    /// `expecting` (the folder is synced by the apps in the background).
    @discardableResult
    private func wonderlandCloud(_ arguments: [String], home: URL, folder: URL, expecting: String) throws -> String {
        let binary = try TmuxSession.locateBinary()
        let deadline = Date().addingTimeInterval(10)
        while true {
            let result = try Subprocess.run(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home.path)",
                                             "WONDERLAND_SYNC_FOLDER=\(folder.path)", binary, "cloud"] + arguments)
            if result.output.contains(expecting) { return result.output }
            if Date() > deadline { throw E2EError("wonderland cloud \(arguments.joined(separator: " ")) never said \(expecting):\n\(result.output)") }
            usleep(100_000)
        }
    }
}

/// Running the app as a user that file permissions apply to.
private enum Unprivileged {
    static let nobody: uid_t = 65534

    /// What goes before the binary: nothing when the tests already run unprivileged; as root,
    /// `setpriv` to nobody, who is given `folders`.
    static func prefix(owning folders: [URL]) throws -> String {
        guard geteuid() == 0 else { return "" }
        for folder in folders {
            guard chown(folder.path, nobody, gid_t(nobody)) == 0 else { throw E2EError("cannot give \(folder.path) to nobody") }
        }
        return "setpriv --reuid=\(nobody) --regid=\(nobody) --clear-groups"
    }
}

/// A temporary sync folder both devices point at, removed afterwards.
final class SyncFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("wl-e2e-sync-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit {
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".away"))
    }
}
