/// The app versions archives name, as the restoration files use them: made safe to appear in
/// a file name, and ordered (`0.10.0` after `0.9.1`).
public enum ArchiveVersions {
    /// `version` when it is one (digits, letters, `.`, `-`, `+`; at most 32), nil for anything
    /// else an archive might hold, which never becomes part of a path.
    public static func safe(_ version: String) -> String? {
        guard !version.isEmpty, version.utf8.count <= 32, !version.hasPrefix("."),
              version.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0" ... "9").contains($0) || ".-+".unicodeScalars.contains($0)) })
        else { return nil }
        return version
    }

    /// Whether `a` is a later release than `b`, by their dotted numbers; false when either is
    /// not numbers (an unknown version is never taken for a newer one).
    public static func isNewer(_ a: String, than b: String) -> Bool {
        guard let x = numbers(a), let y = numbers(b) else { return false }
        for index in 0 ..< max(x.count, y.count) {
            let p = index < x.count ? x[index] : 0, q = index < y.count ? y[index] : 0
            if p != q { return p > q }
        }
        return false
    }

    private static func numbers(_ version: String) -> [Int]? {
        let core = version.split(separator: "-", maxSplits: 1).first.map(String.init) ?? version
        let parts = core.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !parts.isEmpty, parts.count <= 8, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        return parts.map { $0! }
    }
}
