import Testing
@testable import MapFront

@Suite("gpsd reports")
struct GPSDReportTests {
    // A TPV as gpsd 3.22 sends it (captured from gpsfake replaying the fixture).
    let goodTPV = #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-11-22T12:00:02.000Z","ept":0.005,"lat":48.856665000,"lon":2.352300000,"altHAE":81.9000,"epv":34.500,"track":45.0000,"magtrack":45.8292,"speed":5.144,"eph":17.100}"#

    @Test func aGoodTPVGivesPositionCourseAndSpeed() {
        let fix = LocationFix(coordinate: GeoPoint(latitude: 48.856665, longitude: 2.3523), course: 45, speed: 5.144)
        #expect(GPSDReport.parse(goodTPV) == .position(fix, .threeDimensional))
    }

    @Test func aTwoDimensionalFixWithoutCourseOrSpeed() {
        let report = GPSDReport.parse(#"{"class":"TPV","mode":2,"lat":-33.8568,"lon":151.2153}"#)
        #expect(report == .position(LocationFix(coordinate: GeoPoint(latitude: -33.8568, longitude: 151.2153)), .twoDimensional))
    }

    @Test func modeOneIsNoFixEvenWithStaleCoordinates() {
        #expect(GPSDReport.parse(#"{"class":"TPV","mode":1,"lat":10,"lon":20}"#) == .noPosition(.noFix))
        #expect(GPSDReport.parse(#"{"class":"TPV","mode":0}"#) == .noPosition(.unknown))
    }

    @Test func aFixWhosePositionHasNotComeYetIsNotAnError() {
        // gpsd opens a cycle with mode 3 and error estimates only.
        #expect(GPSDReport.parse(#"{"class":"TPV","device":"/dev/pts/1","mode":3,"epv":34.500,"eph":17.100}"#) == .noPosition(.threeDimensional))
    }

    @Test func positionsAtThePolesAndTheAntimeridianAreGood() {
        for (lat, lon) in [(90.0, 0.0), (-90.0, 45.0), (0.0, 180.0), (0.0, -180.0), (-16.5, 179.999)] {
            let report = GPSDReport.parse(#"{"class":"TPV","mode":2,"lat":\#(lat),"lon":\#(lon)}"#)
            #expect(report == .position(LocationFix(coordinate: GeoPoint(latitude: lat, longitude: lon)), .twoDimensional))
        }
    }

    @Test(arguments: [
        (#"{"class":"TPV","mode":3,"lat":nan,"lon":2.35}"#, "ignored a TPV with a NaN latitude"),
        (#"{"class":"TPV","mode":3,"lat":48.8,"lon":NaN}"#, "ignored a TPV with a NaN longitude"),
        (#"{"class":"TPV","mode":3,"lat":-nan,"lon":2.35}"#, "ignored a TPV with a NaN latitude"),
        (#"{"class":"TPV","mode":3,"lat":null,"lon":2.35}"#, "ignored a TPV with a null latitude"),
        (#"{"class":"TPV","mode":3,"lat":48.8,"lon":null}"#, "ignored a TPV with a null longitude"),
        (#"{"class":"TPV","mode":3,"lat":90.0001,"lon":2.35}"#, "ignored a TPV with a latitude out of range"),
        (#"{"class":"TPV","mode":3,"lat":48.8,"lon":-180.5}"#, "ignored a TPV with a longitude out of range"),
        (#"{"class":"TPV","mode":3,"lat":1e400,"lon":2}"#, "ignored a TPV with an infinite latitude"),
        (#"{"class":"TPV","mode":3,"lat":"48.8","lon":2}"#, "ignored a TPV with a latitude that is not a number"),
        (#"{"class":"TPV","mode":3,"lat":48.8}"#, "ignored a TPV without a longitude"),
        (#"{"class":"TPV","lat":48.8,"lon":2}"#, "ignored a TPV without a valid mode"),
        (#"{"class":"TPV","mode":7,"lat":48.8,"lon":2}"#, "ignored a TPV without a valid mode"),
        (#"{"class":"TPV","mode":2.5,"lat":48.8,"lon":2}"#, "ignored a TPV without a valid mode"),
        (#"{"class":"TPV","mode":3,"lat":48.8,"lon":2"#, "ignored a malformed report"),
        (#"{"class":"TPV","mode":3,"lat":48.8,"lon":2}}"#, "ignored a malformed report"),
        ("garbage \u{00}\u{FF} line", "ignored a malformed report"),
        (#"{"class":"TPV","mode":3,"lat":4.8.8,"lon":2}"#, "ignored a malformed report"),
        (#"["class","TPV"]"#, "ignored a report that is not an object"),
        (#"{"mode":3,"lat":48.8,"lon":2}"#, "ignored a report without a class"),
    ])
    func badTPVsAreIgnoredWithAReason(line: String, reason: String) {
        #expect(GPSDReport.parse(line) == .ignored(String(reason.dropFirst("ignored ".count))))
    }

    @Test func aNaNErrorEstimateDoesNotSpoilAGoodPosition() {
        // What gpsd before 3.19 wrote for an unknown estimate: not JSON, but the fix is fine.
        let report = GPSDReport.parse(#"{"class":"TPV","mode":2,"lat":51.5,"lon":-0.12,"epx":nan,"track":NaN,"speed":-1}"#)
        #expect(report == .position(LocationFix(coordinate: GeoPoint(latitude: 51.5, longitude: -0.12)), .twoDimensional))
    }

    @Test func aCourseOf360IsNorth() {
        let report = GPSDReport.parse(#"{"class":"TPV","mode":2,"lat":0,"lon":0,"track":360}"#)
        #expect(report == .position(LocationFix(coordinate: GeoPoint(latitude: 0, longitude: 0), course: 0), .twoDimensional))
    }

    @Test func otherClassesAreRecognisedAndLetThrough() {
        #expect(GPSDReport.parse(#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#) == .version(release: "3.22"))
        #expect(GPSDReport.parse(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/1","activated":"2026-11-22T20:49:45.920Z","native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}]}"#) == .devices(count: 1))
        #expect(GPSDReport.parse(#"{"class":"DEVICES","devices":[]}"#) == .devices(count: 0))
        #expect(GPSDReport.parse(#"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false}"#) == .other(className: "WATCH"))
        #expect(GPSDReport.parse(#"{"class":"SKY","device":"/dev/pts/1","xdop":0.54,"satellites":[{"PRN":4,"el":45.0,"az":120.0,"ss":40.0,"used":true}]}"#) == .other(className: "SKY"))
        #expect(GPSDReport.parse(#"{"class":"ERROR","message":"Unrecognized request 'FOO'"}"#) == .gpsdError("Unrecognized request 'FOO'"))
    }

    @Test func aLineOverTheLimitIsIgnoredUnread() {
        let huge = #"{"class":"TPV","mode":3,"lat":1,"lon":1,"pad":""# + String(repeating: "x", count: 20_000) + #""}"#
        #expect(GPSDReport.parse(huge) == .ignored("a report over 16 KiB"))
    }

    @Test func deepNestingIsRefusedNotRecursedInto() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(GPSDJSON.parse(deep) == nil)
        let fine = #"{"a":[[[{"b":[1,2,{"c":null}]}]]]}"#
        #expect(GPSDJSON.parse(fine) != nil)
    }

    @Test func stringsDecodeTheirEscapes() {
        #expect(GPSDJSON.parse(#""a\"b\\c\/d\n\u00e9\u2192""#) == .string("a\"b\\c/d\né→"))
        #expect(GPSDJSON.parse(#""bad \q escape""#) == nil)
        #expect(GPSDJSON.parse("\"raw\ncontrol\"") == nil)
        #expect(GPSDJSON.parse(#""unterminated"#) == nil)
    }

    @Test func numbersAreReadStrictly() {
        #expect(GPSDJSON.parse("-12.5e2") == .number(-1250))
        #expect(GPSDJSON.parse("-Infinity") == .number(-.infinity))
        for bad in ["-", ".", "1..2", "0x10", "+-1", "e5", "--1"] {
            #expect(GPSDJSON.parse(bad) == nil, "\(bad)")
        }
    }
}

@Suite("gpsd line buffer")
struct GPSDLineBufferTests {
    @Test func linesSplitAcrossReadsComeOutWhole() {
        var buffer = GPSDLineBuffer()
        let text = Array(#"{"class":"VERSION"}"#.utf8) + [0x0D, 0x0A] + Array(#"{"class":"TPV","mode":1}"#.utf8) + [0x0A]
        var lines: [GPSDLineBuffer.Item] = []
        // Every split point, including one inside the CR LF pair.
        for split in 0...text.count {
            buffer.reset()
            lines = buffer.append(text[..<split]) + buffer.append(text[split...])
            #expect(lines == [.line(Array(#"{"class":"VERSION"}"#.utf8)), .line(Array(#"{"class":"TPV","mode":1}"#.utf8))], "split at \(split)")
        }
    }

    @Test func aByteAtATimeWorksToo() {
        var buffer = GPSDLineBuffer()
        var lines: [GPSDLineBuffer.Item] = []
        for byte in "one\ntwo\n\nthree".utf8 { lines += buffer.append([byte]) }
        #expect(lines == [.line(Array("one".utf8)), .line(Array("two".utf8))])
        #expect(buffer.append([0x0A]) == [.line(Array("three".utf8))])
    }

    @Test func anOverlongLineIsReportedOnceAndTheNextLineIsClean() {
        var buffer = GPSDLineBuffer(maximumLineLength: 10)
        var items = buffer.append(Array(repeating: UInt8(ascii: "x"), count: 25))
        items += buffer.append(Array(repeating: UInt8(ascii: "y"), count: 25))
        items += buffer.append(Array("\nok\n".utf8))
        #expect(items == [.tooLong, .line(Array("ok".utf8))])
    }

    @Test func resetDropsAPartialLine() {
        var buffer = GPSDLineBuffer()
        _ = buffer.append(Array(#"{"class":"TP"#.utf8))
        buffer.reset()
        #expect(buffer.append(Array("V\n".utf8)) == [.line(Array("V".utf8))])
    }
}
