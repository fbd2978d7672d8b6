/// How big a file of one kind may be before it is refused unread. Every limit is here, so they
/// can be compared with each other and with what the app itself writes.
public struct FileLimit: Equatable, Sendable {
    public let bytes: Int
    /// What the file is, for messages: "a settings file".
    public let name: String

    public init(bytes: Int, name: String) {
        self.bytes = bytes
        self.name = name
    }
}

extension FileLimit {
    // The app's own state. Each is far above what the app writes (a defaults file of a few KB,
    // an archive of tens of KB even with many screens), and the app refuses to write past them
    // (see the writers), so a file over one was not written by the app.

    /// defaults.plist, and a file given to `wonderland defaults import`.
    public static let defaults = FileLimit(bytes: 16 << 20, name: "a settings file")
    /// restoration.archive.
    public static let restorationArchive = FileLimit(bytes: 64 << 20, name: "a restoration archive")
    /// A map scale's drawing index (the cache of `MapLevelCache`): about 35 MB at 1:10m.
    public static let mapIndex = FileLimit(bytes: 256 << 20, name: "a map index")
    /// restoration.log: the app keeps it near 64 KB.
    public static let restorationLog = FileLimit(bytes: 1 << 20, name: "the restoration log")
    /// The synced store's local copy (`synced-store/`); it holds at most the store's 1 MB.
    public static let syncedStoreCopy = FileLimit(bytes: 16 << 20, name: "the synced store's copy")
    /// `device-id`: a device identifier is at most 64 characters.
    public static let syncIdentity = FileLimit(bytes: 256, name: "this machine's sync identity")

    // Files that come with the app, or that the user points it at.

    /// A plain-text book. Big ones are mapped rather than read, so memory is not what bounds
    /// this: byte offsets and whole-text scans are, and 2 GB keeps a scan within seconds.
    public static let textBook = FileLimit(bytes: 2 << 30, name: "a book")
    /// A Markdown book: it is rebuilt in memory without its markers.
    public static let markdownBook = FileLimit(bytes: 64 << 20, name: "a Markdown book")
    /// An EPUB: read through its zip directory, each entry capped again when inflated.
    public static let epubBook = FileLimit(bytes: 512 << 20, name: "an EPUB book")
    /// A Settings.bundle pane (Root.plist, a child pane).
    public static let settingsBundleFile = FileLimit(bytes: 4 << 20, name: "a settings bundle file")
    /// A book read whole to learn whether it is the default book, byte for byte: the default
    /// book is about 150 KB, so anything much bigger is another book, known without reading it.
    public static let defaultBookCandidate = FileLimit(bytes: 1 << 20, name: "a book checked against the default book")
    /// Characters.plist.
    public static let characterList = FileLimit(bytes: 4 << 20, name: "the character list")
    /// A file given to `wonderland plist lint | print | convert`: a property list or keyed
    /// archive of any origin, parsed in memory.
    public static let userPropertyList = FileLimit(bytes: 256 << 20, name: "a property list")
    /// ~/.pgpass (or PGPASSFILE): a few lines of `host:port:database:user:password`.
    public static let passwordFile = FileLimit(bytes: 1 << 20, name: "a password file")
}

/// Sizes as people read them: "512 bytes", "16 MB", "3.5 GB" (powers of 1024).
public enum ByteCountText {
    public static func describe(_ bytes: Int64) -> String {
        let units = ["KB", "MB", "GB", "TB", "PB", "EB"]
        guard bytes >= 1024 else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes)
        var unit = -1
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        // Whole numbers stay whole ("16 MB"); others keep one decimal, rounded down, so a file
        // just over a limit never reads as the limit itself ("16.5 MB", not "16 MB").
        if value == value.rounded(.down) { return "\(Int(value)) \(units[unit])" }
        let tenths = Int((value * 10).rounded(.down))
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
