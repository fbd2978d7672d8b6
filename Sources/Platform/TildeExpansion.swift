extension UserFolders {
    /// `path` as a shell reads its start: `~` and `~/…` are `home`, and, when `otherUsers`,
    /// `~name` and `~name/…` are that user's home in the password file. Anything else, and a
    /// user the password file does not know, is returned as given.
    public func expandingTilde(_ path: String, otherUsers: Bool) -> String {
        guard path.hasPrefix("~") else { return path }
        let endOfName = path.firstIndex(of: "/") ?? path.endIndex
        let name = path[path.index(after: path.startIndex) ..< endOfName]
        let folder: String
        if name.isEmpty {
            folder = home
        } else if otherUsers, let named = Self.absolute(Self.passwordFileHome(user: String(name))) {
            folder = named
        } else {
            return path
        }
        let rest = path[endOfName...]
        if rest.isEmpty { return folder }
        return (folder == "/" ? "" : folder) + rest
    }
}
