import PropertyList

/// One thing `wonderland cloud check` found about the sync server's database: how much it
/// matters, and a sentence for an admin or a user to act on. Made by the helper (which runs
/// the queries), carried over the pipe, and printed by the app as it came.
public struct ServerCheckFinding: Equatable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable, CaseIterable {
        /// Something another role could use to read, change or disturb this database's store.
        case problem
        /// Not a hole by itself, but weaker than a team server should be.
        case warning
        /// A check that passed.
        case ok
        /// A fact to know (how many devices fit, which schema version), neither good nor bad.
        case info
    }

    public let severity: Severity
    public let text: String

    public init(_ severity: Severity, _ text: String) {
        self.severity = severity
        self.text = text
    }

    public static func problem(_ text: String) -> Self { Self(.problem, text) }
    public static func warning(_ text: String) -> Self { Self(.warning, text) }
    public static func ok(_ text: String) -> Self { Self(.ok, text) }
    public static func info(_ text: String) -> Self { Self(.info, text) }

    /// "problem: PUBLIC may connect to ...": the line the command prints.
    public var description: String { "\(severity.rawValue): \(text)" }

    var propertyList: PropertyListValue {
        .dictionary(["severity": .string(severity.rawValue), "text": .string(text)])
    }

    init(propertyList value: PropertyListValue) throws {
        let fields = try SyncHelperFields(value, what: "a finding")
        guard let severity = Severity(rawValue: try fields.string("severity")) else {
            throw SyncHelperFailure("a finding's severity is not one the app knows")
        }
        self.init(severity, try fields.string("text"))
    }
}
