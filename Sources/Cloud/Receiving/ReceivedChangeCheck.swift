import FoundationEssentials
import PropertyList

/// Why a change from elsewhere was not applied. Each says what a user can act on (which
/// limit, which kind of damage) in a few words.
public enum SkipReason: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyKey
    case keyTooLong(bytes: Int, limit: Int)
    case valueTooLarge(bytes: Int, limit: Int)
    case notAPropertyList(String)
    /// Within the size limits as bytes, but past `PropertyListLimits.changeFile` once its
    /// shared parts are counted at every use (or nested too deeply).
    case expandsTooFar(String)
    /// A value no property-list writer accepts (a NaN date): the defaults could not be saved.
    case notStorable(String)
    /// Applying it would bring the store over its key count or total; tried again when space
    /// is freed.
    case storeFull(KeyValueStoreLimitError)
    /// The last launch stopped while applying it.
    case stoppedTheLastLaunch
    /// Stamped later than any honest clock reads: it would win every merge for its key forever.
    case clockPastAnyClock(HybridTimestamp)

    public var description: String {
        switch self {
        case .emptyKey: return "the key is empty"
        case .keyTooLong(let bytes, let limit): return "the key is \(bytes) bytes; keys may have \(limit)"
        case .valueTooLarge(let bytes, let limit): return "the value is \(bytes) bytes; the store holds \(limit)"
        case .notAPropertyList(let why): return "the value is not a property list: \(why)"
        case .expandsTooFar(let why): return "the value is refused: \(why)"
        case .notStorable(let why): return "the value cannot be stored: \(why)"
        case .storeFull(let limit): return "\(limit)"
        case .stoppedTheLastLaunch: return "the last launch stopped while applying it"
        case .clockPastAnyClock(let stamp): return "its clock (\(stamp)) is later than any real clock can read"
        }
    }
}

/// The checks a change from another device (or another program on this machine) passes
/// before it is applied. They depend on the record alone, never on what else has arrived, so
/// every device skips the same records and the devices still converge.
///
/// The value is read under `PropertyListLimits.changeFile`, which counts a shared object at
/// every use: the reader shares what the file shares, so a few hundred bytes can decode at once
/// into a value of 2^40 leaves, and what would hang is whatever walks it later (comparing it
/// with the defaults, writing it out, printing it). Only a value within those limits is then
/// walked for `storageProblem`.
public enum ReceivedChangeCheck {
    public static let limits = PropertyListLimits.changeFile

    /// The record's value (nil for a removal), or why it must not be applied.
    public static func value(of record: ChangeRecord, limits storeLimits: KeyValueStoreLimits) -> Result<PropertyListValue?, SkipReason> {
        guard HybridLogicalClock.isHonest(record.stamp.clock) else { return .failure(.clockPastAnyClock(record.stamp.clock)) }
        let keyBytes = record.key.utf8.count
        if keyBytes == 0 { return .failure(.emptyKey) }
        if keyBytes > storeLimits.maximumKeyBytes { return .failure(.keyTooLong(bytes: keyBytes, limit: storeLimits.maximumKeyBytes)) }
        guard let payload = record.payload else { return .success(nil) }
        if keyBytes + payload.count > storeLimits.maximumTotalBytes {
            return .failure(.valueTooLarge(bytes: payload.count, limit: storeLimits.maximumTotalBytes))
        }
        let value: PropertyListValue
        do {
            value = try PropertyListReader.value(from: payload, limits: limits)
        } catch let error as PropertyListError where error.kind == .limitExceeded || error.kind == .tooDeep {
            return .failure(.expandsTooFar(error.message))
        } catch {
            return .failure(.notAPropertyList(String("\(error)".prefix(80))))
        }
        if let problem = value.storageProblem { return .failure(.notStorable(String(problem.prefix(80)))) }
        return .success(value)
    }

    /// Why a value this device is about to write must not be: past the limits a receiving
    /// device reads with (checked within those limits, however much the value shares), or not
    /// storable. Nil when it may be written.
    public static func problem(writing value: PropertyListValue) -> String? {
        do {
            try limits.check(value)
        } catch let error as PropertyListError {
            return "it \(error.message)"
        } catch {
            return "\(error)"
        }
        return value.storageProblem
    }
}
