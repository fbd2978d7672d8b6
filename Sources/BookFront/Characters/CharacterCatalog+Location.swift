import FileSafety
import FoundationEssentials
import Settings

extension CharacterCatalog {
    public static let fileName = "Characters.plist"

    /// Where the character list is on disk, found the way the settings bundle is:
    /// `$WONDERLAND_RESOURCES/Characters.plist` when the variable is set (returned even when
    /// missing, so the error names it rather than another copy quietly showing), else walking up
    /// from the executable for `Resources/Characters.plist` (a checkout) or
    /// `share/wonderland/Characters.plist` (an install prefix). Nil: use the compiled-in copy.
    public static func locateFile(environment: [String: String] = ProcessInfo.processInfo.environment,
                                  executablePath: String? = SettingsBundle.currentExecutablePath()) -> URL? {
        if let resources = environment[SettingsBundle.resourcesEnvironmentVariable], !resources.isEmpty {
            return URL(fileURLWithPath: resources).appendingPathComponent(fileName)
        }
        guard let executablePath else { return nil }
        var folder = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while true {
            for candidate in ["Resources/\(fileName)", "share/wonderland/\(fileName)"] {
                let file = folder.appendingPathComponent(candidate)
                if FileManager.default.fileExists(atPath: file.path) { return file }
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path || folder.path == "/" { return nil }
            folder = parent
        }
    }

    /// The app's character list: the file `locateFile` finds, else the compiled-in copy.
    /// Throws a `CharacterCatalogError` naming the file when it is missing or malformed.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment,
                                executablePath: String? = SettingsBundle.currentExecutablePath()) throws -> CharacterCatalog {
        guard let file = locateFile(environment: environment, executablePath: executablePath) else { return try embedded() }
        let data: Data
        do { data = try BoundedFile.read(path: file.path, limit: .characterList) } catch {
            throw CharacterCatalogError(source: file.path, message: error.predicate)
        }
        return try parse(data, source: file.path)
    }

    /// The copy of Resources/Characters.plist compiled into the binary.
    public static func embedded() throws -> CharacterCatalog {
        try parse(Data(embeddedPlist.utf8), source: "\(fileName) (compiled in)")
    }
}
