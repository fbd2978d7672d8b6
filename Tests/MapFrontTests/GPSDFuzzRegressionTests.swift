import Testing
@testable import MapFront

/// gpsd lines that crashed the FuzzGPSDReader harness (Fuzz/Sources/FuzzGPSDReader); the same
/// stream is kept in Fuzz/Corpus/FuzzGPSDReader/regression-mode-1e300.
@Suite("gpsd fuzz regressions")
struct GPSDFuzzRegressionTests {
    /// A finite mode too big for Int trapped `Int(_:)` before the mode was checked.
    @Test(arguments: ["1e300", "-1e300", "9223372036854775808", "-9223372036854775809", "1.7976931348623157e308"])
    func aModeTooBigForAnIntegerIsIgnored(_ mode: String) {
        #expect(GPSDReport.parse(#"{"class":"TPV","mode":\#(mode),"lat":1,"lon":2}"#) == .ignored("a TPV without a valid mode"))
    }

    @Test func modesThatAreNotWholeNumbersStayIgnoredAndWholeOnesStillRead() {
        #expect(GPSDReport.parse(#"{"class":"TPV","mode":2.5,"lat":1,"lon":2}"#) == .ignored("a TPV without a valid mode"))
        #expect(GPSDReport.parse(#"{"class":"TPV","mode":4}"#) == .ignored("a TPV without a valid mode"))
        #expect(GPSDReport.parse(#"{"class":"TPV","mode":3.0,"lat":1,"lon":2}"#)
                == .position(LocationFix(coordinate: GeoPoint(latitude: 1, longitude: 2)), .threeDimensional))
        #expect(GPSDReport.parse(#"{"class":"TPV","mode":1e0}"#) == .noPosition(.noFix))
    }

    /// The whole regression stream through the line buffer and the session, as the reader thread
    /// feeds them: the session notes the ignored lines and keeps a status.
    @Test func theRegressionStreamLeavesTheSessionWorking() {
        var buffer = GPSDLineBuffer()
        var session = GPSDSession(address: .standard)
        session.connected(at: 0)
        let stream = #"{"class":"TPV","mode":1e300,"lat":1,"lon":2}"# + "\n" + #"{"class":"TPV","mode":-9223372036854775809}"# + "\n"
        for case .line(let line) in buffer.append(Array(stream.utf8)) {
            session.received(GPSDReport.parse(line), at: 1)
        }
        #expect(session.ignoredCount == 2)
        #expect(session.statusText(at: 1) == "gpsd: no fix yet · ignored a TPV without a valid mode")
    }
}
