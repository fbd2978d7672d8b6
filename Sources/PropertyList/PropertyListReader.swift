import Foundation

public enum PropertyListReader {
    /// Reads either format, telling which one it found. Binary files are recognised by their
    /// `bplist` magic; anything else must be XML. `limits` bounds what the file may expand to;
    /// the default suits a file a user hands over, and callers with a known use pass theirs.
    public static func read(_ data: Data, limits: PropertyListLimits = .userFile) throws
        -> (value: PropertyListValue, format: PropertyListFormat) {
        if BinaryPropertyListReader.hasMagic(data) {
            return (try BinaryPropertyListReader.read(data, limits: limits), .binary)
        }
        if XMLPropertyListReader.looksLikeXML(data) {
            return (try XMLPropertyListReader.read(data, limits: limits), .xml)
        }
        throw PropertyListError(
            .unknownFormat, "neither a binary property list (bplist) nor XML", position: 0, unit: .byteOffset)
    }

    public static func value(from data: Data, limits: PropertyListLimits = .userFile) throws -> PropertyListValue {
        try read(data, limits: limits).value
    }
}
