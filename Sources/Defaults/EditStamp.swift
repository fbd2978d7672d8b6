import FoundationEssentials
import Platform
import PropertyList

/// When and where a saved value was last changed by the user: wall-clock seconds (so it
/// survives restarts and compares across processes and machines) and a device name that breaks
/// ties. Carried inside the saved value itself, so every copy of it — the defaults, the
/// restoration archive, the synced store — can tell which of two copies is newer.
public struct EditStamp: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var time: Double
    public var device: String

    public init(time: Double, device: String) {
        self.time = time
        self.device = device
    }

    /// Older than anything: values saved before stamps existed.
    public static let zero = EditStamp(time: 0, device: "")

    public static func < (a: EditStamp, b: EditStamp) -> Bool {
        a.time != b.time ? a.time < b.time : a.device < b.device
    }

    public var description: String { "\(time)@\(device)" }

    // MARK: making one

    /// This process's name in stamps: the host and a random part, so two instances on one
    /// machine that save in the same microsecond still order the same way everywhere.
    public static let thisDevice: String = {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "host"
        return "\(host)-\(String(UInt32.random(in: 0 ... .max), radix: 36))"
    }()

    nonisolated(unsafe) private static var last = 0.0
    private static let lock = Lock()

    /// Now, never earlier than the last stamp this process made (the wall clock may step back).
    public static func now() -> EditStamp {
        lock.lock()
        defer { lock.unlock() }
        last = max(Date().timeIntervalSince1970, last + 0.000_001)
        return EditStamp(time: last, device: thisDevice)
    }

    /// A stamp later than `other`: a local change made after seeing `other` must win over it,
    /// even when this machine's clock is behind the one that made `other`.
    public static func now(after other: EditStamp?) -> EditStamp {
        var stamp = now()
        if let other, stamp <= other {
            stamp.time = other.time + 0.000_001
            lock.lock()
            last = max(last, stamp.time)
            lock.unlock()
        }
        return stamp
    }

    // MARK: in a property list

    public static let timeKey = "modified"
    public static let deviceKey = "device"

    /// Adds the stamp's two fields to a dictionary value.
    public func fields() -> [String: PropertyListValue] {
        [Self.timeKey: .real(time), Self.deviceKey: .string(device)]
    }

    /// Reads the stamp from a dictionary's fields; nil without a usable time.
    public init?(fields: [String: PropertyListValue]) {
        guard let time = fields[Self.timeKey].flatMap(DefaultsConversion.double), time.isFinite, time >= 0 else { return nil }
        self.init(time: time, device: fields[Self.deviceKey].flatMap(DefaultsConversion.string) ?? "")
    }
}
