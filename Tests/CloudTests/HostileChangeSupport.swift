@testable import Cloud
import Foundation
import PropertyList

/// Values no honest device writes, as the bytes a hostile or broken one would.
enum HostileValues {
    /// A binary property list of `levels + 1` objects where object k is an array of two
    /// references to object k + 1: a couple of hundred bytes that stand for 2^levels leaves.
    static func sharedReferenceBomb(levels: Int = 40) -> Data {
        var objects: [[UInt8]] = (0 ..< levels).map { index in [0xA2, UInt8(index + 1), UInt8(index + 1)] }
        objects.append([0x10, 0x01])  // the integer 1
        return binaryPropertyList(objects, referenceSize: 1)
    }

    /// A date that is not a number: binary plists can carry it, XML cannot write it.
    static func notANumberDate() -> Data {
        var date: [UInt8] = [0x33]
        withUnsafeBytes(of: Double.nan.bitPattern.bigEndian) { date += $0 }
        return binaryPropertyList([date], referenceSize: 1)
    }

    /// The same bomb built in memory: the parts shared, as a decoded file shares them.
    static func sharedValue(levels: Int = 40) -> PropertyListValue {
        var value = PropertyListValue.integer(1)
        for _ in 0 ..< levels { value = .array([value, value]) }
        return value
    }

    /// `bplist00`, the objects, a one-byte offset table and the trailer.
    private static func binaryPropertyList(_ objects: [[UInt8]], referenceSize: UInt8) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let tableOffset = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, referenceSize]
        for number in [UInt64(objects.count), 0, UInt64(tableOffset)] {
            withUnsafeBytes(of: number.bigEndian) { bytes += $0 }
        }
        return Data(bytes)
    }
}

extension FolderFixture {
    /// A device's copy of a store on this folder, in a data folder of the fixture's own.
    func replicaFile(_ device: DeviceIdentifier) -> LocalReplicaFile {
        LocalReplicaFile(url: root.appendingPathComponent("data-\(device)/synced-store/copy.plist"))
    }

    func store(_ device: DeviceIdentifier, limits: KeyValueStoreLimits = .apple) throws -> UbiquitousKeyValueStore {
        UbiquitousKeyValueStore(.init(backend: try backend(device), replicaFile: replicaFile(device), device: device, limits: limits))
    }

    func append(_ bytes: [UInt8], to name: String) throws {
        let handle = try FileHandle(forWritingTo: cloud.appendingPathComponent(name))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }
}

extension ChangeRecord {
    static func raw(_ key: String, _ payload: Data?, _ milliseconds: UInt64, _ device: DeviceIdentifier) -> ChangeRecord {
        ChangeRecord(key: key, payload: payload, stamp: ChangeStamp(clock: HybridTimestamp(milliseconds: milliseconds, counter: 0), device: device))
    }
}
