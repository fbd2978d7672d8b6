import FoundationEssentials

/// The one date shape XML property lists use, `YYYY-MM-DDTHH:MM:SSZ` in UTC, converted by
/// arithmetic on days rather than through a calendar or `DateFormatter`: those are slow,
/// locale-sensitive, and accept looser forms than Apple's reader does.
public enum ISO8601Date {
    /// Seconds between 1970-01-01 and 2001-01-01, the reference date of property lists.
    private static let unixToReference: Int64 = 978_307_200

    /// Parses exactly 20 bytes; returns nil when the shape or a field range is wrong.
    static func parse(_ b: UnsafeRawBufferPointer) -> Date? {
        guard b.count == 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              b[19] == UInt8(ascii: "Z"),
              let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
              let hour = digits(b, 11, 2), let minute = digits(b, 14, 2), let second = digits(b, 17, 2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let unix = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSinceReferenceDate: Double(unix - unixToReference))
    }

    /// Formats whole seconds (rounded down, as Apple does); nil for dates outside years 0...9999,
    /// which the four-digit form cannot express.
    public static func format(_ date: Date) -> String? {
        var written = false
        let text = String(unsafeUninitializedCapacity: formattedLength) { out in
            written = write(date, into: UnsafeMutableRawBufferPointer(out))
            return written ? formattedLength : 0
        }
        return written ? text : nil
    }

    /// The length of every formatted date: `YYYY-MM-DDTHH:MM:SSZ`.
    static let formattedLength = 20

    /// Writes the formatted date into the first `formattedLength` bytes of `out`; false (and
    /// nothing meaningful written) for a date `format` refuses. The XML writer puts dates
    /// straight into its output this way, with no string in between.
    static func write(_ date: Date, into out: UnsafeMutableRawBufferPointer) -> Bool {
        let interval = date.timeIntervalSinceReferenceDate.rounded(.down)
        // Years 0...9999 span roughly ±2.5e11 seconds around 2001; beyond that (and for NaN)
        // the four-digit year cannot hold the value.
        guard interval.isFinite, abs(interval) < 3.2e11, out.count >= formattedLength else { return false }
        let unix = Int64(interval) + unixToReference
        let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
        let secondsOfDay = unix - days * 86_400
        let (year, month, day) = civilFromDays(days)
        guard year >= 0, year <= 9999 else { return false }
        put(year, width: 4, at: 0, in: out); out[4] = UInt8(ascii: "-")
        put(month, width: 2, at: 5, in: out); out[7] = UInt8(ascii: "-")
        put(day, width: 2, at: 8, in: out); out[10] = UInt8(ascii: "T")
        put(secondsOfDay / 3_600, width: 2, at: 11, in: out); out[13] = UInt8(ascii: ":")
        put(secondsOfDay / 60 % 60, width: 2, at: 14, in: out); out[16] = UInt8(ascii: ":")
        put(secondsOfDay % 60, width: 2, at: 17, in: out); out[19] = UInt8(ascii: "Z")
        return true
    }

    /// `value`'s last `width` decimal digits, zero-padded, at `offset`.
    private static func put(_ value: Int64, width: Int, at offset: Int, in out: UnsafeMutableRawBufferPointer) {
        var remaining = value
        for position in stride(from: offset + width - 1, through: offset, by: -1) {
            out[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
    }

    private static func digits(_ b: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for i in start..<start + count {
            let d = b[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            value = value * 10 + Int64(d)
        }
        return value
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days: proleptic Gregorian, days since 1970.
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
