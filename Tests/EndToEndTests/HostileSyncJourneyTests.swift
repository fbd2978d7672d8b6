import Foundation
import Testing

/// Another device's change file in the sync folder holding a value no device may apply: a
/// few hundred bytes of property list whose objects share references, standing for 2^40
/// values once expanded. The app must launch and work as usual, twice in a row, say that a
/// change was skipped, and `wonderland cloud status` must name it; `wonderland cloud list`
/// must end at once with little memory.
@Suite("Hostile synced data journeys in tmux", .whenEndToEndIsAskedFor)
struct HostileSyncJourneyTests {
    @Test("a shared-reference bomb from another device: the app launches twice, says one change was skipped, and cloud status names it")
    func bombInTheSyncFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-e2e-hostile-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let peerFile = PeerChangeFile(device: "0badc0de0badc0de")
        peerFile.add(key: "WLReadingPosition.wonderland", payload: PeerChangeFile.binaryPlistString("chapter 3"), milliseconds: 1_700_000_000_000)
        peerFile.add(key: "HPLocation", payload: PeerChangeFile.sharedReferenceBomb(levels: 40), milliseconds: 1_700_000_000_001)
        try peerFile.write(to: folder.appendingPathComponent("0badc0de0badc0de.1.wlkv"))

        let environment = ["WONDERLAND_SYNC_FOLDER": folder.path]
        let device = try TmuxSession(columns: 120, rows: 24, environment: environment)
        for launch in 1 ... 2 {
            try device.launchApp("--location 48.8566,2.3522 -HPSyncLocations YES")
            _ = try device.waitFor("launch \(launch): synced, one change skipped") { $0[0].contains("synced, 1 skipped") }
            // The app works: the tabs switch and the map still has no pin from the bomb.
            try device.type("2")
            _ = try device.waitFor("the Characters tab") { $0.joined(separator: "\n").contains("Characters") }
            try device.type("1")
            _ = try device.waitForText("No pin yet")
            try device.type("q")
            _ = try device.waitForText("exit=0")
            try device.run("clear")
        }

        let status = try runCloud(["status"], home: device.home, folder: folder)
        #expect(status.output.contains("Skipped:  1 change from elsewhere not applied"), "\(status.output)")
        let named = status.output.split(separator: "\n").first { $0.contains("skipped \"HPLocation\"") }.map(String.init) ?? ""
        #expect(named.contains("device 0badc0de0badc0de"), "\(status.output)")
        #expect(named.contains("0badc0de0badc0de.1.wlkv at byte"), "\(status.output)")
        #expect(named.contains("expands to more than"), "\(status.output)")

