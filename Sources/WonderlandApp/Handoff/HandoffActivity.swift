import FoundationEssentials
import PropertyList
import Restoration
import TextSafety

/// What one machine was doing, as another may continue it: the screens on show (a restoration
/// archive of the whole tree, built from the same screens and identifiers the app saves at quit)
/// and what the offer says about it. Kept in the synced store under a key of its device's.
///
/// Everything read from the store is a peer's and may be hostile: each field is checked, sized
/// and cut before anything shows or restores it.
public struct HandoffActivity: Equatable, Sendable {
    /// Bumped when the layout changes; a machine that reads an older one shows a newer one as
    /// "from a newer wonderland" and does not apply it.
    public static let formatVersion = 1
    static let maximumNameCharacters = 40
    static let maximumPathComponents = 8
    static let maximumPathCharacters = 60

    /// What became of a draft the user was typing.
    public enum Draft: String, Equatable, Sendable {
        /// None was being typed, or drafts do not travel.
        case none
        /// It is in the activity, text and cursor.
        case included
        /// It was too large for an activity; the screen is there without it.
        case leftOut = "left out"
    }

    public var formatVersion = Self.formatVersion
    /// The device's name as its user set it (or its host name).
    public var deviceName: String
    /// The version of wonderland that made it.
    public var appVersion: String
    /// When the user last moved there.
    public var when: Date
    /// The titles from the tab down to the screen on show: Characters › Cheshire Cat.
    public var path: [String]
    public var draft: Draft
    /// The restoration archive of the tree (its header carries no time or size, so the same
    /// place gives the same bytes on every machine).
    public var place: Data

    public init(deviceName: String, appVersion: String, when: Date, path: [String], draft: Draft, place: Data) {
        self.deviceName = deviceName
        self.appVersion = appVersion
        self.when = when
        self.path = path
        self.draft = draft
        self.place = place
    }

    enum Key {
        static let version = "Version", device = "Device", app = "App", when = "When"
        static let path = "Path", draft = "Draft", place = "Place"
    }

    /// The store's value.
    public var propertyList: PropertyListValue {
        .dictionary([
            Key.version: .integer(Int64(formatVersion)),
            Key.device: .string(deviceName),
            Key.app: .string(appVersion),
            Key.when: .date(when),
            Key.path: .array(path.map { .string($0) }),
            Key.draft: .string(draft.rawValue),
            Key.place: .data(place),
        ])
    }

    /// The offer's words for where it is: "Characters › Cheshire Cat, note draft".
    public var summary: String {
        let at = path.isEmpty ? "Wonderland" : path.joined(separator: " › ")
        switch draft {
        case .none: return at
        case .included: return at + ", note draft"
        case .leftOut: return at + " (its draft was too long to send)"
        }
    }

    /// What a peer's value is, read as strictly as any change from elsewhere.
    public enum Reading: Equatable, Sendable {
        case activity(HandoffActivity)
        /// A layout or a place this version cannot read whole: shown, never applied.
        case newer(deviceName: String, when: Date?)
        /// Not an activity at all; why.
        case unreadable(String)
    }

    /// Reads a store value. `now` bounds the time: an activity more than a day ahead of this
    /// machine's clock is refused, or it would stay the newest for ever.
    public static func read(_ value: PropertyListValue, now: Date = Date()) -> Reading {
        guard case .dictionary(let fields) = value else { return .unreadable("not a dictionary") }
        guard case .integer(let version)? = fields[Key.version] else { return .unreadable("no format version") }
        let name = fields[Key.device].flatMap(Self.string).map { bounded($0, to: maximumNameCharacters) } ?? "another machine"
        var when: Date?
        if case .date(let date)? = fields[Key.when], date.timeIntervalSince1970.isFinite { when = date }
        guard version == Int64(formatVersion) else {
            return version > Int64(formatVersion) ? .newer(deviceName: name, when: when) : .unreadable("format version \(version)")
        }
        guard let when else { return .unreadable("no time") }
        guard when.timeIntervalSince(now) < 86_400 else { return .unreadable("its time is more than a day ahead of this machine's clock") }
        guard case .data(let place)? = fields[Key.place] else { return .unreadable("no place") }
        guard place.count <= maximumBytes else { return .unreadable("its place is larger than \(maximumBytes) bytes") }
        let app = fields[Key.app].flatMap(Self.string).flatMap(ArchiveVersions.safe) ?? "unknown"
        var path: [String] = []
        if case .array(let items)? = fields[Key.path] {
            path = items.prefix(maximumPathComponents).compactMap(Self.string).map { bounded($0, to: maximumPathCharacters) }
        }
        let draft = fields[Key.draft].flatMap(Self.string).flatMap(Draft.init(rawValue:)) ?? .none
        return .activity(HandoffActivity(deviceName: name, appVersion: app, when: when, path: path, draft: draft, place: place))
    }

    static let maximumBytes = HandoffSettings.maximumBytes

    private static func string(_ value: PropertyListValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// `text` made one safe line of at most `limit` characters.
    static func bounded(_ text: String, to limit: Int) -> String {
        let line = SafeText.visible(String(text.prefix(limit * 4)))
        return line.count <= limit ? line : String(line.prefix(limit - 1)) + "…"
    }
}
