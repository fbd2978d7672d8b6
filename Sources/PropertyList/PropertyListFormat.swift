import Foundation

public enum PropertyListFormat: Sendable, Equatable {
    case xml
    case binary
}

/// Limits shared by both readers and both writers.
public enum PropertyListLimits {
    /// Arrays and dictionaries nested deeper than this are refused, so hostile input cannot
    /// exhaust the stack of the recursive readers (nor of code that walks the result).
    public static let maxDepth = 512
}

public enum PropertyListSerializer {
    public static func data(from value: PropertyListValue, format: PropertyListFormat) throws -> Data {
        switch format {
        case .xml: try XMLPropertyListWriter.data(from: value)
        case .binary: try BinaryPropertyListWriter.data(from: value)
        }
    }
}

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
