#if canImport(Glibc)
import Glibc
#endif

/// The process environment as a dictionary (the app and its commands read XDG paths from it).
public enum ProcessEnvironment {
    public static func current() -> [String: String] { variables(in: environ) }

    /// The variables of a NULL-terminated list of `NAME=value` entries, read as bytes into a
    /// dictionary sized for all of them at once: the environment is read before every first
    /// frame, and a user's has dozens of entries, some of them long.
    public static func variables(in entries: UnsafePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        var count = 0
        while entries[count] != nil { count += 1 }
        var result: [String: String] = [:]
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let entry = entries[index] else { break }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry))
            // An entry without "=" names no variable; of two entries for one name, the later is kept.
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            result[String(decoding: bytes[..<equals], as: UTF8.self)] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
        }
        return result
    }
}
