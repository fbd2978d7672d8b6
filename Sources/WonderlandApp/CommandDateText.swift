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
        // ISO 8601 first, read as ISO8601DateFormatter read it.
        if let seconds = InternetDate.secondsSince1970(text) { return Date(timeIntervalSince1970: Double(seconds)) }
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
        return Int(InternetDate.daysSince1970(year: Int64(year), month: Int64(month), day: Int64(day)))
    }
}
