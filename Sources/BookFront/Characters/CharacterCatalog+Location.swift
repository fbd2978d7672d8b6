import FileSafety
import FoundationEssentials
import Platform

extension CharacterCatalog {
    public static let fileName = "Characters.plist"

    /// Where the character list is on disk, found as every resource is (`AppResources`):
    /// `$WONDERLAND_RESOURCES/Characters.plist` when the variable is set, else
    /// `Resources/Characters.plist` or `share/wonderland/Characters.plist` walking up from the
    /// executable. Nil: use the compiled-in copy.
    public static func locateFile(environment: [String: String] = ProcessInfo.processInfo.environment,
                                  executablePath: String? = AppResources.currentExecutablePath) -> URL? {
        AppResources.locate(fileName, environment: environment, executablePath: executablePath).map { URL(fileURLWithPath: $0) }
    }

    /// The app's character list: the file `locateFile` finds, else the compiled-in copy.
    /// Throws a `CharacterCatalogError` naming the file when it is missing or malformed.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment,
                                executablePath: String? = AppResources.currentExecutablePath) throws -> CharacterCatalog {
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
