import FoundationEssentials
import Platform

/// Dates as `wonderland defaults` and `wonderland state` print and read them, in UTC, without Foundation's DateFormatter: the
/// same calendar (Gregorian, Julian before 15 October 1582) and the same text as the
/// `en_US_POSIX` formatters that came before, year 3 BC printed as "0003".
public enum CommandDateText {
    /// "2024-04-28T12:26:40Z" (`separator` "T"), or "2024-04-28 12:26:40 +0000" (`separator`
    /// " ", with `zone` " +0000"): whole seconds, rounded down.
    public static func utc(_ date: Date, separator: Date.ISO8601FormatStyle.DateTimeSeparator = .standard, zone: String = "Z") -> String {
        let style = Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: separator, timeSeparator: .colon,
                                            timeZoneSeparator: .omitted, includingFractionalSeconds: false,
                                            timeZone: TimeZone(secondsFromGMT: 0)!)
        var text = style.format(date)
        if text.hasSuffix("Z") { text = String(text.dropLast()) + zone }
        // The style counts years astronomically (0 is 1 BC, -2 is 3 BC); the formatters gave
        // the year of the era.
        let yearEnd = text.dropFirst().firstIndex(of: "-") ?? text.endIndex
        if let year = Int(text[..<yearEnd]), year <= 0 {
            text = cFormat("%04ld", 1 - year) + text[yearEnd...]
        }
        return text
    }

    /// What `defaults write -date` takes: ISO 8601 with a zone ("2024-05-01T12:34:56Z",
    /// "…+02:00"), or "2024-05-01 12:34:56 +0200", "2024-05-01 12:34:56" or "2024-05-01" in
    /// UTC. Fields may have fewer digits ("2024-5-1 9:05:00"), the zone may also be "GMT",
    /// "UTC", "GMT+2" or "+02", and space around the text does not matter.
    public static func parse(_ text: String) -> Date? {
        if let date = parseISO(Array(text.utf8)) { return date }
        let trimmed = text.trimmingWhitespace()
        var fields = trimmed.split(separator: " ", omittingEmptySubsequences: true)
        guard (1...3).contains(fields.count) else { return nil }
        let dayParts = fields.removeFirst().split(separator: "-", omittingEmptySubsequences: false)
        guard dayParts.count == 3, let year = number(dayParts[0]), let month = number(dayParts[1]), let day = number(dayParts[2]) else { return nil }
        var seconds = 0, offset = 0
        if !fields.isEmpty {
            let timeParts = fields.removeFirst().split(separator: ":", omittingEmptySubsequences: false)
            guard timeParts.count == 3, let hour = number(timeParts[0]), let minute = number(timeParts[1]), let second = number(timeParts[2]),
                  hour < 24, minute < 60, second < 60 else { return nil }
            seconds = hour * 3_600 + minute * 60 + second
            if let zone = fields.first {
                guard let zoneOffset = zoneOffset(zone) else { return nil }
                offset = zoneOffset
            }
        }
        guard let days = days(year: year, month: month, day: day) else { return nil }
        return date(days: days, seconds: seconds - offset)
    }

    /// `YYYY-MM-DDTHH:MM:SS` then `Z`, `±HH:MM` or `±HHMM`, nothing around it.
    private static func parseISO(_ b: [UInt8]) -> Date? {
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let year = digits(b[0..<4]), let month = digits(b[5..<7]), let day = digits(b[8..<10]),
              let hour = digits(b[11..<13]), let minute = digits(b[14..<16]), let second = digits(b[17..<19]),
              hour < 24, minute < 60, second < 60 else { return nil }
        let zone = b[19...]
        var offset = 0
        if zone.elementsEqual([UInt8(ascii: "Z")]) {
            offset = 0
        } else if zone.count == 6 || zone.count == 5, zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-") {
            let rest = Array(zone.dropFirst())
            let minutesStart = rest.count == 5 ? 3 : 2
            guard rest.count == 4 || rest[2] == UInt8(ascii: ":"), let zoneHours = digits(rest[0..<2]),
                  let zoneMinutes = digits(rest[minutesStart..<minutesStart + 2]), zoneMinutes < 60 else { return nil }
            offset = (zoneHours * 3_600 + zoneMinutes * 60) * (zone.first == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        guard let days = days(year: year, month: month, day: day) else { return nil }
        return date(days: days, seconds: hour * 3_600 + minute * 60 + second - offset)
    }

    /// Seconds east of UTC: "Z", "GMT", "UTC", or an offset ("+2", "+02", "+0200", "+02:00")
    /// alone or after "GMT"/"UTC".
    private static func zoneOffset(_ zone: Substring) -> Int? {
        var rest = zone
        if rest == "Z" { return 0 }
        for name in ["GMT", "UTC"] where rest.hasPrefix(name) {
            rest = rest.dropFirst(name.count)
            if rest.isEmpty { return 0 }
        }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        rest = rest.dropFirst()
        var hours: Int, minutes = 0
        if let colon = rest.firstIndex(of: ":") {
            guard let h = number(rest[..<colon]), let m = number(rest[rest.index(after: colon)...]), rest[rest.index(after: colon)...].count == 2 else { return nil }
            hours = h
            minutes = m
        } else {
            guard (1...4).contains(rest.count), let value = number(rest) else { return nil }
            if rest.count <= 2 { hours = value } else { hours = value / 100; minutes = value % 100 }
        }
        guard hours < 24, minutes < 60 else { return nil }
        return (hours * 3_600 + minutes * 60) * (sign == "-" ? -1 : 1)
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func date(days: Int, seconds: Int) -> Date {
        Date(timeIntervalSince1970: Double(days * 86_400 + seconds))
    }

    /// Days since 1970-01-01 of a date in the calendar the formatters used: Gregorian from
    /// 15 October 1582, Julian before (5–14 October 1582 too, as the formatters read them);
    /// nil for a day that calendar does not have (year 0, 30 February).
    static func days(year: Int, month: Int, day: Int) -> Int? {
        guard year >= 1, (1...12).contains(month), day >= 1 else { return nil }
        let gregorian = (year, month, day) >= (1582, 10, 15)
        let leap = gregorian ? (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 : year % 4 == 0
        let length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard day <= length else { return nil }
        // Counted from 1 March so the leap day ends the year.
        let y = month <= 2 ? year - 1 : year
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        if gregorian {
            let era = y / 400, yearOfEra = y - era * 400
            return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
        }
        // Julian: a leap day every four years; 1582-10-04 is the day before 1582-10-15.
        return y * 365 + y / 4 + dayOfYear - 719_470
    }
}
