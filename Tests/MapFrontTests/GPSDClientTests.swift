import Foundation
import Testing
@testable import MapFront

/// The gpsd source against a fake gpsd on a loopback socket: the real socket code, thread and
/// wake-ups, with the server's side scripted by the test.
@Suite("gpsd client against a fake gpsd", .serialized)
struct GPSDClientTests {
    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
    static let devices = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0","native":0,"bps":4800}]}"#
    static let watch = #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0}"#

    static func tpv(_ lat: Double, _ lon: Double, track: Double = 45, speed: Double = 5.144) -> String {
        #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"lat":\#(lat),"lon":\#(lon),"track":\#(track),"speed":\#(speed)}"#
    }

    func makeSource(_ server: FakeGPSDServer, clock: ManualClock? = nil, backoff: GPSDBackoff = GPSDBackoff(initial: 0.05, maximum: 0.2),
                    longestSleep: Double? = nil) -> GPSDLocationSource {
        var configuration = GPSDConfiguration(address: server.address, backoff: backoff, stallAfter: 5, connectTimeout: 5, longestSleep: longestSleep,
                                              timeText: GPSDSessionTests.clockSeconds)
        if let clock { configuration.clock = { clock.now } }
        return GPSDLocationSource(configuration: configuration)
    }

    @Test func itAsksForJSONReportsAndTakesTheFix() throws {
        let server = try FakeGPSDServer()
        let source = makeSource(server)
        defer { source.stop() }
        #expect(source.statusText == "gpsd: connecting to 127.0.0.1:\(server.port)")
        source.start()
        let client = try server.accept()
        #expect(try client.readLine() == #"?WATCH={"enable":true,"json":true}"#)
        client.sendLines(Self.version, Self.devices, Self.watch, Self.tpv(48.8566, 2.3522, track: 270.5, speed: 1.5))
        #expect(waitFor(source) { $0.currentFix != nil })
        #expect(source.currentFix == LocationFix(coordinate: GeoPoint(latitude: 48.8566, longitude: 2.3522), course: 270.5, speed: 1.5))
        #expect(source.statusText == "gpsd: 3D fix")
        #expect(source.refresh() == false, "no news, no redraw")
    }