        // Measured, not asserted against a clock: the figures go to the test's output.
        let timed = try runCloud(["list"], home: device.home, folder: folder, timed: true)
        #expect(timed.status == 0)
        #expect(timed.output.contains("WLReadingPosition.wonderland = \"chapter 3\""), "\(timed.output)")
        #expect(!timed.output.contains("HPLocation ="), "\(timed.output)")
        let peak = Self.figure("Maximum resident set size (kbytes)", in: timed.output)
        let elapsed = Self.figure("Elapsed (wall clock) time (h:mm:ss or m:ss)", in: timed.output)
        print("wonderland cloud list with the bomb in the folder: elapsed \(elapsed ?? "?"), peak memory \(peak ?? "?") kB")
        // Expanding the bomb would take far more than this; the app's own need is a fraction.
        #expect((peak.flatMap { Int($0) } ?? .max) < 200_000, "\(timed.output)")
    }

    @Test("a launch that died applying a synced change: the next one skips exactly that change, says so in an alert and the tab bar, and cloud status names it")
    func crashWhileApplying() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-e2e-crashed-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let peerFile = PeerChangeFile(device: "0badc0de0badc0de")
        peerFile.add(key: "WLReadingPosition.fatal", payload: PeerChangeFile.binaryPlistString("page 13"), milliseconds: 1_700_000_000_000)
        peerFile.add(key: "WLReadingPosition.kept", payload: PeerChangeFile.binaryPlistString("page 7"), milliseconds: 1_700_000_000_001)
        try peerFile.write(to: folder.appendingPathComponent("0badc0de0badc0de.1.wlkv"))

        let device = try TmuxSession(columns: 120, rows: 24, environment: ["WONDERLAND_SYNC_FOLDER": folder.path])
        try device.launchApp("-HPSyncLocations YES")
        _ = try device.waitFor("synced") { $0[0].hasSuffix("synced") }
        try device.type("q")
        _ = try device.waitForText("exit=0")
        try device.run("clear")

        // What a launch that died applying the first change leaves beside this machine's copy:
        // its marker, naming the change (clock, device, key and origin in hex).
        let copies = device.home.appendingPathComponent(".local/share/wonderland/synced-store")
        let copy = try #require(try FileManager.default.contentsOfDirectory(atPath: copies.path).first { $0.hasPrefix("folder-") && $0.hasSuffix(".plist") })
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let hex = { (text: String) in text.utf8.map { String(format: "%02x", $0) }.joined() }
        let line = "\(UInt64(1_700_000_000_000) << 16) 0badc0de0badc0de \(hex("WLReadingPosition.fatal")) \(hex("0badc0de0badc0de.1.wlkv at byte 8"))\n"
        try Data(line.utf8).write(to: copies.appendingPathComponent("\(copy).applying-\(dead.processIdentifier)-1"))

        try device.launchApp("-HPSyncLocations YES")
        _ = try device.waitFor("the alert naming the change") { lines in
            let words = lines.joined(separator: " ").replacingOccurrences(of: "│", with: " ").split(separator: " ").joined(separator: " ")
            return words.contains("stopped while applying a synced change") && words.contains("WLReadingPosition.fatal")
        }
        try device.press("Enter")
        _ = try device.waitFor("synced, one change skipped") { $0[0].contains("synced, 1 skipped") }
        try device.type("q")
        _ = try device.waitForText("exit=0")

        let status = try runCloud(["status"], home: device.home, folder: folder)
        #expect(status.output.contains("skipped \"WLReadingPosition.fatal\" from device 0badc0de0badc0de"), "\(status.output)")
        #expect(status.output.contains("the last launch stopped while applying it"), "\(status.output)")
        let list = try runCloud(["list"], home: device.home, folder: folder)
        #expect(list.output.contains("WLReadingPosition.kept = \"page 7\""), "\(list.output)")
        #expect(!list.output.contains("WLReadingPosition.fatal ="), "\(list.output)")
    }

    @Test("a sync folder holding a FIFO, a link to /dev/zero, a huge sparse file, a newer format and crafted damage: cloud list and status end and name them; the app launches and says so")
    func hostileFolderContent() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-e2e-files-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let peerFile = PeerChangeFile(device: "0badc0de0badc0de")
        peerFile.add(key: "WLReadingPosition.wonderland", payload: PeerChangeFile.binaryPlistString("chapter 3"), milliseconds: 1_700_000_000_000)
        try peerFile.write(to: folder.appendingPathComponent("0badc0de0badc0de.1.wlkv"))
        #expect(mkfifo(folder.appendingPathComponent("dddd.1.wlkv").path, 0o600) == 0)
        #expect(symlink("/dev/zero", folder.appendingPathComponent("eeee.1.wlkv").path) == 0)
        let huge = folder.appendingPathComponent("ffff.1.wlkv").path
        #expect(FileManager.default.createFile(atPath: huge, contents: Data([0x57, 0x4C, 0x4B, 0x56, 0x01, 0, 0, 0])))
        #expect(truncate(huge, 70 << 20) == 0)
        try Data([0x57, 0x4C, 0x4B, 0x56, 0x02, 0, 0, 0] + Array("a newer build's records".utf8)).write(to: folder.appendingPathComponent("cccc.1.wlkv"))
        // Every 32 bytes a frame that parses, claiming a body that runs to the end of 8 MB.
        var noise = [UInt8](repeating: 0, count: 8 << 20)
        noise.replaceSubrange(0 ..< 8, with: [0x57, 0x4C, 0x4B, 0x56, 0x01, 0, 0, 0])
        var position = 8
        while position + 32 <= noise.count {
            let length = UInt32(noise.count - position - 8)
            let frame = withUnsafeBytes(of: length.bigEndian, Array.init) + [0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + [1, 0x61, 0]
            noise.replaceSubrange(position ..< position + frame.count, with: frame)
            position += 32
        }
        try Data(noise).write(to: folder.appendingPathComponent("abab.1.wlkv"))

        let home = try HomeFolder()
        let timed = try runCloud(["list"], home: home.url, folder: folder, timed: true)
        #expect(timed.output.contains("WLReadingPosition.wonderland = \"chapter 3\""), "\(timed.output)")
        print("wonderland cloud list on the hostile folder: elapsed \(Self.figure("Elapsed (wall clock) time (h:mm:ss or m:ss)", in: timed.output) ?? "?"), peak memory \(Self.figure("Maximum resident set size (kbytes)", in: timed.output) ?? "?") kB")
        let status = try runCloud(["status"], home: home.url, folder: folder)
        for line in ["Unread:   cccc.1.wlkv: written in format 2, newer than this Wonderland reads; it is left as it is",
                     "Unread:   dddd.1.wlkv: not a regular file", "Unread:   eeee.1.wlkv: not a regular file",
                     "Unread:   ffff.1.wlkv: 73400320 bytes, more than the 64 MB a device writes"] {
            #expect(status.output.contains(line), "\(status.output)")
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("cccc.1.wlkv")).count == 31)

        let device = try TmuxSession(columns: 120, rows: 30, environment: ["WONDERLAND_SYNC_FOLDER": folder.path], home: home)
        try device.launchApp("-HPSyncLocations YES")
        _ = try device.waitFor("the alert naming the unread files") { lines in
            let words = lines.joined(separator: " ").replacingOccurrences(of: "│", with: " ").split(separator: " ").joined(separator: " ")
            return words.contains("Left unread while syncing") && words.contains("dddd.1.wlkv")
        }
        try device.press("Enter")
        _ = try device.waitFor("synced") { $0[0].hasSuffix("synced") }
        try device.type("q")
        _ = try device.waitForText("exit=0")
    }

    private func runCloud(_ arguments: [String], home: URL, folder: URL, timed: Bool = false) throws -> (status: Int32, output: String) {
        let binary = try TmuxSession.locateBinary()
        let command = ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home.path)", "XDG_DATA_HOME=\(home.path)/.local/share",
                       "XDG_CONFIG_HOME=\(home.path)/.config", "XDG_STATE_HOME=\(home.path)/.local/state",
                       "WONDERLAND_SYNC_FOLDER=\(folder.path)"] + (timed ? ["/usr/bin/time", "-v"] : []) + [binary, "cloud"] + arguments
        let result = try Subprocess.run(command)
        return (result.status, result.output)
    }

    private static func figure(_ label: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.contains(label) }
            .map { String($0.split(separator: ":", maxSplits: label.filter { $0 == ":" }.count + 1).last ?? "").trimmingCharacters(in: .whitespaces) }
    }
}

