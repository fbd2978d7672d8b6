import Foundation

/// Builds `bplist00` files object by object, for shapes our writer never produces (shared
/// containers, NaN dates): each object is given as its raw bytes, with references of
/// `referenceSize` bytes (two for files of more than 255 objects).
public enum CraftedBinary {
    public static func file(_ objects: [[UInt8]], referenceSize: UInt8 = 1, top: UInt64 = 0) -> Data {
        var file = Array("bplist00".utf8)
        var offsets: [UInt64] = []
        for object in objects {
            offsets.append(UInt64(file.count))
            file += object
        }
        let table = file.count
        let offsetSize = table <= 0xFF ? 1 : table <= 0xFFFF ? 2 : 4
        for offset in offsets { file += bigEndian(offset, size: offsetSize) }
        file += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), referenceSize]
        for field in [UInt64(objects.count), top, UInt64(table)] { file += bigEndian(field, size: 8) }
        return Data(file)
    }

    /// `levels` arrays, each holding two references to the next, then `true`: a file of a few
    /// hundred bytes whose value, walked as a tree, has 2^(levels+1) - 1 nodes.
    public static func sharedReferenceBomb(levels: Int) -> Data {
        var objects: [[UInt8]] = (0..<levels).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x09])
        return file(objects)
    }

    /// A date object (0x33) holding `seconds` since 2001, inside a one-element array.
    public static func date(_ seconds: Double) -> Data {
        file([[0xA1, 1], [0x33] + bigEndian(seconds.bitPattern, size: 8)])
    }

    public static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
