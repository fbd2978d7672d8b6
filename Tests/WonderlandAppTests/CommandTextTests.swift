import Foundation
import Testing
@testable import WonderlandApp

/// The dates and error sentences the commands print, made without Foundation's formatters,
/// read and written as those formatters did; the tests ask the formatters themselves.
@Suite struct CommandTextTests {
    /// Seconds since 2001: now-ish, fractions either side of zero, around the Julian–Gregorian
    /// switch, the first years AD, years BC and years past 9999.
    static let moments: [Double] = [
        0, 736_000_000.75, -0.25, 0.999, -978_307_200, 1_000_000_000, -13_197_600_000, -13_198_000_000, -13_197_686_400,
        -31_000_000_000, -63_114_076_800, -63_114_076_801, -63_200_000_000, -70_000_000_000, 252_423_993_599, 300_000_000_000,
    ]

    @Test func printedAsTheFormattersDid() {
        let old = DateFormatter()
        old.locale = Locale(identifier: "en_US_POSIX")
        old.timeZone = TimeZone(identifier: "UTC")
        old.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        for seconds in Self.moments {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            #expect(CommandDateText.utc(date, separator: .space, zone: " +0000") == old.string(from: date), "\(seconds)")
            #expect(CommandDateText.utc(date) == ISO8601DateFormatter().string(from: date), "\(seconds)")
        }
        #expect(CommandDateText.utc(Date(timeIntervalSinceReferenceDate: 736_000_000.75)) == "2024-04-28T12:26:40Z")
        #expect(CommandDateText.utc(Date(timeIntervalSinceReferenceDate: -63_200_000_000), separator: .space, zone: " +0000")
                == "0003-04-12 12:26:40 +0000")
    }

    /// The reading `defaults write -date` had: ISO 8601, then three en_US_POSIX forms in UTC.
    static func oldParse(_ text: String) -> Date? {
        if let date = ISO8601DateFormatter().date(from: text) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd HH:mm:ss Z", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    @Test func readAsTheFormattersDid() {
        let texts = [
            "2024-05-01", "2024-5-1", "2024-05-01 12:34:56", "2024-05-01 12:34:56 +0200", "2024-05-01 12:34:56 +02:00",
            "2024-05-01 12:34:56 GMT", "2024-05-01 12:34:56 GMT+2", "2024-05-01 12:34:56 UTC", "2024-05-01 12:34:56 Z",
            "2024-05-01 12:34:56 -0800", "2024-05-01 12:34:56 +02", "2024-05-01 12:34:56 +2", "2024-05-01T12:34:56Z",
            "2024-05-01T12:34:56+02:00", "2024-05-01T12:34:56+0200", "2024-05-01T12:34:56-05:30", "2024-05-01T12:34:56.5Z",
            "2024-05-01t12:34:56z", "2024-02-30", "2024-02-29", "2023-02-29", "1900-02-29", "2000-02-29", "2024-13-01",
            " 2024-05-01", "2024-05-01 ", "24-05-01", "2024-05-01 25:00:00", "2024-05-01 1:2:3", "2024-05-01 12:34",
            "0000-01-01", "2024-05-01 12:34:56+0200", "2024-05-01x", "1500-03-01", "1500-02-29", "1582-10-04", "1582-10-15",
            "1582-10-10", "0001-01-01", "+2024-05-01", "2024-05-01  12:34:56", "2024-05-01 12:34:60", "2024-05-01 24:00:00",
            "2024-005-001", "", "yesterday", "2024-05-01 12:34:56 +25", "2024-05-01 12:34:56 +0260",
        ]
        for text in texts {
            #expect(CommandDateText.parse(text) == Self.oldParse(text), "\(text.debugDescription)")
        }
    }

    @Test func fileErrorsInFoundationsWords() {
        for code in [4, 255, 256, 257, 258, 259, 260, 261, 262, 263, 264, 512, 513, 514, 516, 517, 518, 640, 642] {
            let error = CocoaError(CocoaError.Code(rawValue: code), userInfo: [NSFilePathErrorKey: "/x"])
            #expect(CommandErrorText.sentence(for: error) == (error as NSError).localizedDescription)
        }
        #expect(CommandErrorText.sentence(for: POSIXError(.ENOENT)) == (POSIXError(.ENOENT) as NSError).localizedDescription)
        struct Odd: Error {}
        #expect(CommandErrorText.sentence(for: Odd()) == (Odd() as NSError).localizedDescription)
        do {
            try Data("x".utf8).write(to: URL(fileURLWithPath: "/nonexistent-wl-folder/x"), options: .atomic)
            Issue.record("wrote into a folder that is not there")
        } catch {
            #expect(CommandErrorText.sentence(for: error) == "The operation could not be completed. The file doesn’t exist.")
        }
    }

    @Test func passwordsAreHiddenEvenInsideACharacter() {
        #expect(CloudServerCredentials.redact("postgres://a:s3cret@h/db", passwords: ["s3cret"]) == "postgres://a:•••@h/db")
        // "t" and the combining acute after it are one Character; the password still goes.
        #expect(CloudServerCredentials.redact("pw=s3cretW0rd\u{301}", passwords: ["s3cretW0rd"]) == "pw=•••\u{301}")
        #expect(CloudServerCredentials.redact("pw=9tim\u{E9}s9tim", passwords: ["9time\u{301}s9tim"]) == "pw=•••")
        // Too short to be told from other text: left, whatever it matches.
        #expect(CloudServerCredentials.redact("a\r\nb", passwords: ["\n"]) == "a\r\nb")
    }
}
