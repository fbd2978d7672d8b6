/// gpsd's fix quality, the TPV `mode`.
public enum GPSDFixMode: Int, Sendable, Comparable {
    case unknown = 0
    case noFix = 1
    case twoDimensional = 2
    case threeDimensional = 3

    public static func < (lhs: GPSDFixMode, rhs: GPSDFixMode) -> Bool { lhs.rawValue < rhs.rawValue }

    public var hasFix: Bool { self >= .twoDimensional }
}

/// One line from gpsd, understood: the only kinds the location source acts on, everything else
/// named so it can be let through, and anything it must not trust carried with a reason.
public enum GPSDReport: Equatable, Sendable {
    /// A TPV with a usable position.
    case position(LocationFix, GPSDFixMode)
    /// A TPV without a position: no fix yet, or a fix whose position has not come in yet
    /// (gpsd sends mode 3 with only error estimates at the start of a cycle).
    case noPosition(GPSDFixMode)
    /// VERSION: the greeting.
    case version(release: String)
    /// DEVICES: how many receivers gpsd has.
    case devices(count: Int)
    /// gpsd's own ERROR report, with its message.
    case gpsdError(String)
    /// A well-formed report of a class the map has no use for (WATCH, SKY, DEVICE, GST, …).
    case other(className: String)
    /// A line that was not used, and why, in words for the status line.
    case ignored(String)

    public static let maximumLineLength = 16_384

    /// Reads one line (without its newline).
    public static func parse(_ line: String) -> GPSDReport { parse(Array(line.utf8)) }

    public static func parse(_ line: [UInt8]) -> GPSDReport {
        guard line.count <= maximumLineLength else { return .ignored("a report over 16 KiB") }
        guard let json = GPSDJSON.parse(line) else { return .ignored("a malformed report") }
        guard case .object = json else { return .ignored("a report that is not an object") }
        guard let className = json["class"]?.string else { return .ignored("a report without a class") }
        switch className {
        case "TPV": return tpv(json)
        case "VERSION": return .version(release: json["release"]?.string ?? "?")
        case "DEVICES":
            if case .array(let devices)? = json["devices"] { return .devices(count: devices.count) }
            return .ignored("a DEVICES report without devices")
        case "ERROR": return .gpsdError(json["message"]?.string ?? "unknown error")
        default: return .other(className: className)
        }
    }

    private static func tpv(_ json: GPSDJSON) -> GPSDReport {
        // Int(exactly:), not Int(_:): a mode of 1e300 is finite but would trap the conversion.
        guard let modeNumber = json["mode"]?.number, let modeInteger = Int(exactly: modeNumber),
              let mode = GPSDFixMode(rawValue: modeInteger) else {
            return .ignored("a TPV without a valid mode")
        }
        guard mode.hasFix else { return .noPosition(mode) }
        let latitude = json["lat"], longitude = json["lon"]
        if latitude == nil && longitude == nil { return .noPosition(mode) }
        guard let lat = coordinate(latitude, "latitude", limit: 90) else { return .ignored(problem(latitude, "latitude")) }
        guard let lon = coordinate(longitude, "longitude", limit: 180) else { return .ignored(problem(longitude, "longitude")) }
        let fix = LocationFix(coordinate: GeoPoint(latitude: lat, longitude: lon),
                              course: course(json["track"]), speed: speed(json["speed"]))
        return .position(fix, mode)
    }

    private static func coordinate(_ value: GPSDJSON?, _ name: String, limit: Double) -> Double? {
        guard let number = value?.number, number.isFinite, abs(number) <= limit else { return nil }
        return number
    }

    private static func problem(_ value: GPSDJSON?, _ name: String) -> String {
        switch value {
        case nil: return "a TPV without a \(name)"
        case .null?: return "a TPV with a null \(name)"
        case .number(let number)? where number.isNaN: return "a TPV with a NaN \(name)"
        case .number(let number)? where !number.isFinite: return "a TPV with an infinite \(name)"
        case .number?: return "a TPV with a \(name) out of range"
        default: return "a TPV with a \(name) that is not a number"
        }
    }

    /// A course is dropped, not the fix, when it is nonsense: the position is still good.
    private static func course(_ value: GPSDJSON?) -> Double? {
        guard let degrees = value?.number, degrees.isFinite, degrees >= 0, degrees <= 360 else { return nil }
        return degrees == 360 ? 0 : degrees
    }

    private static func speed(_ value: GPSDJSON?) -> Double? {
        guard let metresPerSecond = value?.number, metresPerSecond.isFinite, metresPerSecond >= 0 else { return nil }
        return metresPerSecond
    }
}
