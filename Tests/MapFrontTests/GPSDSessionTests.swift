import Testing
@testable import MapFront

@Suite("gpsd back-off and status, as pure logic")
struct GPSDSessionTests {
    let paris = LocationFix(coordinate: GeoPoint(latitude: 48.8566, longitude: 2.3522), course: 90, speed: 3)

    @Test func backOffDoublesFromOneSecondToThirtyAndResets() {
        var backoff = GPSDBackoff()
        let delays = (0..<8).map { _ in backoff.delayAfterFailure() }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30])
        backoff.reset()
        #expect(backoff.delayAfterFailure() == 1)
    }

    /// Moments shown as "t" and the clock's seconds, so the texts do not depend on the time zone.
    static let clockSeconds: @Sendable (Double) -> String = { "t\(Int($0.rounded(.up)))" }

    @Test func statusWhileGPSDIsAbsentNamesTheTimeOfTheNextTryAndStaysPut() {
        var session = GPSDSession(address: .standard, timeText: Self.clockSeconds)
        #expect(session.statusText(at: 0) == "gpsd: connecting to localhost:2947")
        #expect(session.failed(.refused, at: 100) == 1)
        #expect(session.statusText(at: 100) == "gpsd: not running (retrying at t101)")
        session.connecting()
        #expect(session.failed(.refused, at: 101) == 2)
        session.connecting()
        #expect(session.failed(.refused, at: 103) == 4)
        #expect(session.statusText(at: 103) == "gpsd: not running (retrying at t107)")
        // No countdown: the line reads the same until the retry, so nothing needs redrawing.
        #expect(session.statusText(at: 105.5) == session.statusText(at: 103))
        #expect(session.nextStatusChange(after: 103) == nil, "waiting for a retry changes nothing on screen by itself")
    }

    @Test func theLocalTimeOfDayIsShownToTheSecond() {
        #expect(GPSDTimeOfDay.text(forWallClock: 0).count == 8)
        #expect(GPSDTimeOfDay.text(forWallClock: 59.2) == GPSDTimeOfDay.text(forWallClock: 60))
        #expect(GPSDTimeOfDay.text(forWallClock: 60) != GPSDTimeOfDay.text(forWallClock: 61))
    }

    @Test func everyFailureIsNamed() {
        let address = GPSDAddress(host: "gps.local", port: 3000)
        let cases: [(GPSDConnectionFailure, String)] = [
            (.refused, "gpsd: not running at gps.local:3000 (retrying at t1)"),
            (.timedOut, "gpsd: no answer from gps.local:3000 (retrying at t1)"),
            (.unresolved("gps.local"), "gpsd: cannot find host gps.local (retrying at t1)"),
            (.closed, "gpsd: gps.local:3000 closed the connection (retrying at t1)"),
            (.error("Network is unreachable"), "gpsd: gps.local:3000: Network is unreachable (retrying at t1)"),
        ]
        for (failure, text) in cases {
            var session = GPSDSession(address: address, timeText: Self.clockSeconds)
            session.failed(failure, at: 0)
            #expect(session.statusText(at: 0) == text)
        }
    }

    @Test func aConnectionThatDeliversResetsTheBackOff() {
        var session = GPSDSession(address: .standard)
        for time in 0..<4 { session.failed(.refused, at: Double(time)) }
        session.connected(at: 10)
        session.received(.version(release: "3.22"), at: 10)
        #expect(session.failed(.closed, at: 11) == 1)
    }

    @Test func aConnectionThatOnlySendsGarbageDoesNotResetTheBackOff() {
        var session = GPSDSession(address: .standard)
        session.failed(.refused, at: 0)
        session.connected(at: 1)
        session.received(.ignored("a malformed report"), at: 1)
        #expect(session.failed(.closed, at: 2) == 2)
    }

    @Test func fixModesReadAsWords() {
        var session = GPSDSession(address: .standard)
        session.connected(at: 0)
        #expect(session.statusText(at: 0) == "gpsd: no fix yet")
        session.received(.noPosition(.noFix), at: 1)
        #expect(session.statusText(at: 1) == "gpsd: no fix yet")
        session.received(.position(paris, .threeDimensional), at: 2)
        #expect(session.statusText(at: 2) == "gpsd: 3D fix")
        #expect(session.fix == paris)
        session.received(.position(paris, .twoDimensional), at: 3)
        #expect(session.statusText(at: 3) == "gpsd: 2D fix")
        session.received(.noPosition(.noFix), at: 4)
        #expect(session.statusText(at: 4) == "gpsd: fix lost")
        #expect(session.fix == paris, "the last place known stays")
    }

    @Test func aStallNamesTheTimeOfTheLastFixOnceAndThenStaysPut() {
        var session = GPSDSession(address: .standard, stallAfter: 5, timeText: Self.clockSeconds)
        session.connected(at: 0)
        #expect(session.nextStatusChange(after: 0) == 5, "no fix yet turns into a stall")
        session.received(.position(paris, .threeDimensional), at: 1)
        #expect(session.nextStatusChange(after: 1) == 6, "the one moment the fix goes stale")
        #expect(session.statusText(at: 5.9) == "gpsd: 3D fix")
        #expect(session.statusText(at: 6) == "gpsd: no fix since t1")
        #expect(session.statusText(at: 13.2) == "gpsd: no fix since t1")
        #expect(session.nextStatusChange(after: 6) == nil, "a stalled line needs no more waking")
    }

    @Test func aConnectionThatNeverGetsAFixStallsToo() {
        var session = GPSDSession(address: .standard, stallAfter: 5, timeText: Self.clockSeconds)
        session.connected(at: 100)
        session.received(.devices(count: 0), at: 100)
        #expect(session.statusText(at: 101) == "gpsd: no GPS device")
        #expect(session.statusText(at: 112) == "gpsd: no GPS device", "true until gpsd reports a receiver")
        #expect(session.nextStatusChange(after: 101) == nil, "nothing to wait for without a receiver")
        // gpsfake adds its device after the first client came: no longer "no device".
        session.received(.other(className: "DEVICE"), at: 113)
        #expect(session.statusText(at: 113) == "gpsd: no fix since t100")
        #expect(session.nextStatusChange(after: 113) == nil)
    }

    @Test func aReceiverThatWentAwayAfterAFixStillStalls() {
        var session = GPSDSession(address: .standard, stallAfter: 5, timeText: Self.clockSeconds)
        session.connected(at: 0)
        session.received(.position(paris, .threeDimensional), at: 1)
        session.received(.devices(count: 0), at: 2)
        #expect(session.nextStatusChange(after: 2) == 6)
        #expect(session.statusText(at: 7) == "gpsd: no fix since t1 (no GPS device)")
    }

    @Test func theStartOfACycleDoesNotUndoAFix() {
        var session = GPSDSession(address: .standard)
        session.connected(at: 0)
        session.received(.position(paris, .threeDimensional), at: 1)
        session.received(.noPosition(.threeDimensional), at: 2)
        #expect(session.statusText(at: 2) == "gpsd: 3D fix")
    }

    @Test func anIgnoredReportIsMentionedForAWhile() {
        var session = GPSDSession(address: .standard, ignoredNoteLasts: 10)
        session.connected(at: 0)
        session.received(.position(paris, .threeDimensional), at: 1)
        session.received(.ignored("a TPV with a NaN latitude"), at: 2)
        #expect(session.statusText(at: 2) == "gpsd: 3D fix · ignored a TPV with a NaN latitude")
        #expect(session.fix == paris)
        session.received(.position(paris, .threeDimensional), at: 12)
        #expect(session.statusText(at: 12) == "gpsd: 3D fix")
        session.lineTooLong(at: 13)
        #expect(session.statusText(at: 13) == "gpsd: 3D fix · ignored a report over 16 KiB")
        session.received(.gpsdError("Unrecognized request"), at: 14)
        #expect(session.statusText(at: 14) == "gpsd: 3D fix · gpsd said: Unrecognized request")
        #expect(session.ignoredCount == 3)
        #expect(session.nextStatusChange(after: 14) == 17, "the fix (from 12) goes stale before the note runs out at 24")
        session.received(.position(paris, .threeDimensional), at: 20)
        #expect(session.nextStatusChange(after: 20) == 24, "the note runs out")
    }

    @Test func aReconnectRestartsTheStallClockButKeepsTheLastPlace() {
        var session = GPSDSession(address: .standard, stallAfter: 5)
        session.connected(at: 0)
        session.received(.position(paris, .threeDimensional), at: 1)
        session.failed(.closed, at: 2)
        session.connected(at: 3)
        #expect(session.statusText(at: 4) == "gpsd: no fix yet")
        #expect(session.fix == paris)
    }
}
