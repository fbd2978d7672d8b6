import FoundationEssentials

/// The parts of a path as Foundation's NSString gave them (`lastPathComponent`, `pathExtension`,
/// `deletingPathExtension`), step for step, so book titles, kinds and messages read as they
/// always did: runs of "/" count as one, one trailing "/" is ignored, and a name that starts
/// with its only dot (".profile") has no extension.
enum PathText {
    static func lastComponent(_ path: String) -> String {
        let fixed = fixingSlashes(path)
        guard fixed.utf16.count > 1 else { return fixed }
        return String(fixed[startOfLastComponent(fixed)...])
    }

    static func pathExtension(_ path: String) -> String {
        let fixed = fixingSlashes(path)
        guard fixed.utf16.count > 1, let start = startOfExtension(fixed) else { return "" }
        return String(fixed[start...])
    }

    static func deletingExtension(_ path: String) -> String {
        let fixed = fixingSlashes(path)
        guard fixed.utf16.count > 1, let start = startOfExtension(fixed) else { return fixed }
        return String(fixed[..<fixed.index(before: start)])
    }

    /// Runs of "/" made one and a trailing "/" dropped ("/" itself stays).
    private static func fixingSlashes(_ path: String) -> String {
        guard path != "/" else { return path }
        var result = ""
        var afterSlash = false
        for character in path {
            if character == "/" {
                if !afterSlash { result.append(character) }
                afterSlash = true
            } else {
                result.append(character)
                afterSlash = false
            }
        }
        if result.hasSuffix("/") { result.removeLast() }
        return result
    }

    private static func startOfLastComponent(_ path: String) -> String.Index {
        path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
    }

    /// Where the extension starts (after the last dot of the last component); nil when there
    /// is no dot, when the last dot opens the name (".profile") and for "..".
    private static func startOfExtension(_ path: String) -> String.Index? {
        let start = startOfLastComponent(path)
        guard let dot = path[start...].lastIndex(of: ".") else { return nil }
        if dot == start { return nil }
        if path[start...] == ".." { return nil }
        return path.index(after: dot)
    }
}
