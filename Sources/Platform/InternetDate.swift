/// An ISO 8601 date and time in the form `ISO8601DateFormatter` reads by default:
/// "2026-11-22T19:30:00Z", with the zone also as "+01:00", "+0100", "+01", "GMT", "UTC" or
/// "GMT+01:00". As that formatter does, it takes a year of up to four digits, other fields of
/// one digit or with leading zeros ("2026-1-2T1:2:3Z", "2026-011-22"), hour 24, a day past the
/// month's end (rolled over), a space before the zone, and ignores what follows the zone; it
/// refuses fractional seconds, a second or minute of 60, month 13, day 0 or 32, and a missing
/// zone.
public enum InternetDate {
    /// Seconds since 1970-01-01 00:00:00 UTC; nil when `text` is not of that form.
    public static func secondsSince1970(_ text: some StringProtocol) -> Int64? {
        var reader = Reader(bytes: Array(text.utf8))
        guard let year = reader.number(maxDigits: 4), reader.skip("-"),
              let month = reader.number(maxDigits: 9), (1 ... 12).contains(month), reader.skip("-"),
              let day = reader.number(maxDigits: 9), (1 ... 31).contains(day), reader.skip("T"),
              let hour = reader.number(maxDigits: 9), hour <= 24, reader.skip(":"),
              let minute = reader.number(maxDigits: 9), minute < 60, reader.skip(":"),
              let second = reader.number(maxDigits: 9), second < 60
        else { return nil }
        while reader.skip(" ") {}
        guard let offset = reader.zoneOffset() else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return days * 86_400 + hour * 3_600 + minute * 60 + second - offset
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// One to `maxDigits` ASCII digits.
        mutating func number(maxDigits: Int) -> Int64? {
            var value: Int64 = 0
            var count = 0
            while count < maxDigits, position < bytes.count, let digit = Self.digit(bytes[position]) {
                value = value * 10 + digit
                position += 1
                count += 1
            }
            return count > 0 ? value : nil
        }

        /// Seconds east of UTC; nil when no zone is there.
        mutating func zoneOffset() -> Int64? {
            if skip("Z") || skip("z") { return 0 }
            for name in ["GMT", "UTC", "UT"] where matchesIgnoringCase(name) {
                position += name.utf8.count
                return signedOffset() ?? 0
            }
            return signedOffset()
        }

        /// "+01:00", "+0100", "+01", "+1": the hours are two digits when they make 0...23, else
        /// one; minutes count only as two digits of 0...59, and anything else after the hours is
        /// ignored, as the formatter ignores it.
        private mutating func signedOffset() -> Int64? {
            let sign: Int64
            if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
            guard position < bytes.count, let first = Self.digit(bytes[position]) else { return nil }
            position += 1
            var hours = first
            if position < bytes.count, let second = Self.digit(bytes[position]), first * 10 + second <= 23 {
                hours = first * 10 + second
                position += 1
            }
            var minutes: Int64 = 0
            let colon = position < bytes.count && bytes[position] == UInt8(ascii: ":") ? 1 : 0
            if position + colon + 1 < bytes.count,
               let tens = Self.digit(bytes[position + colon]), let ones = Self.digit(bytes[position + colon + 1]),
               tens * 10 + ones < 60 {
                minutes = tens * 10 + ones
                position += colon + 2
            }
            return sign * (hours * 3_600 + minutes * 60)
        }

        private func matchesIgnoringCase(_ name: String) -> Bool {
            let wanted = Array(name.utf8)
            guard bytes.count - position >= wanted.count else { return false }
            return zip(bytes[position...], wanted).allSatisfy { $0 | 0x20 == $1 | 0x20 }
        }

        private static func digit(_ byte: UInt8) -> Int64? {
            (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) ? Int64(byte - UInt8(ascii: "0")) : nil
        }
    }

    /// Days from 1970-01-01 to the date, on the calendar Foundation's formatters used:
    /// Gregorian from 1582-10-15, Julian before. A day past the month's end rolls over.
    public static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let beforeMonth: Int64 = month <= 2 ? 1 : 0
        let y = year + 4_800 - beforeMonth
        let m = month + 12 * beforeMonth - 3
        let julianDays = day + (153 * m + 2) / 5 + 365 * y + y / 4 - 32_083
        let isJulian = (year, month, day) < (1582, 10, 15)
        let dayNumber = isJulian ? julianDays : julianDays - y / 100 + y / 400 + 38
        return dayNumber - 2_440_588
    }
}