    @Test func badReportsAreIgnoredAndSaidSoAndLinesMayArriveInPieces() throws {
        let server = try FakeGPSDServer()
        let source = makeSource(server)
        defer { source.stop() }
        source.start()
        let client = try server.accept()
        _ = try client.readLine()
        let good = Self.tpv(-33.8568, 151.2153)
        client.send(String(good.prefix(20)))
        client.send(String(good.dropFirst(20)) + "\n")
        #expect(waitFor(source) { $0.currentFix?.coordinate.latitude == -33.8568 })
        client.sendLines("not json at all {", #"{"class":"TPV","mode":3,"lat":NaN,"lon":151.3}"#)
        #expect(waitFor(source) { $0.statusText == "gpsd: 3D fix · ignored a TPV with a NaN latitude" })
        client.sendLines(#"{"class":"TPV","mode":3,"lat":91,"lon":0}"#)
        #expect(waitFor(source) { $0.statusText == "gpsd: 3D fix · ignored a TPV with a latitude out of range" })
        client.send(String(repeating: "x", count: 40_000))
        client.sendLines("", Self.tpv(-33.9, 151.3))
        #expect(waitFor(source) { $0.currentFix?.coordinate.latitude == -33.9 })
        #expect(source.statusText == "gpsd: 3D fix · ignored a report over 16 KiB")
        #expect(source.currentFix?.coordinate == GeoPoint(latitude: -33.9, longitude: 151.3))
    }

    @Test func itReconnectsWhenGPSDGoesAway() throws {
        let server = try FakeGPSDServer()
        // Long enough a first back-off for the test to see the "closed" status between tries.
        let source = makeSource(server, backoff: GPSDBackoff(initial: 0.5, maximum: 1))
        defer { source.stop() }
        source.start()
        let first = try server.accept()
        _ = try first.readLine()
        first.sendLines(Self.version, Self.tpv(10, 20))
        #expect(waitFor(source) { $0.currentFix?.coordinate == GeoPoint(latitude: 10, longitude: 20) })
        first.close()
        #expect(waitFor(source) { $0.statusText.hasPrefix("gpsd: 127.0.0.1:\(server.port) closed the connection (retrying at") })
        let second = try server.accept()
        #expect(try second.readLine() == #"?WATCH={"enable":true,"json":true}"#)
        second.sendLines(Self.version, Self.tpv(11, 21))
        #expect(waitFor(source) { $0.currentFix?.coordinate == GeoPoint(latitude: 11, longitude: 21) })
        #expect(source.statusText == "gpsd: 3D fix")
    }

    @Test func anAbsentGPSDIsNotRunningAndRetried() throws {
        let port = try FakeGPSDServer.closedPort()
        let configuration = GPSDConfiguration(address: GPSDAddress(host: "127.0.0.1", port: port),
                                              backoff: GPSDBackoff(initial: 0.05, maximum: 0.1),
                                              timeText: { _ in "14:02:31" })
        let source = GPSDLocationSource(configuration: configuration)
        defer { source.stop() }
        source.start()
        #expect(waitFor(source) { $0.statusText == "gpsd: not running at 127.0.0.1:\(port) (retrying at 14:02:31)" })
        #expect(source.currentFix == nil)
    }

    @Test func aStallShowsInTheStatusByTheInjectedClock() throws {
        let server = try FakeGPSDServer()
        let clock = ManualClock()
        // The reader sleeps until the stall it expects by the clock; a manual clock moves while it
        // sleeps, so it must look at it now and then.
        let source = makeSource(server, clock: clock, longestSleep: 0.02)
        defer { source.stop() }
        source.start()
        let client = try server.accept()
        _ = try client.readLine()
        client.sendLines(Self.version, Self.tpv(1, 2))
        #expect(waitFor(source) { $0.statusText == "gpsd: 3D fix" })
        clock.advance(by: 12)
        // Nothing arrives; the reader's short slice notices the manual clock moved past the stall.
        #expect(waitFor(source) { $0.statusText == "gpsd: no fix since t1000" })
        #expect(source.currentFix?.coordinate == GeoPoint(latitude: 1, longitude: 2))
        client.sendLines(Self.tpv(1.5, 2))
        #expect(waitFor(source) { $0.statusText == "gpsd: 3D fix" })
    }

    @Test func stopEndsTheReaderEvenMidWait() throws {
        let port = try FakeGPSDServer.closedPort()
        // A thirty-second back-off: stop must not wait it out.
        let configuration = GPSDConfiguration(address: GPSDAddress(host: "127.0.0.1", port: port),
                                              backoff: GPSDBackoff(initial: 30, maximum: 30))
        let source = GPSDLocationSource(configuration: configuration)
        source.start()
        #expect(waitFor(source) { $0.statusText.contains("(retrying at") })
        #expect(!source.readerHasFinished)
        source.stop()
        #expect(source.statusText == "gpsd: stopped")
        let deadline = Date().addingTimeInterval(2)
        while !source.readerHasFinished && Date() < deadline { usleep(1_000) }
        #expect(source.readerHasFinished)
    }

    @Test func stopEndsTheReaderMidConversation() throws {
        let server = try FakeGPSDServer()
        // No slice: the reader is deep in a poll with no timeout when stop comes.
        let source = makeSource(server)
        source.start()
        let client = try server.accept()
        _ = try client.readLine()
        source.stop()
        let deadline = Date().addingTimeInterval(2)
        while !source.readerHasFinished && Date() < deadline { usleep(1_000) }
        #expect(source.readerHasFinished)
        client.close()
    }
}
