import Foundation
import PropertyList

/// The oracle both property-list fuzz targets apply to input the reader accepted.
public enum RoundTrip {
    /// Binary output must read back bit-for-bit identical. XML loses sub-second dates and
    /// cannot tell a `CF$UID` dictionary from a UID, so there the check is that XML output
    /// reads back and writes the very same bytes again.
    ///
    /// A value with a `storageProblem` (a NaN date, a UID past Int64.max) must be refused by a
    /// writer with a typed error; one without must be written by both.
    public static func check(_ value: PropertyListValue) {
        if let problem = value.storageProblem {
            var refused = false
            for format in [PropertyListFormat.binary, .xml] {
                do { _ = try PropertyListSerializer.data(from: value, format: format) } catch is PropertyListError {
                    refused = true
                } catch {
                    preconditionFailure("writer failed with an untyped error: \(error)")
                }
            }
            precondition(refused, "both writers accepted a value with a storage problem: \(problem)")
            return
        }
        do {
            let binary = try PropertyListSerializer.data(from: value, format: .binary)
            let reread = try BinaryPropertyListReader.read(binary)
            precondition(identical(value, reread), "binary round trip changed the value")
        } catch {
            preconditionFailure("binary writer or reader failed on a value that was read: \(error)")
        }
        do {
            let xml = try PropertyListSerializer.data(from: value, format: .xml)
            let again = try PropertyListSerializer.data(from: XMLPropertyListReader.read(xml), format: .xml)
            precondition(xml == again, "XML output is not a fixpoint")
        } catch {
            preconditionFailure("XML writer or reader failed on a value that was read: \(error)")
        }
    }

    /// Structural equality that, unlike `==`, tells NaN payloads, 0.0 from -0.0, and
    /// canonically equivalent strings apart.
    public static func identical(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
        switch (a, b) {
        case let (.string(x), .string(y)): x.utf8.elementsEqual(y.utf8)
        case let (.integer(x), .integer(y)): x == y
        case let (.unsignedInteger(x), .unsignedInteger(y)): x == y
        case let (.real(x), .real(y)): x.bitPattern == y.bitPattern
        case let (.boolean(x), .boolean(y)): x == y
        case let (.date(x), .date(y)):
            x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        case let (.data(x), .data(y)): x == y
        case let (.uid(x), .uid(y)): x == y
        case let (.array(x), .array(y)): x.count == y.count && zip(x, y).allSatisfy(identical)
        case let (.dictionary(x), .dictionary(y)):
            x.count == y.count && x.allSatisfy { key, value in y[key].map { identical(value, $0) } ?? false }
        default: false
        }
    }
}
