import Foundation

public enum PropertyListReader {
    /// Reads either format, telling which one it found. Binary files are recognised by their
    /// `bplist` magic; anything else must be XML.
    public static func read(_ data: Data) throws -> (value: PropertyListValue, format: PropertyListFormat) {
        if BinaryPropertyListReader.hasMagic(data) {
            return (try BinaryPropertyListReader.read(data), .binary)
        }
        if XMLPropertyListReader.looksLikeXML(data) {
            return (try XMLPropertyListReader.read(data), .xml)
        }
        throw PropertyListError(
            .unknownFormat, "neither a binary property list (bplist) nor XML", position: 0, unit: .byteOffset)
    }

    public static func value(from data: Data) throws -> PropertyListValue {
        try read(data).value
    }
}
