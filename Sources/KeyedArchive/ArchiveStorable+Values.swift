import FoundationEssentials
import PropertyList

// Plain values are written exactly as Foundation writes the matching NS class, so either side
// can read the other's archives.

extension String: ArchiveStorable {
    /// Foundation writes an NSString as a bare string entry; NSMutableString as {NS.string}.
    public func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference {
        archiver.reference(forString: self)
    }

    public static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> String {
        let (index, entry) = try unarchiver.entry(reference)
        if case .string(let text) = entry, index != 0 { return text }
        let fields = try unarchiver.foundationFields(at: index, classes: FoundationClass.string, expected: "String")
        guard case .string(let text)? = fields[ArchiveFormat.stringKey] else {
            throw unarchiver.malformed("\(ArchiveFormat.stringKey) is not a string", at: index)
        }
        return text
    }
}

extension Bool: ArchiveStorable {
    public func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference {
        archiver.append(.boolean(self))
    }

    public static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> Bool {
        let (index, entry) = try unarchiver.entry(reference)
        guard case .boolean(let flag) = entry else { throw unarchiver.mismatch(expected: "Bool", at: index) }
        return flag
    }
}

/// Integers of every width are NSNumber entries, Int64.min...UInt64.max as in the property
/// list; one too big for the asked width is refused when read.
extension ArchiveStorable where Self: FixedWidthInteger {
    public func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference {
        archiver.append(try ArchiveNumbers.stored(self))
    }

    public static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> Self {
        let (index, entry) = try unarchiver.entry(reference)
        do { return try ArchiveNumbers.integer(entry, as: Self.self) } catch let error as ArchiveError {
            throw error.inObject(index)
        }
    }
}

extension Int: ArchiveStorable {}
extension Int8: ArchiveStorable {}
extension Int16: ArchiveStorable {}
extension Int32: ArchiveStorable {}
extension Int64: ArchiveStorable {}
extension UInt: ArchiveStorable {}
extension UInt8: ArchiveStorable {}
extension UInt16: ArchiveStorable {}
extension UInt32: ArchiveStorable {}
extension UInt64: ArchiveStorable {}

extension ArchiveStorable where Self: BinaryFloatingPoint {
    public func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference {
        archiver.append(.real(Double(self)))
    }

    public static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> Self {
        let (index, entry) = try unarchiver.entry(reference)
        do { return Self(try ArchiveNumbers.double(entry)) } catch let error as ArchiveError {
            throw error.inObject(index)
        }
    }
}

extension Double: ArchiveStorable {}
extension Float: ArchiveStorable {}

extension Data: ArchiveStorable {
    /// Foundation writes an NSData as a bare data entry; NSMutableData as {NS.data}.
    public func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference {
        archiver.append(.data(self))
    }

    public static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> Data {
        let (index, entry) = try unarchiver.entry(reference)
        if case .data(let bytes) = entry { return bytes }
        let fields = try unarchiver.foundationFields(at: index, classes: FoundationClass.data, expected: "Data")
        guard case .data(let bytes)? = fields[ArchiveFormat.dataKey] else {
            throw unarchiver.malformed("\(ArchiveFormat.dataKey) is not data", at: index)
        }
        return bytes
    }
}

extension Date: ArchiveStorable {
    /// An NSDate is {NS.time: seconds since 2001-01-01, $class: NSDate}, not a plist date.
    public func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference {
        archiver.appendFoundationObject(
            className: FoundationClass.date[0],
            fields: [ArchiveFormat.timeKey: .real(timeIntervalSinceReferenceDate)]
        )
    }

