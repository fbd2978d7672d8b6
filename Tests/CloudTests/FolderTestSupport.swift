@testable import Cloud
import Foundation
import PropertyList
#if canImport(Glibc)
import Glibc
#endif

/// A fresh folder under the system's temporary folder, removed when the test is done with it.
final class FolderFixture {
    let root: URL
    let cloud: URL

    init() {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("wonderland-folder-\(UUID().uuidString)")
        cloud = root.appendingPathComponent("cloud")
        try! FolderBackend.createFolder(cloud)  // the backend never makes it; the user does
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func backend(_ device: DeviceIdentifier, inotify: Bool = true, pollInterval: Double = 0.05) throws -> FolderBackend {
        try FolderBackend(folder: cloud, device: device, options: .init(pollInterval: pollInterval, usesInotify: inotify))
    }

    var changeFileNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cloud.path)) ?? []).filter { $0.hasSuffix(".wlkv") }.sorted()
    }

    func bytes(of name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: cloud.appendingPathComponent(name)))
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: cloud.appendingPathComponent(name))
    }
}

enum FolderTestData {
    static let deviceA = DeviceIdentifier("aaaa")!
    static let deviceB = DeviceIdentifier("bbbb")!
    static let deviceC = DeviceIdentifier("cccc")!

    static func record(_ key: String, _ value: String?, _ ms: UInt64, _ device: DeviceIdentifier, counter: UInt16 = 0) -> ChangeRecord {
        try! ChangeRecord(key: key, value: value.map { .string($0) }, stamp: ChangeStamp(clock: HybridTimestamp(milliseconds: ms, counter: counter), device: device))
    }

    /// Values as strings per key (removals left out), for comparing merged states.
    static func values(_ merged: MergedChanges) -> [String: String] {
        var values: [String: String] = [:]
        for (key, record) in merged.latest {
            if case .string(let string)? = try? record.value() { values[key] = string }
        }
        return values
    }

    /// Waits (bounded) until `condition` holds: for results of real threads or processes.
    static func eventually(within seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(5_000)
        }
        return condition()
    }
}

/// A flag set by a background thread and read by the test.
final class FolderFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false
    func raise() { lock.withLock { set = true } }
    var isRaised: Bool { lock.withLock { set } }
}
