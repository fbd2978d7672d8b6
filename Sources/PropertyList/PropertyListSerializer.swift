import Foundation

public enum PropertyListSerializer {
    public static func data(from value: PropertyListValue, format: PropertyListFormat) throws -> Data {
        switch format {
        case .xml: try XMLPropertyListWriter.data(from: value)
        case .binary: try BinaryPropertyListWriter.data(from: value)
        }
    }
}
