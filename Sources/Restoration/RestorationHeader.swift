import FoundationEssentials
import KeyedArchive

/// What the archive says about itself. The terminal size is for people reading `state show`;
/// restored state never depends on it.
public struct RestorationHeader: Equatable, Sendable {
    /// The layout of the archive; another version is not restored.
    public var formatVersion: Int
    /// The version of the program that saved it.
    public var appVersion: String
    /// When it was saved.
    public var timestamp: Date
    /// The terminal's width at the save.
    public var terminalColumns: Int
    /// The terminal's height at the save.
    public var terminalRows: Int
    /// The version whose archive this one could not read whole, kept beside it
    /// (`RestorationFiles.keptArchivePath`): that version, back again, restores its own.
    public var keptBeside: String?

    /// A header for a save made now by `appVersion` on a terminal of the given size.
    public init(formatVersion: Int = RestorationEngine.formatVersion, appVersion: String, timestamp: Date,
                terminalColumns: Int, terminalRows: Int, keptBeside: String? = nil) {
        self.keptBeside = keptBeside
        self.formatVersion = formatVersion
        self.appVersion = appVersion
        self.timestamp = timestamp
        self.terminalColumns = terminalColumns
        self.terminalRows = terminalRows
    }

    enum Key {
        static let formatVersion = "WLFormatVersion"
        static let appVersion = "WLAppVersion"
        static let timestamp = "WLTimestamp"
        static let terminalColumns = "WLTerminalColumns"
        static let terminalRows = "WLTerminalRows"
        static let root = "WLRoot"
        static let modals = "WLModals"
        static let keptBeside = "WLKeptBeside"
        static let all: Set<String> = [formatVersion, appVersion, timestamp, terminalColumns, terminalRows, root, modals, keptBeside]
    }

    func encode(with archiver: KeyedArchiver) throws {
        archiver.encode(formatVersion, forKey: Key.formatVersion)
        try archiver.encode(appVersion, forKey: Key.appVersion)
        try archiver.encode(timestamp, forKey: Key.timestamp)
        archiver.encode(terminalColumns, forKey: Key.terminalColumns)
        archiver.encode(terminalRows, forKey: Key.terminalRows)
        if let keptBeside { try archiver.encode(keptBeside, forKey: Key.keptBeside) }
    }

    /// Nil when the archive has no format version: it is not a restoration archive.
    static func decode(from unarchiver: KeyedUnarchiver) throws -> RestorationHeader? {
        guard unarchiver.containsValue(forKey: Key.formatVersion) else { return nil }
        return RestorationHeader(
            formatVersion: try unarchiver.decodeInteger(forKey: Key.formatVersion),
            appVersion: (try? unarchiver.decodeObject(of: String.self, forKey: Key.appVersion)) ?? "unknown",
            timestamp: (try? unarchiver.decodeObject(of: Date.self, forKey: Key.timestamp)) ?? Date(timeIntervalSince1970: 0),
            terminalColumns: (try? unarchiver.decodeInteger(forKey: Key.terminalColumns)) ?? 0,
            terminalRows: (try? unarchiver.decodeInteger(forKey: Key.terminalRows)) ?? 0,
            keptBeside: (try? unarchiver.decodeObject(of: String.self, forKey: Key.keptBeside)).flatMap { $0 })
    }
}
