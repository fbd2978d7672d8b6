/// A change from elsewhere that was not applied, and why: what `wonderland cloud status` and
/// the app's notices name.
public struct SkippedChange: Sendable, Equatable, CustomStringConvertible {
    public let key: String
    public let stamp: ChangeStamp
    /// Where it was read (a change file and offset, a server row), when known.
    public let origin: String?
    public let reason: SkipReason

    public init(key: String, stamp: ChangeStamp, origin: String?, reason: SkipReason) {
        self.key = key
        self.stamp = stamp
        self.origin = origin
        self.reason = reason
    }

    public init(_ record: ChangeRecord, reason: SkipReason) {
        self.init(key: record.key, stamp: record.stamp, origin: record.origin, reason: reason)
    }

    /// The change itself, whatever it is skipped for: the same record read again is the same entry.
    var identity: ChangeIdentity { ChangeIdentity(key: key, stamp: stamp) }

    /// One line of at most `Self.maximumLength` characters: the key (cut, control characters
    /// shown as "?"), the device, where it was read, and why.
    public var description: String {
        var line = "\"\(Self.printable(key, limit: 32))\" from device \(stamp.device.rawValue.prefix(20))"
        if let origin { line += " (\(Self.printable(origin, limit: 60)))" }
        line += ": \(reason)"
        return line.count <= Self.maximumLength ? line : String(line.prefix(Self.maximumLength - 1)) + "…"
    }

    public static let maximumLength = 200

    /// Text from another device, made safe to print on a terminal and short: counted in
    /// scalars, so one character of endless combining marks is cut too.
    static func printable(_ text: String, limit: Int) -> String {
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars.prefix(limit + 1) {
            if shown.count == limit {
                shown.append("…")
                break
            }
            let category = scalar.properties.generalCategory
            shown.append(category == .control || category == .format ? "?" : scalar)
        }
        return String(shown)
    }
}

/// One change, wherever it was read: its key and its stamp (clock and device).
struct ChangeIdentity: Hashable, Sendable {
    let key: String
    let stamp: ChangeStamp

    init(key: String, stamp: ChangeStamp) {
        self.key = key
        self.stamp = stamp
    }

    init(_ record: ChangeRecord) { self.init(key: record.key, stamp: record.stamp) }
}
