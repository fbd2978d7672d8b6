import Foundation
import Testing
@testable import MapFront

/// The gpsd source against the real gpsd: `gpsfake` (Debian's gpsd-clients; `scripts/setup gpsd`
/// installs it) starts a private gpsd on its own port and feeds it the NMEA log in Fixtures.
@Suite("gpsd source against a real gpsd (gpsfake)", .serialized, .requires(.gpsfake, .gpsd))
struct GPSDReplayTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/paris-walk.nmea")

    /// The positions, courses and speeds the log's RMC sentences say, as gpsd should report them.
    static func expectedTrack() throws -> [LocationFix] {
        let text = try String(contentsOf: fixture, encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).compactMap { line -> LocationFix? in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.first == "$GPRMC", fields.count > 8,
                  let latitude = degrees(fields[3], fields[4], width: 2), let longitude = degrees(fields[5], fields[6], width: 3),
                  let knots = Double(fields[7]), let course = Double(fields[8]) else { return nil }
            return LocationFix(coordinate: GeoPoint(latitude: latitude, longitude: longitude), course: course, speed: knots * 1852 / 3600)
        }
    }

    /// Starts `arguments` as the leader of a new process group, stdout and stderr to `output`.
    static func spawnInOwnGroup(_ arguments: [String], output: String) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, &cArguments, environ)
        guard result == 0 else { throw TestFailure("posix_spawn \(arguments[0]): \(String(cString: strerror(result)))") }
        return pid
    }

    private static func degrees(_ value: String, _ hemisphere: String, width: Int) -> Double? {
        guard let whole = Double(value.prefix(width)), let minutes = Double(value.dropFirst(width)) else { return nil }
        let degrees = whole + minutes / 60
        return hemisphere == "S" || hemisphere == "W" ? -degrees : degrees
    }

    @Test func fixesFromAReplayedLogArriveWithPositionCourseAndSpeed() throws {
        let gpsfake = "/usr/bin/gpsfake"
        guard FileManager.default.isExecutableFile(atPath: gpsfake) else {
            Issue.record("gpsfake is missing: run scripts/setup gpsd (installs gpsd and gpsd-clients)")
            return
        }
        let track = try Self.expectedTrack()
        #expect(track.count == 20)
        let port = try FakeGPSDServer.closedPort()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfake-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }

        // In a process group of its own, so one signal ends gpsfake and the gpsd it runs.
        // (posix_spawn, not Process: Process cannot put the child in a new group.)
        // -n: gpsd reads the fake GPS before any client watches (without it, a client that
        // connects before gpsfake has added its device is sometimes never given one); the log
        // then plays in a loop, so whenever the source gets there it sees fixes.
        // -c: a tenth of a second between sentences; -q: quiet.
        let group = try Self.spawnInOwnGroup([gpsfake, "-P", String(port), "-n", "-q", "-c", "0.1", Self.fixture.path], output: log.path)
        defer {
            // gpsfake ignores SIGTERM while it replays; SIGKILL to the group ends it and its gpsd.
            kill(-group, SIGKILL)
            var status: Int32 = 0
            waitpid(group, &status, 0)
        }

        // gpsd takes a few seconds to start listening; the source's back-off covers that.
        let configuration = GPSDConfiguration(address: GPSDAddress(host: "127.0.0.1", port: port),
                                              backoff: GPSDBackoff(initial: 0.2, maximum: 0.5))
        let source = GPSDLocationSource(configuration: configuration)
        source.start()
        defer { source.stop() }
        var seen: [LocationFix] = []
        var statuses: Set<String> = []
        let found = waitFor(source, timeout: 40) { source in
            statuses.insert(source.statusText)
            if let fix = source.currentFix, seen.last != fix { seen.append(fix) }
            return seen.count >= 4
        }
        let gpsfakeSaid = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(found, "fixes seen: \(seen); statuses: \(statuses); gpsfake said: \(gpsfakeSaid)")
        #expect(statuses.contains("gpsd: 3D fix"))
        for fix in seen {
            let match = track.first { abs($0.coordinate.latitude - fix.coordinate.latitude) < 1e-6
                && abs($0.coordinate.longitude - fix.coordinate.longitude) < 1e-6 }
            #expect(match != nil, "\(fix.coordinate) is not on the track")
            // gpsd reports a cycle's GGA position before its RMC course when it joins mid-cycle.
            if fix.course != nil {
                #expect(fix.course == 45)
                #expect(abs((fix.speed ?? 0) - 5.144) < 0.001)
            }
        }
        #expect(seen.filter { $0.course == 45 }.count >= 2, "\(seen)")
        // The walk goes north-east: fixes move up the track (once round the loop at most).
        let steps = zip(seen, seen.dropFirst()).filter { $0.coordinate.latitude < $1.coordinate.latitude }.count
        #expect(steps >= seen.count - 2, "\(seen)")
    }
}
