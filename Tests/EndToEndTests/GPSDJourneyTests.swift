import Foundation
import Testing

/// The whole path from a real gpsd to the screen: `gpsfake` (Debian's gpsd-clients) replays a
/// walk through Paris on a port of its own, the real binary connects to it through
/// WONDERLAND_GPSD, and the Map tab follows the fixes and shows the course.
@Suite("gpsd journey in tmux", .whenEndToEndIsAskedFor)
struct GPSDJourneyTests {
    static let walk = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../MapFrontTests/Fixtures/paris-walk.nmea").standardizedFileURL

    @Test("a replayed walk: the status says 3D fix, the map follows it, and shows its course")
    func followsARealGPSD() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") else {
            Issue.record("gpsfake is missing: run scripts/setup gpsd (installs gpsd and gpsd-clients)")
            return
        }
        let port = try Self.freePort()
        let tmux = try TmuxSession(columns: 100, rows: 24, environment: ["WONDERLAND_GPSD": "127.0.0.1:\(port)"])
        var gpsfake = try Self.startGPSFake(port: port)
        defer { Self.stop(gpsfake) }
        try tmux.launchApp()
        // gpsd takes a few seconds to listen; the app retries with back-off meanwhile and says so.
        // On a busy machine gpsfake sometimes never hands its gpsd the device ("no GPS device"):
        // then it is started again on the same port, and the app, which keeps retrying, finds
        // the new gpsd by itself — its reconnection is part of what this proves.
        var fixed: [String]?
        for attempt in 1...3 where fixed == nil {
            if attempt > 1 {
                Self.stop(gpsfake)
                gpsfake = try Self.startGPSFake(port: port)
            }
            fixed = try? tmux.waitFor("a 3D fix from gpsd", timeout: 25) { $0.joined(separator: "\n").contains("gpsd: 3D fix") }
        }
        guard let fixed else {
            tmux.check(false, "no 3D fix from three gpsfake runs")
            return
        }
        // Following (the default): the centre is the fix, somewhere on the walk north-east of
        // 48.8566° N, 2.3522° E.
        let position = try #require(fixed.first { $0.contains("Zoom ") })
        tmux.check(position.contains("48.85") || position.contains("48.86"), "centred on the walk: \(position)")
        tmux.check(position.contains("° N, 2.35") || position.contains("° N, 2.36"), "centred on the walk: \(position)")
        try tmux.type("t")
        _ = try tmux.waitForText("Follow with heading, course 45°", timeout: 20)
        try tmux.type("q")
        _ = try tmux.waitForText("exit=0")
    }

    /// Foundation starts the child as the leader of a process group of its own, so one SIGKILL
    /// to the group ends gpsfake and the gpsd it started (gpsfake ignores SIGTERM while it
    /// replays). -n: gpsd reads the device before a client asks; -c 0.1: a tenth of a second
    /// between sentences; the log loops.
    static func startGPSFake(port: Int) throws -> Process {
        let gpsfake = Process()
        gpsfake.executableURL = URL(fileURLWithPath: "/usr/bin/gpsfake")
        gpsfake.arguments = ["-P", String(port), "-n", "-q", "-c", "0.1", walk.path]
        gpsfake.standardOutput = FileHandle.nullDevice
        gpsfake.standardError = FileHandle.nullDevice
        try gpsfake.run()
        return gpsfake
    }

    static func stop(_ gpsfake: Process) {
        // The whole group, even when gpsfake itself has gone: its gpsd may still be there.
        kill(-gpsfake.processIdentifier, SIGKILL)
        gpsfake.waitUntilExit()
    }

    /// A port nothing listens on now: bound to port 0, read back, closed.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
