import FoundationEssentials
import Platform
import Screens
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tab in the Open prompt, as a shell completes a path: the name being typed is completed from
/// the folder it is in, as far as the names there agree; a folder gets its "/"; several names
/// left are listed. What was typed stays as typed (`~` is not expanded in the field), and `~`
/// means `home` ($HOME), as it does when the path is opened.
public struct PathCompletion {
    public var home: String?
    public var currentDirectory: String
    /// Names read from one folder at most: a folder of a million files costs a bounded read.
    public static let entryLimit = 10_000

    public init(home: String?, currentDirectory: String = FileManager.default.currentDirectoryPath) {
        self.home = home
        self.currentDirectory = currentDirectory
    }

    public func complete(_ typed: String) -> TabCompletion {
        if typed == "~" { return TabCompletion(text: "~/") }
        let slash = typed.lastIndex(of: "/")
        let folderPart = slash.map { String(typed[...$0]) } ?? ""
        let namePart = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        // No name is longer than NAME_MAX nor a path than PATH_MAX: a pasted page has no
        // completions, found without listing a folder.
        guard namePart.utf8.count <= 255, folderPart.utf8.count <= 4096 else { return TabCompletion(text: typed) }
        let folder = folderPath(folderPart)
        // Hidden files only when asked for, as shells do.
        let names = Self.names(in: folder).filter { $0.hasPrefix(namePart) && (namePart.hasPrefix(".") || !$0.hasPrefix(".")) }
        guard !names.isEmpty else { return TabCompletion(text: typed) }
        if names.count == 1 {
            let name = names[0]
            return TabCompletion(text: folderPart + name + (isFolder(folder + "/" + name) ? "/" : ""))
        }
        let common = Self.commonPrefix(names)
        let listed = names.sorted().map { isFolder(folder + "/" + $0) ? $0 + "/" : $0 }
        return TabCompletion(text: folderPart + common, candidates: common.count > namePart.count ? [] : listed)
    }

    /// The folder a typed folder part names: `~/` from `home`, relative ones from the current
    /// directory, "" for the current directory itself.
    func folderPath(_ part: String) -> String {
        if part.isEmpty { return currentDirectory }
        let expanded = UserFolders(environment: ["HOME": home ?? ""]).expandingTilde(part, otherUsers: true)
        return expanded.hasPrefix("/") ? expanded : currentDirectory + "/" + expanded
    }

    private func isFolder(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }

    static func names(in folder: String) -> [String] {
        // A folder that is itself a symbolic link lists nothing, as Foundation's directory
        // enumerator (which does not follow a link it starts from) gave.
        var status = stat()
        var unslashed = folder
        while unslashed.count > 1, unslashed.hasSuffix("/") { unslashed.removeLast() }
        guard lstat(unslashed, &status) == 0, status.st_mode & S_IFMT != S_IFLNK else { return [] }
        return folderNames(folder, limit: entryLimit) ?? []
    }

    static func commonPrefix(_ names: [String]) -> String {
        guard var prefix = names.first.map(Array.init) else { return "" }
        for name in names.dropFirst() {
            let characters = Array(name)
            var length = 0
            while length < min(prefix.count, characters.count) && prefix[length] == characters[length] { length += 1 }
            prefix.removeLast(prefix.count - length)
        }
        return String(prefix)
    }
}
