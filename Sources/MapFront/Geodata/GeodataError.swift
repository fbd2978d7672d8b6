/// Why a map data file could not be used. The message names the file and says what is wrong
/// with it in words a user can act on; the Map tab shows it as it is.
public struct GeodataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's name without its folder: "ne_50m_land.shp".
    public var file: String
    public var reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}
