import Cloud
import Foundation
import PropertyList
#if canImport(Glibc)
import Glibc
#endif

// One device of the convergence test (scripts/cloud-convergence), through the real store on the
// folder backend:
//
//   cloud-hammer write DATA CLOUD DEVICE SEED KEYS WRITES
//       writes WRITES random values (strings, integers, now and then a removal) to random keys
//       k0 ..< kKEYS while the store's worker syncs, then sends everything still queued. The
//       wall clock is moved by WONDERLAND_CLOCK_SKEW_MS milliseconds (machines that disagree).
//   cloud-hammer dump DATA CLOUD DEVICE
//       syncs once and prints the merged state, key → value, as JSON with sorted keys.
//
// Exits 2 on bad arguments, 3 when the folder cannot be reached or a write is never sent.

func fail(_ message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("cloud-hammer: \(message)\n".utf8))
    exit(code)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first, ["write", "dump"].contains(mode), arguments.count >= 4 else {
    fail("usage: cloud-hammer write DATA CLOUD DEVICE SEED KEYS WRITES | cloud-hammer dump DATA CLOUD DEVICE")
}
let dataFolder = URL(fileURLWithPath: arguments[1])
let cloudFolder = URL(fileURLWithPath: arguments[2])
guard let device = DeviceIdentifier(arguments[3]) else { fail("a device is 1–64 characters of 0-9, a-z and -: \(arguments[3])") }
let skew = Int64(ProcessInfo.processInfo.environment["WONDERLAND_CLOCK_SKEW_MS"] ?? "0") ?? 0

func makeStore() -> UbiquitousKeyValueStore {
    do {
        try FileManager.default.createDirectory(at: dataFolder, withIntermediateDirectories: true)
        let backend = try FolderBackend(folder: cloudFolder, device: device, options: .init(pollInterval: 0.1))
        return UbiquitousKeyValueStore(.init(backend: backend, replicaFile: LocalReplicaFolder.standard(dataFolder: dataFolder).replicaFile(forBackend: backend.displayName), device: device,
                                             wallMilliseconds: HybridLogicalClock.skewedSystemMilliseconds(by: skew), pollInterval: 0.1))
    } catch {
        fail("\(error)", code: 3)
    }
}


func json(_ value: PropertyListValue) -> Any {
    switch value {
    case .string(let string): string
    case .integer(let integer): integer
    case .real(let real): real
    case .boolean(let boolean): boolean
    case .date(let date): date.timeIntervalSince1970
    case .data(let data): data.base64EncodedString()
    case .array(let array): array.map(json)
    case .dictionary(let dictionary): dictionary.mapValues(json)
    case .uid(let uid): uid
    }
}

switch mode {
case "write":
    guard arguments.count == 7, let seed = UInt64(arguments[4]), let keys = Int(arguments[5]), keys > 0,
          let writes = Int(arguments[6]), writes >= 0 else { fail("write needs DATA CLOUD DEVICE SEED KEYS WRITES") }
    var generator = SeededRandomNumberGenerator(seed: seed)
    let store = makeStore()
    store.start()
    for index in 0 ..< writes {
        let key = "k\(Int.random(in: 0 ..< keys, using: &generator))"
        let value: PropertyListValue? = switch Int.random(in: 0 ..< 10, using: &generator) {
        case 0: nil
        case 1 ... 4: .integer(Int64.random(in: -1_000_000 ... 1_000_000, using: &generator))
        default: .string("\(device)#\(index)")
        }
        store.set(value, forKey: key)
        // Writers interleave with each other's syncs, as people do.
        if Int.random(in: 0 ..< 4, using: &generator) == 0 { usleep(UInt32.random(in: 0 ..< 3000, using: &generator)) }
    }
    store.stop(timeout: 10)
    // Everything must reach the folder before this writer counts as done.
    var attempts = 0
    while !(store.synchronize() && store.status.pendingChanges == 0) {
        attempts += 1
        if attempts > 200 { fail("\(store.status.pendingChanges) changes never reached \(cloudFolder.path)", code: 3) }
        usleep(50_000)
    }
case "dump":
    let store = makeStore()
    guard store.synchronize() else { fail("cannot reach \(cloudFolder.path): \(store.status.problem ?? "?")", code: 3) }
    let state = store.dictionaryRepresentation.mapValues(json)
    let data = try! JSONSerialization.data(withJSONObject: state, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
default:
    fail("unknown mode \(mode)")
}