    public static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> Date {
        let (index, _) = try unarchiver.entry(reference)
        let fields = try unarchiver.foundationFields(at: index, classes: FoundationClass.date, expected: "Date")
        // A NaN or infinite time is no date, and formatting one traps in Foundation.
        guard let time = fields[ArchiveFormat.timeKey], let seconds = try? ArchiveNumbers.double(time), seconds.isFinite else {
            throw unarchiver.malformed("\(ArchiveFormat.timeKey) is missing or not a finite number", at: index)
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }
}

extension Array: ArchiveStorable where Element: ArchiveStorable {
    /// {NS.objects: [UID…], $class: NSArray}.
    public func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference {
        try archiver.appendContainer(className: FoundationClass.array[0]) {
            var uids: [PropertyListValue] = []
            uids.reserveCapacity(count)
            for (position, element) in enumerated() {
                do { uids.append(.uid(try element.archiveReference(in: archiver).uid)) } catch let error as ArchiveError {
                    throw error.under("[\(position)]")
                }
            }
            return [ArchiveFormat.arrayObjectsKey: .array(uids)]
        }
    }

    public static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> [Element] {
        let (index, _) = try unarchiver.entry(reference)
        return try unarchiver.container(at: index, as: [Element].self) {
            let fields = try unarchiver.foundationFields(at: index, classes: FoundationClass.array, expected: "Array")
            let uids = try unarchiver.references(fields[ArchiveFormat.arrayObjectsKey], named: ArchiveFormat.arrayObjectsKey, at: index)
            var elements: [Element] = []
            elements.reserveCapacity(uids.count)
            for (position, uid) in uids.enumerated() {
                do { elements.append(try Element.unarchive(uid, from: unarchiver)) } catch let error as ArchiveError {
                    throw error.under("[\(position)]")
                }
            }
            return elements
        }
    }
}

extension Dictionary: ArchiveStorable where Key == String, Value: ArchiveStorable {
    /// {NS.keys: [UID…], NS.objects: [UID…], $class: NSDictionary}; keys are sorted so the
    /// same dictionary always archives to the same bytes.
    public func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference {
        try archiver.appendContainer(className: FoundationClass.dictionary[0]) {
            var keyUIDs: [PropertyListValue] = []
            var valueUIDs: [PropertyListValue] = []
            keyUIDs.reserveCapacity(count)
            valueUIDs.reserveCapacity(count)
            for key in keys.sorted() {
                keyUIDs.append(.uid(archiver.reference(forString: key).uid))
                do { valueUIDs.append(.uid(try self[key]!.archiveReference(in: archiver).uid)) } catch let error as ArchiveError {
                    throw error.under(key)
                }
            }
            return [ArchiveFormat.dictionaryKeysKey: .array(keyUIDs), ArchiveFormat.arrayObjectsKey: .array(valueUIDs)]
        }
    }

    public static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> [String: Value] {
        let (index, _) = try unarchiver.entry(reference)
        return try unarchiver.container(at: index, as: [String: Value].self) {
            let fields = try unarchiver.foundationFields(at: index, classes: FoundationClass.dictionary, expected: "Dictionary")
            let keyUIDs = try unarchiver.references(fields[ArchiveFormat.dictionaryKeysKey], named: ArchiveFormat.dictionaryKeysKey, at: index)
            let valueUIDs = try unarchiver.references(fields[ArchiveFormat.arrayObjectsKey], named: ArchiveFormat.arrayObjectsKey, at: index)
            guard keyUIDs.count == valueUIDs.count else {
                throw unarchiver.malformed("\(keyUIDs.count) keys but \(valueUIDs.count) values", at: index)
            }
            var result: [String: Value] = [:]
            result.reserveCapacity(keyUIDs.count)
            for (keyUID, valueUID) in zip(keyUIDs, valueUIDs) {
                let key: String
                do { key = try String.unarchive(keyUID, from: unarchiver) } catch let error as ArchiveError {
                    throw error.under(ArchiveFormat.dictionaryKeysKey)
                }
                guard result[key] == nil else { throw ArchiveError(.duplicateKey(key), objectIndex: index) }
                do { result[key] = try Value.unarchive(valueUID, from: unarchiver) } catch let error as ArchiveError {
                    throw error.under(key)
                }
            }
            return result
        }
    }
}
