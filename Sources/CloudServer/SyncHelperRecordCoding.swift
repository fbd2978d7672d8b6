import Cloud
import FoundationEssentials
import PropertyList

/// Change records and the store's limit errors as property-list values, for the helper's pipes.
/// Reading checks every field: what does not fit the store's own types is refused by name.
enum SyncHelperRecordCoding {
    static func value(of record: ChangeRecord) -> PropertyListValue {
        var fields: [String: PropertyListValue] = [
            "key": .string(record.key),
            "clock": .integer(unsigned: record.stamp.clock.rawValue),
            "device": .string(record.stamp.device.rawValue),
        ]
        if let payload = record.payload { fields["payload"] = .data(payload) }
        if let origin = record.origin { fields["origin"] = .string(origin) }
        return .dictionary(fields)
    }

    static func record(from value: PropertyListValue) throws -> ChangeRecord {
        let fields = try SyncHelperFields(value, what: "a change")
        guard let device = DeviceIdentifier(try fields.string("device")) else {
            throw SyncHelperFailure("a change names a device that is not a device identifier")
        }
        let payload: Data?
        switch fields.optional("payload") {
        case nil: payload = nil
        case .data(let data)?: payload = data
        case let other?: throw SyncHelperFailure("a change's payload is \(other.kindDescription), not data")
        }
        return ChangeRecord(key: try fields.string("key"), payload: payload,
                            stamp: ChangeStamp(clock: HybridTimestamp(rawValue: try fields.unsigned("clock")), device: device),
                            origin: try fields.optionalString("origin"))
    }

    static func value(of limit: KeyValueStoreLimitError) -> PropertyListValue {
        func numbers(_ kind: String, _ first: Int, _ second: Int, key: String? = nil) -> PropertyListValue {
            var fields: [String: PropertyListValue] = ["kind": .string(kind), "amount": .integer(Int64(first)), "limit": .integer(Int64(second))]
            if let key { fields["key"] = .string(key) }
            return .dictionary(fields)
        }
        switch limit {
        case .keyTooLong(let key, let bytes, let limit): return numbers("keyTooLong", bytes, limit, key: key)
        case .emptyKey: return .dictionary(["kind": .string("emptyKey")])
        case .tooManyKeys(let count, let limit): return numbers("tooManyKeys", count, limit)
        case .tooLarge(let bytes, let limit): return numbers("tooLarge", bytes, limit)
        case .notAPropertyList(let key): return .dictionary(["kind": .string("notAPropertyList"), "key": .string(key)])
        case .valueRefused(let key, let why): return .dictionary(["kind": .string("valueRefused"), "key": .string(key), "why": .string(why)])
        }
    }

    static func limit(from value: PropertyListValue) throws -> KeyValueStoreLimitError {
        let fields = try SyncHelperFields(value, what: "a refusal")
        switch try fields.string("kind") {
        case "keyTooLong": return .keyTooLong(key: try fields.string("key"), bytes: try fields.int("amount"), limit: try fields.int("limit"))
        case "emptyKey": return .emptyKey
        case "tooManyKeys": return .tooManyKeys(count: try fields.int("amount"), limit: try fields.int("limit"))
        case "tooLarge": return .tooLarge(bytes: try fields.int("amount"), limit: try fields.int("limit"))
        case "notAPropertyList": return .notAPropertyList(key: try fields.string("key"))
        case "valueRefused": return .valueRefused(key: try fields.string("key"), why: try fields.string("why"))
        case let other: throw SyncHelperFailure("a refusal names a limit this app does not know: \(other.prefix(40))")
        }
    }
}

/// A message's dictionary, read field by field with the field named in every error.
struct SyncHelperFields {
    let fields: [String: PropertyListValue]
    let what: String

    init(_ value: PropertyListValue, what: String) throws {
        guard case .dictionary(let fields) = value else { throw SyncHelperFailure("\(what) is \(value.kindDescription), not a dictionary") }
        self.fields = fields
        self.what = what
    }

    func optional(_ name: String) -> PropertyListValue? { fields[name] }

    func required(_ name: String) throws -> PropertyListValue {
        guard let value = fields[name] else { throw SyncHelperFailure("\(what) has no \(name)") }
        return value
    }

    func string(_ name: String) throws -> String {
        guard case .string(let text) = try required(name) else { throw wrongType(name, "a string") }
        return text
    }

    func optionalString(_ name: String) throws -> String? {
        fields[name] == nil ? nil : try string(name)
    }

    func int(_ name: String) throws -> Int {
        guard case .integer(let number) = try required(name), let int = Int(exactly: number) else { throw wrongType(name, "an integer") }
        return int
    }

    func unsigned(_ name: String) throws -> UInt64 {
        switch try required(name) {
        case .integer(let number) where number >= 0: return UInt64(number)
        case .unsignedInteger(let number): return number
        default: throw wrongType(name, "a number of 0 or more")
        }
    }

    func double(_ name: String) throws -> Double {
        switch try required(name) {
        case .real(let number) where number.isFinite: return number
        case .integer(let number): return Double(number)
        default: throw wrongType(name, "a number")
        }
    }

    func array(_ name: String) throws -> [PropertyListValue] {
        guard case .array(let items) = try required(name) else { throw wrongType(name, "an array") }
        return items
    }

    func bool(_ name: String) throws -> Bool {
        guard case .boolean(let flag) = try required(name) else { throw wrongType(name, "a boolean") }
        return flag
    }

    private func wrongType(_ name: String, _ expected: String) -> SyncHelperFailure {
        SyncHelperFailure("\(what)'s \(name) is not \(expected)")
    }
}
