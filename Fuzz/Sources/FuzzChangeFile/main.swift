import Cloud
import Foundation
import FuzzSupport
import PropertyList

/// Feeds arbitrary bytes to the synced store as another device's change file in the sync folder,
/// then does what the app does: apply it, read every value, write its own change and read it
/// back through a second store. Nothing a peer sends may trap, hang, or stop this device from
/// syncing its own changes; every value the store hands out must be one a property-list writer
/// can write (what the app then saves into its own files).
let folder = URL(fileURLWithPath: "/dev/shm/wonderland-fuzz-cloud-\(getpid())")
let peer = DeviceIdentifier("fuzzpeer")!
let device = DeviceIdentifier("fuzzself")!
let other = DeviceIdentifier("fuzzother")!

func store(_ device: DeviceIdentifier, replica: String) -> UbiquitousKeyValueStore {
    try! FolderBackend.createFolder(folder.appendingPathComponent("sync"))
    let backend = try! FolderBackend(folder: folder.appendingPathComponent("sync"), device: device,
                                     options: .init(usesInotify: false))
    let replicaFile = LocalReplicaFile(url: folder.appendingPathComponent(replica))
    return UbiquitousKeyValueStore(.init(backend: backend, replicaFile: replicaFile, device: device))
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    try? FileManager.default.removeItem(at: folder)
    let sync = folder.appendingPathComponent("sync")
    try! FileManager.default.createDirectory(at: sync, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try! Data(bytes: bytes, count: count).write(to: sync.appendingPathComponent("\(peer.rawValue).1.wlkv"))

    let local = store(device, replica: "self.plist")
    _ = local.synchronize()
    _ = local.processExternalChanges()
    for (key, value) in local.dictionaryRepresentation {
        do { _ = try PropertyListSerializer.data(from: value, format: .xml) } catch {
            preconditionFailure("the store handed out \(key), a value no writer can save: \(error)")
        }
    }
    _ = local.status
    _ = local.takeWarnings()
    local.set(.string("mine"), forKey: "WLFuzzProbe")
    precondition(local.synchronize(), "this device could not sync its own change after a peer's file")

    let reader = store(other, replica: "other.plist")
    _ = reader.synchronize()
    _ = reader.processExternalChanges()
    precondition(reader.object(forKey: "WLFuzzProbe") == .string("mine"), "this device's change did not reach another")
    return 0
}

exit(runLibFuzzer(testOneInput))
