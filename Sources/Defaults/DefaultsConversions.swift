import FoundationEssentials
import Platform
import PropertyList

/// The conversions NSUserDefaults makes when a typed getter meets a value of another type:
/// numbers and booleans stand in for each other, and strings (which is how argument-domain
/// values arrive) are parsed. Each returns nil when the value cannot be read as the type, so the
/// store can fall back to the registered default.
public enum DefaultsConversion {
    public static func bool(_ value: PropertyListValue) -> Bool? {
        switch value {
        case .boolean(let flag): return flag
        case .integer(let number): return number != 0
        case .unsignedInteger: return true
        case .real(let number): return number != 0
        case .string(let text):
            switch text.trimmingSpaces().lowercased() {
            case "yes", "true", "y", "t": return true
            case "no", "false", "n", "f": return false
            default:
                if let number = double(value) { return number != 0 }
                return nil
            }
        default: return nil
        }
    }

    public static func integer(_ value: PropertyListValue) -> Int? {
        switch value {
        case .integer(let number): return Int(exactly: number)
        case .unsignedInteger(let number): return Int(exactly: number)
        case .boolean(let flag): return flag ? 1 : 0
        case .real(let number):
            guard number.isFinite, let whole = Int(exactly: number.rounded(.towardZero)) else { return nil }
            return whole
        case .string(let text):
            let trimmed = text.trimmingSpaces()
            if let number = Int(trimmed) { return number }
            if let number = Double(trimmed) { return integer(.real(number)) }
            return nil
        default: return nil
        }
    }

    public static func double(_ value: PropertyListValue) -> Double? {
        switch value {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        case .unsignedInteger(let number): return Double(number)
        case .boolean(let flag): return flag ? 1 : 0
        case .string(let text): return Double(text.trimmingSpaces())
        default: return nil
        }
    }

    /// Strings as they are; numbers and booleans as their text ("2", "2.5", "1").
    public static func string(_ value: PropertyListValue) -> String? {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .unsignedInteger(let number): return String(number)
        case .boolean(let flag): return flag ? "1" : "0"
        case .real(let number): return numberText(number)
        default: return nil
        }
    }

    /// A date, or a string holding an ISO 8601 date ("2026-11-22T19:30:00Z").
    public static func date(_ value: PropertyListValue) -> Date? {
        switch value {
        case .date(let date): return date
        case .string(let text): return InternetDate.secondsSince1970(text.trimmingSpaces()).map { Date(timeIntervalSince1970: Double($0)) }
        default: return nil
        }
    }

    public static func data(_ value: PropertyListValue) -> Data? {
        if case .data(let bytes) = value { return bytes }
        return nil
    }

    public static func array(_ value: PropertyListValue) -> [PropertyListValue]? {
        if case .array(let items) = value { return items }
        return nil
    }

    public static func dictionary(_ value: PropertyListValue) -> [String: PropertyListValue]? {
        if case .dictionary(let entries) = value { return entries }
        return nil
    }

    /// A real as NSNumber prints it: whole numbers without a fraction, others in full.
    static func numberText(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 1e15 {
            return String(Int64(number))
        }
        return "\(number)"
    }
}
