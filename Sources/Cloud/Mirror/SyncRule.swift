import Defaults
import PropertyList

/// One thing the mirror keeps in step between the local defaults and the synced store, and the
/// defaults toggle that turns it on. The app gives the rules; the mirror knows no app keys.
public struct SyncRule: Sendable, Equatable {
    public enum Shape: Sendable, Equatable {
        /// A defaults key's whole value, under a store key of the same name (Pigeon's
        /// HPLocation).
        case wholeKey(String)
        /// A dictionary in the defaults, one store key per entry (`cloudPrefix + entry name`), so
        /// two devices changing different entries never overwrite each other.
        case perEntry(localKey: String, cloudPrefix: String)
    }

    public var shape: Shape
    /// The boolean defaults key that turns the rule on (a settings toggle).
    public var enabledBy: String
    /// The values carry an `EditStamp` (dictionaries with its fields): where the local copy and
    /// the store's differ, the newer stands, whichever side it is on — a relaunch never writes
    /// an older value over a newer one from another device, nor the other way round.
    public var newestWins: Bool
    /// For a per-entry rule: how much of the store it may take (see `EntryShare`). Its entries
    /// are ranked by their stamps, and a removal of one in the store is an eviction, never a
    /// deletion: the entry stays in the defaults of every device that has it.
    public var share: EntryShare?
    /// For a rule with `newestWins`: the form of its values written by a release that stamped
    /// none (see `UnstampedForm`); nil treats such values as older than any stamped one.
    public var unstamped: UnstampedForm?

    public init(_ shape: Shape, enabledBy: String, newestWins: Bool = false, share: EntryShare? = nil,
                unstamped: UnstampedForm? = .dictionaryFields) {
        self.shape = shape
        self.enabledBy = enabledBy
        self.newestWins = newestWins
        self.share = share
        self.unstamped = newestWins ? unstamped : nil
    }

    public static func == (a: SyncRule, b: SyncRule) -> Bool {
        a.shape == b.shape && a.enabledBy == b.enabledBy && a.newestWins == b.newestWins && a.share == b.share
            && (a.unstamped == nil) == (b.unstamped == nil)
    }

    public static func wholeKey(_ key: String, enabledBy toggle: String, newestWins: Bool = false,
                                unstamped: UnstampedForm? = .dictionaryFields) -> SyncRule {
        SyncRule(.wholeKey(key), enabledBy: toggle, newestWins: newestWins, unstamped: unstamped)
    }

    public static func perEntry(_ localKey: String, cloudPrefix: String, enabledBy toggle: String, newestWins: Bool = false,
                                share: EntryShare? = nil, unstamped: UnstampedForm? = .dictionaryFields) -> SyncRule {
        SyncRule(.perEntry(localKey: localKey, cloudPrefix: cloudPrefix), enabledBy: toggle, newestWins: newestWins, share: share,
                 unstamped: unstamped)
    }

    /// Whether the local value must stand against the store's: both are values and the local
    /// one is the newer. A value's time is its stamp. One without a stamp was written by a
    /// release that made none: in the store it is as new as the store's record of it
    /// (`storedAt`, when the store has one), so an older machine's change is followed; here it
    /// is older than any stamped one. A removal on either side is not compared: the store's own
    /// order decides it.
    func keepsLocal(_ local: PropertyListValue?, over stored: PropertyListValue?, storedAt: Double? = nil) -> Bool {
        guard newestWins, let local, let stored, local != stored else { return false }
        return Self.stamp(of: local, writtenAt: nil) > Self.stamp(of: stored, writtenAt: storedAt)
    }

    /// The other way round: whether the store's value must stand against a local change,
    /// which happens when the local one is an older copy put back (a restored archive).
    func keepsStored(_ stored: PropertyListValue?, storedAt: Double?, over local: PropertyListValue?) -> Bool {
        guard newestWins, let local, let stored, local != stored else { return false }
        return Self.stamp(of: stored, writtenAt: storedAt) > Self.stamp(of: local, writtenAt: nil)
    }

    static func stamp(of value: PropertyListValue, writtenAt: Double?) -> EditStamp {
        if case .dictionary(let fields) = value, let stamp = EditStamp(fields: fields) { return stamp }
        return writtenAt.map { EditStamp(time: $0, device: "") } ?? .zero
    }

    /// The defaults key the rule mirrors.
    public var localKey: String {
        switch shape {
        case .wholeKey(let key): return key
        case .perEntry(let localKey, _): return localKey
        }
    }

    /// Whether a store key belongs to this rule; for a per-entry rule, the entry's name.
    func entryName(forCloudKey cloudKey: String) -> String?? {
        switch shape {
        case .wholeKey(let key):
            return cloudKey == key ? .some(nil) : nil
        case .perEntry(_, let prefix):
            guard cloudKey.hasPrefix(prefix), cloudKey.count > prefix.count else { return nil }
            return .some(String(cloudKey.dropFirst(prefix.count)))
        }
    }
}

/// What the mirror has to tell the user, once each.
public enum MirrorNotice: Sendable, Equatable, CustomStringConvertible {
    /// A write was refused by the store's limits; the value stays on this device only. Not
    /// worth interrupting for: the app keeps it among its messages.
    case quotaViolation(String)
    /// An entry whose store key would be longer than the store allows is kept local.
    case entryNotSynced(String)
    /// The store's own warnings (a damaged local copy moved aside).
    case storeWarning(String)

    /// Whether the user need only find it among the messages: a value that stays on this
    /// machine changes nothing they are doing, so it is no reason to stop them.
    public var isQuiet: Bool {
        switch self {
        case .quotaViolation, .entryNotSynced: return true
        case .storeWarning: return false
        }
    }

    public var description: String {
        switch self {
        case .quotaViolation(let why): return "A change could not be synced: \(why). It is kept on this device."
        case .entryNotSynced(let why): return why
        case .storeWarning(let text): return text
        }
    }
}
