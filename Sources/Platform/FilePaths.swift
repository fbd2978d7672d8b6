/// Path arithmetic on plain strings, for the files a launch touches: a `URL` costs its parser
/// and percent-encoding tables on first use, which a path joined with a slash does not.
public enum FilePaths {
    /// `name` inside `folder`, with one slash between them.
    public static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The folder holding `path` ("/" for a path at the root or "/" itself, "." for a bare name).
    public static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.utf8.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        var folder = trimmed[..<slash]
        while folder.hasSuffix("/") { folder.removeLast() }
        return folder.isEmpty ? "/" : String(folder)
    }

    /// The last component of `path`, without trailing slashes ("/" for "/" itself).
    public static func lastComponent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.utf8.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed.utf8.count > 1 else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }
}
