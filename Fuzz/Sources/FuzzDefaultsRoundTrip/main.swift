import Defaults
import Foundation
import FuzzSupport
import PropertyList

/// Feeds arbitrary bytes to the defaults store as the defaults.plist another tool wrote, then does
/// what a user does next: change one setting and save. Whatever the file held, the save must
/// succeed (one bad value can never make later saves fail), the original bytes must still be on
/// disk (in place or moved aside, never lost), and a second store must read back the new setting
/// and every value the first store kept.
let folder = URL(fileURLWithPath: "/dev/shm/wonderland-fuzz-defaults-\(getpid())")
let file = folder.appendingPathComponent("defaults.plist")

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let input = Data(bytes: bytes, count: count)
    let options = DefaultsStore.Options(watchesForChanges: false)
    try? FileManager.default.removeItem(at: folder)
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try! input.write(to: file)

    let store = DefaultsStore(fileURL: file, options: options)
    let loaded = store.persistentDomain
    let complained = !store.takeStartupWarnings().isEmpty
    store.set(.string("saved"), forKey: "WLFuzzProbe")
    do { try store.flush() } catch { preconditionFailure("a save after loading failed: \(error)") }

    // A file the store complained about (unreadable, or a value it left out) must still be on
    // disk byte for byte, moved aside, since the save above replaced defaults.plist.
    if complained && !input.isEmpty {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let keptAside = names.contains { name in
            name != "defaults.plist" && name.hasPrefix("defaults.plist.")
                && FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) == input
        }
        precondition(keptAside, "the store complained about the file but did not keep its bytes aside")
    }

    let again = DefaultsStore(fileURL: file, options: options)
    precondition(again.object(forKey: "WLFuzzProbe") == .string("saved"), "the new setting did not survive")
    for (key, value) in loaded where key != "WLFuzzProbe" {
        guard let reread = again.persistentDomain[key] else { preconditionFailure("key \(key) was lost") }
        // defaults.plist is XML, which holds dates to the second: compare with what XML keeps.
        guard let xml = try? PropertyListSerializer.data(from: value, format: .xml),
              let expected = try? XMLPropertyListReader.read(xml) else {
            preconditionFailure("key \(key) was kept but cannot be written as XML")
        }
        precondition(RoundTrip.identical(expected, reread), "key \(key) changed")
    }
    return 0
}

exit(runLibFuzzer(testOneInput))
