import FoundationEssentials
import PropertyList

/// The keyed fields of one archived object, kept so they can be decoded later — after the
/// object graph is built — rather than inside `decode(from:)`. The restoration engine decodes
/// a screen's state this way once it has found or rebuilt the screen.
public struct ArchiveFieldScope: Sendable {
    fileprivate let fields: [String: PropertyListValue]
    /// The keys stored for the object, sorted.
    public var keys: [String] { fields.keys.sorted() }
}

extension KeyedUnarchiver {
    /// The fields of the object being decoded now (`$top` outside any object).
    public var currentScope: ArchiveFieldScope { ArchiveFieldScope(fields: fields) }

    /// Runs `body` with `scope` as the object being decoded: every `decode…(forKey:)` inside
    /// reads that object's keys.
    public func decoding<Result>(_ scope: ArchiveFieldScope, _ body: () throws -> Result) rethrows -> Result {
        let outer = fields
        fields = scope.fields
        defer { fields = outer }
        return try body()
    }

    /// The value under `key` with references followed, for showing to a person: Foundation
    /// strings, data, dates, arrays and dictionaries as plain values; an archivable object as a
    /// dictionary of its fields with its class name under `$class`. Nesting past `depthLimit`
    /// (or a cycle) shows as "…".
    public func displayValue(forKey key: String, depthLimit: Int = 16) -> PropertyListValue? {
        guard let stored = fields[key] else { return nil }
        return display(stored, depth: depthLimit)
    }

    private func display(_ value: PropertyListValue, depth: Int) -> PropertyListValue {
        guard depth > 0 else { return .string("…") }
        switch value {
        case .uid(let uid):
            guard let index = try? contents.index(of: uid) else { return .string("<bad reference \(uid)>") }
            if index == 0 { return .string("nil") }
            return displayEntry(contents.objects[index], className: contents.classNames[index], depth: depth - 1)
        case .array(let items):
            return .array(items.map { display($0, depth: depth - 1) })
        case .dictionary(let entries):
            return .dictionary(entries.mapValues { display($0, depth: depth - 1) })
        default:
            return value
        }
    }

    private func displayEntry(_ entry: PropertyListValue, className: String?, depth: Int) -> PropertyListValue {
        guard let className, case .dictionary(let entryFields) = entry else { return display(entry, depth: depth) }
        switch className {
        case _ where FoundationClass.string.contains(className):
            return entryFields[ArchiveFormat.stringKey] ?? .string("")
        case _ where FoundationClass.data.contains(className):
            return entryFields[ArchiveFormat.dataKey] ?? .data(Data())
        case _ where FoundationClass.date.contains(className):
            if case .real(let time)? = entryFields[ArchiveFormat.timeKey] {
                return .date(Date(timeIntervalSinceReferenceDate: time))
            }
            return .string("<date>")
        case _ where FoundationClass.array.contains(className):
            guard case .array(let items)? = entryFields[ArchiveFormat.arrayObjectsKey] else { return .array([]) }
            return .array(items.map { display($0, depth: depth) })
        case _ where FoundationClass.dictionary.contains(className):
            guard case .array(let keys)? = entryFields[ArchiveFormat.dictionaryKeysKey],
                  case .array(let values)? = entryFields[ArchiveFormat.arrayObjectsKey] else { return .dictionary([:]) }
            var result: [String: PropertyListValue] = [:]
            for (key, value) in zip(keys, values) {
                let shownKey: String
                if case .string(let text) = display(key, depth: depth) { shownKey = text } else { shownKey = "\(key)" }
                result[shownKey] = display(value, depth: depth)
            }
            return .dictionary(result)
        default:
            var result = entryFields.filter { $0.key != ArchiveFormat.classKey }.mapValues { display($0, depth: depth) }
            result[ArchiveFormat.classKey] = .string(className)
            return .dictionary(result)
        }
    }
}
