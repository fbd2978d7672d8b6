import Defaults
import Foundation
import Platform
import PropertyList
import Testing

/// Text read as numbers, booleans and dates the way Foundation read it (the expected values
/// are what `ISO8601DateFormatter` and `trimmingCharacters(in:)` gave for the same text).
@Suite struct ConversionTextTests {
    @Test(arguments: [
        ("2026-11-22T19:30:00Z", 1_795_375_800),
        ("2026-11-22T19:30:00+01:00", 1_795_372_200),
        ("2026-11-22T19:30:00+0100", 1_795_372_200),
        ("2026-11-22T19:30:00-05:30", 1_795_395_600),
        ("2026-11-22T19:30:00+01", 1_795_372_200),
        ("2026-11-22T19:30:00GMT", 1_795_375_800),
        ("2026-11-22T19:30:00Zjunk", 1_795_375_800),
        ("2026-1-2T1:2:3Z", 1_767_315_723),
        ("2026-02-30T10:00:00Z", 1_772_445_600),
        ("2026-11-22T24:00:00Z", 1_795_392_000),
        ("1969-12-31T23:59:59Z", -1),
        ("0001-01-01T00:00:00Z", -62_135_769_600),
        ("1582-10-04T23:59:59Z", -12_219_292_801),
        ("1582-10-15T00:00:00Z", -12_219_292_800),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
        ("2026-11-22T19:30:00+24:00", 1_795_368_600),
    ] as [(String, Int64)])
    func datesReadAsBefore(text: String, seconds: Int64) {
        #expect(InternetDate.secondsSince1970(text) == seconds)
        #expect(DefaultsConversion.date(.string(" \(text)\t")) == Date(timeIntervalSince1970: Double(seconds)))
    }

    @Test(arguments: ["2026-11-22T19:30:00", "2026-11-22T19:30:00.5Z", "2026-11-22t19:30:00z", "2026-11-22T19:30:60Z",
                      "2026-11-22T25:00:00Z", "2026-13-22T19:30:00Z", "2026-11-32T00:00:00Z", "2026-11-22T19:30Z", "2026-11-22"])
    func notDates(text: String) {
        #expect(InternetDate.secondsSince1970(text) == nil)
        #expect(DefaultsConversion.date(.string(text)) == nil)
    }

    @Test func trimmedScalarByScalar() {
        // A space that carries a combining mark is not trimmed off the mark.
        #expect(DefaultsConversion.double(.string(" \u{301}5 ")) == nil)
        #expect(DefaultsConversion.double(.string("\u{3000}\t2.5\u{A0}\u{200B}")) == 2.5)
        #expect(DefaultsConversion.integer(.string("\n7")) == nil)
        #expect(DefaultsConversion.bool(.string("\u{2003}YES ")) == true)
        #expect(" \u{301}5 ".trimmingSpaces() == "\u{301}5")
        #expect("\u{85}x\u{2028}\u{200B}".trimmingWhitespace() == "x")
        #expect("\r\n".trimmingSpaces() == "\r\n")
    }

    @Test func passwordsPercentDecodedAsBefore() {
        #expect(URLPassword.split(from: "postgres://alice:p%40ss%C3%A9@host/db")?.password == "p@ssé")
        // Not UTF-8, or a broken escape: kept as written.
        #expect(URLPassword.split(from: "postgres://alice:%FF@host/db")?.password == "%FF")
        #expect(URLPassword.split(from: "postgres://alice:50%@host/db")?.password == "50%")
    }
}