/// A change file as another device writes it (see the Cloud module's ChangeFileFormat), made
/// by hand so the test depends on the format, not on the code under test.
private final class PeerChangeFile {
    let device: String
    private var bytes: [UInt8] = [0x57, 0x4C, 0x4B, 0x56, 0x01, 0x00, 0x00, 0x00]

    init(device: String) { self.device = device }

    func add(key: String, payload: [UInt8], milliseconds: UInt64) {
        var body: [UInt8] = []
        body += Self.bigEndian(UInt16(key.utf8.count)) + Array(key.utf8)
        body += Self.bigEndian(milliseconds << 16)  // the hybrid clock: milliseconds, then a counter
        body += [UInt8(device.utf8.count)] + Array(device.utf8) + [0]
        body += payload
        bytes += Self.bigEndian(UInt32(body.count)) + Self.bigEndian(Self.crc32(body)) + body
    }

    func write(to url: URL) throws { try Data(bytes).write(to: url) }

    /// Object k (k < levels) is an array of two references to object k + 1; the last is 1.
    static func sharedReferenceBomb(levels: Int) -> [UInt8] {
        var objects: [[UInt8]] = (0 ..< levels).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x10, 0x01])
        return binaryPlist(objects)
    }

    static func binaryPlistString(_ text: String) -> [UInt8] {
        binaryPlist([[0x50 | UInt8(text.utf8.count)] + Array(text.utf8)])
    }

    private static func binaryPlist(_ objects: [[UInt8]]) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets + [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += bigEndian(UInt64(objects.count)) + bigEndian(UInt64(0)) + bigEndian(UInt64(table))
        return bytes
    }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian, Array.init)
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0 ..< 8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
