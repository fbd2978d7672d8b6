import Foundation
@testable import Restoration
import Testing

/// The log's and the marker's time stamps read as Foundation's ISO 8601 format style writes them.
@Suite("Restoration files: time stamps")
struct RestorationStampTests {
    @Test func aStampIsTheISO8601FormatStylesText() {
        for seconds in [0.0, 786_000_000.9, 817_000_000, -978_307_200, 4_000_000_000] {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            #expect(RestorationFiles.stamp(date) == date.formatted(.iso8601), "\(seconds)")
        }
    }

    @Test func aDateBeyondFourDigitYearsIsStillStamped() {
        let far = Date(timeIntervalSinceReferenceDate: 4e11)
        #expect(RestorationFiles.stamp(far) == far.formatted(.iso8601))
    }
}
