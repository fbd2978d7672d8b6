import FoundationEssentials

/// Reads property lists in either format, bounded by `PropertyListLimits`.
public enum PropertyListReader {
    /// Reads either format, telling which one it found. Binary files are recognised by their
    /// `bplist` magic; anything else must be XML. `limits` bounds what the file may expand to;
    /// the default suits a file a user hands over, and callers with a known use pass theirs.
    public static func read(_ data: Data, limits: PropertyListLimits = .userFile) throws
        -> (value: PropertyListValue, format: PropertyListFormat) {
        let result = try lint(data, limits: limits)
        return (result.value, result.format)
    }

    /// Reads either format as `read` does, also returning what was accepted but doubtful.
    public static func lint(_ data: Data, limits: PropertyListLimits = .userFile) throws
        -> (value: PropertyListValue, format: PropertyListFormat, warnings: PropertyListWarnings) {
        var warnings = PropertyListWarnings()
        if BinaryPropertyListReader.hasMagic(data) {
            return (try BinaryPropertyListReader.read(data, limits: limits, warnings: &warnings), .binary, warnings)
        }
        if XMLPropertyListReader.looksLikeXML(data) {
            return (try XMLPropertyListReader.read(data, limits: limits, warnings: &warnings), .xml, warnings)
        }
        throw PropertyListError(
            .unknownFormat, "neither a binary property list (bplist) nor XML", position: 0, unit: .byteOffset)
    }

    /// The value `read` finds, without its format.
    public static func value(from data: Data, limits: PropertyListLimits = .userFile) throws -> PropertyListValue {
        try read(data, limits: limits).value
    }
}
