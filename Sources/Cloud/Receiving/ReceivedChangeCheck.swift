import Foundation
import PropertyList

/// Why a change from elsewhere was not applied. Each says what a user can act on (which
/// limit, which kind of damage) in a few words.
public enum SkipReason: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyKey
    case keyTooLong(bytes: Int, limit: Int)
    case valueTooLarge(bytes: Int, limit: Int)
    case notAPropertyList(String)
    case overBudget(ValueBudget.Problem)
    /// Applying it would bring the store over its key count or total; tried again when space
    /// is freed.
    case storeFull(KeyValueStoreLimitError)
    /// The last launch stopped while applying it.
    case stoppedTheLastLaunch

    public var description: String {
        switch self {
        case .emptyKey: return "the key is empty"
        case .keyTooLong(let bytes, let limit): return "the key is \(bytes) bytes; keys may have \(limit)"
        case .valueTooLarge(let bytes, let limit): return "the value is \(bytes) bytes; the store holds \(limit)"
        case .notAPropertyList(let why): return "the value is not a property list: \(why)"
        case .overBudget(let problem): return "the value is refused: \(problem)"
        case .storeFull(let limit): return "\(limit)"
        case .stoppedTheLastLaunch: return "the last launch stopped while applying it"
        }
    }
}

/// The checks a change from another device (or another program on this machine) passes
/// before it is applied. They depend on the record alone, never on what else has arrived, so
/// every device skips the same records and the devices still converge.
public enum ReceivedChangeCheck {
    /// The record's value (nil for a removal), or why it must not be applied.
    public static func value(of record: ChangeRecord, limits: KeyValueStoreLimits,
                             budget: ValueBudget = .syncedValue) -> Result<PropertyListValue?, SkipReason> {
        let keyBytes = record.key.utf8.count
        if keyBytes == 0 { return .failure(.emptyKey) }
        if keyBytes > limits.maximumKeyBytes { return .failure(.keyTooLong(bytes: keyBytes, limit: limits.maximumKeyBytes)) }
        guard let payload = record.payload else { return .success(nil) }
        if keyBytes + payload.count > limits.maximumTotalBytes {
            return .failure(.valueTooLarge(bytes: payload.count, limit: limits.maximumTotalBytes))
        }
        let value: PropertyListValue
        do {
            value = try BinaryPropertyListReader.read(payload)
        } catch {
            return .failure(.notAPropertyList(String("\(error)".prefix(80))))
        }
        if let problem = budget.problem(in: value) { return .failure(.overBudget(problem)) }
        return .success(value)
    }
}
