import FoundationEssentials

/// Writes property lists in either format.
public enum PropertyListSerializer {
    /// `value` as an XML or binary property list. Throws for what no format can store
    /// (see `PropertyListValue.storageProblem`).
    public static func data(from value: PropertyListValue, format: PropertyListFormat) throws -> Data {
        switch format {
        case .xml: try XMLPropertyListWriter.data(from: value)
        case .binary: try BinaryPropertyListWriter.data(from: value)
        }
    }
}
