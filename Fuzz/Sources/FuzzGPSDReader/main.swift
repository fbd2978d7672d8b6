import Foundation
import FuzzSupport
import MapFront

/// Feeds arbitrary bytes to the gpsd reader as a TCP stream would: through the line buffer in
/// reads of uneven sizes, each line to GPSDReport.parse, each report to the session that writes
/// the status line. Oracles: no trap; the lines do not depend on how the stream was cut; a
/// position is always finite and on the globe; the session always has a status to show.


func items(_ reads: [ArraySlice<UInt8>], limit: Int) -> [GPSDLineBuffer.Item] {
    var buffer = GPSDLineBuffer(maximumLineLength: limit)
    return reads.flatMap { buffer.append($0) }
}

func check(_ report: GPSDReport) {
    switch report {
    case .position(let fix, let mode):
        let point = fix.coordinate
        precondition(point.latitude.isFinite && abs(point.latitude) <= 90, "latitude off the globe")
        precondition(point.longitude.isFinite && abs(point.longitude) <= 180, "longitude off the globe")
        precondition(mode.hasFix, "a position without a fix")
        if let course = fix.course { precondition(course >= 0 && course < 360, "course out of range") }
        if let speed = fix.speed { precondition(speed.isFinite && speed >= 0, "speed out of range") }
    case .devices(let count):
        precondition(count >= 0, "negative device count")
    case .ignored(let reason):
        precondition(!reason.isEmpty, "ignored without a reason")
    case .noPosition, .version, .gpsdError, .other:
        break
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let stream = Array(UnsafeBufferPointer(start: bytes, count: count))
    // A small limit as well as gpsd's, so the too-long path is reached by small inputs too.
    for limit in [GPSDReport.maximumLineLength, 40] {
        let whole = items([stream[...]], limit: limit)
        precondition(items(chunked(stream, longest: 13), limit: limit) == whole, "lines depend on how the stream was cut")
    }
    var session = GPSDSession(address: .standard)
    session.connected(at: 0)
    var now = 0.0
    for item in items(chunked(stream, longest: 13), limit: GPSDReport.maximumLineLength) {
        now += 1
        switch item {
        case .line(let line):
            let report = GPSDReport.parse(line)
            check(report)
            session.received(report, at: now)
        case .tooLong:
            session.lineTooLong(at: now)
        }
        precondition(session.statusText(at: now).hasPrefix("gpsd: "), "status line lost its prefix")
    }
    _ = GPSDJSON.parse(stream)
    return 0
}

exit(runLibFuzzer(testOneInput))
