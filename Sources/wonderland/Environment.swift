#if canImport(Glibc)
import Glibc
#endif

/// The process environment as a dictionary (the app and its commands read XDG paths from it).
enum ProcessEnvironment {
    static func current() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let pair = String(cString: entry)
            if let equals = pair.firstIndex(of: "=") { result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]) }
            pointer += 1
        }
        return result
    }
}
