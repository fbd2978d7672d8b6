import Cloud
import CloudPostgres
import CloudServer
import Foundation
import PropertyList
#if canImport(Glibc)
import Glibc
#endif

// One device of the convergence test (scripts/cloud-convergence), through the real store on the
// folder backend or, when CLOUD is a postgres:// address, on the server backend (the password
// as the app finds it: PGPASSWORD, PGPASSFILE or ~/.pgpass):
//
//   cloud-hammer write DATA CLOUD DEVICE SEED KEYS WRITES
//       writes WRITES random values (strings, integers, now and then a removal) to random keys
//       k0 ..< kKEYS while the store's worker syncs, then sends everything still queued. The
//       wall clock is moved by WONDERLAND_CLOCK_SKEW_MS milliseconds (machines that disagree).
//   cloud-hammer dump DATA CLOUD DEVICE
//       syncs once and prints the merged state, key → value, as JSON with sorted keys.
//   cloud-hammer propagate WORK CLOUD N
//       the delay from a write in one store to its arrival in another (Propagation.swift).
//   cloud-hammer crowd WORK CLOUD DEVICES WRITES
//       DEVICES stores, each with its own sync helper, on one server: how many get in, and the
//       delay from one writer's writes to their arrival in each of them (Crowd.swift).
//
// Options of `write`, by environment:
//   WONDERLAND_HAMMER_JOURNAL=FILE  appends every change record the store made (Journal.swift)
//   WONDERLAND_HAMMER_STATUS=FILE   reachability and write counts as they go (StatusLog.swift)
//   WONDERLAND_HAMMER_PACE_MS=N     N ms between writes instead of the random interleaving
//   WONDERLAND_HAMMER_SYNC_EACH=1   no worker: every write is sent (synchronize) before the next,
//                                   and `writes N start_ms A end_ms B` is printed (throughput)
//
// Exits 2 on bad arguments, 3 when the folder or server cannot be reached or a write is never sent.

func fail(_ message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("cloud-hammer: \(message)\n".utf8))
    exit(code)
}

let environment = ProcessInfo.processInfo.environment
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: cloud-hammer write DATA CLOUD DEVICE SEED KEYS WRITES | cloud-hammer dump DATA CLOUD DEVICE | cloud-hammer propagate WORK CLOUD N | cloud-hammer crowd WORK CLOUD DEVICES WRITES"
guard let mode = arguments.first, ["write", "dump", "propagate", "crowd"].contains(mode), arguments.count >= 4 else { fail(usage) }
let cloud = arguments[2]
let onServer = PostgresSyncAddress.looksLikeAddress(cloud)
/// For messages: a server address without any password written into it.
let cloudName = onServer ? ((try? PostgresSyncAddress(parsing: cloud))?.description ?? "the server") : URL(fileURLWithPath: cloud).path

/// The folder backend polls every 0.1 s here (the app: 0.5 s); the server backend as the app has it.
func makeBackend(_ cloud: String, device: DeviceIdentifier, folderPollInterval: Double = 0.1) throws -> KeyValueBackend {
    if PostgresSyncAddress.looksLikeAddress(cloud) {
        let address = try PostgresSyncAddress(parsing: cloud)
        let password = PostgresPassword.lookup(for: address, environment: environment)
        return PostgresBackend(address: address, password: password.password, device: device)
    }
    // The folder is made as `wonderland cloud init` would: the backend never makes it.
    try FolderBackend.createFolder(URL(fileURLWithPath: cloud))
    return try FolderBackend(folder: URL(fileURLWithPath: cloud), device: device, options: .init(pollInterval: folderPollInterval))
}

if mode == "propagate" {
    guard arguments.count == 4, let writes = Int(arguments[3]), writes > 0 else { fail("propagate needs WORK CLOUD N") }
    do {
        try measurePropagation(work: URL(fileURLWithPath: arguments[1]), cloud: cloud, writes: writes) { cloud, device in
            try makeBackend(cloud, device: device, folderPollInterval: 0.5)
        }
    } catch {
        fail("\(error)", code: 3)
    }
    exit(0)
}

if mode == "crowd" {
    guard arguments.count == 5, let devices = Int(arguments[3]), devices > 0, let writes = Int(arguments[4]), writes > 0,
          onServer else { fail("crowd needs WORK CLOUD DEVICES WRITES, CLOUD a postgres:// address") }
    do {
        try runCrowd(work: URL(fileURLWithPath: arguments[1]), cloud: cloud, devices: devices, writes: writes, environment: environment)
    } catch {
        fail("\(error)", code: 3)
    }
    exit(0)
}

let dataFolder = URL(fileURLWithPath: arguments[1])
guard let device = DeviceIdentifier(arguments[3]) else { fail("a device is 1–64 characters of 0-9, a-z and -: \(arguments[3])") }
let skew = Int64(environment["WONDERLAND_CLOCK_SKEW_MS"] ?? "0") ?? 0
let journal: Journal? = environment["WONDERLAND_HAMMER_JOURNAL"].map { path in
    do { return try Journal(path: path) } catch { fail("cannot write the journal \(path): \(error)") }
}

func makeStore() -> UbiquitousKeyValueStore {
    do {
        try FileManager.default.createDirectory(at: dataFolder, withIntermediateDirectories: true)
        var backend = try makeBackend(cloud, device: device)
        if let journal { backend = JournalingBackend(backend, journal: journal) }
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
    case .unsignedInteger(let integer): integer
    case .real(let real): real
    case .boolean(let boolean): boolean
    case .date(let date): date.timeIntervalSince1970
    case .data(let data): data.base64EncodedString()
    case .array(let array): array.map(json)
    case .dictionary(let dictionary): dictionary.mapValues(json)
    case .uid(let uid): uid
    }
}

func unixMilliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

switch mode {
case "write":
    guard arguments.count == 7, let seed = UInt64(arguments[4]), let keys = Int(arguments[5]), keys > 0,
          let writes = Int(arguments[6]), writes >= 0 else { fail("write needs DATA CLOUD DEVICE SEED KEYS WRITES") }
    let pace = environment["WONDERLAND_HAMMER_PACE_MS"].flatMap { UInt32($0) }
    let syncEach = environment["WONDERLAND_HAMMER_SYNC_EACH"] == "1"
    var generator = SeededRandomNumberGenerator(seed: seed)
    let store = makeStore()
    let statusLog: StatusLog? = environment["WONDERLAND_HAMMER_STATUS"].map { path in
        do { return try StatusLog(path: path) } catch { fail("cannot write the status file \(path): \(error)") }
    }
    statusLog?.watch(store)
    if !syncEach { store.start() }
    // A server being restarted needs its reconnection back-off on top of the folder's wait.
    let attemptsToSend = onServer ? 1200 : 200
    let started = unixMilliseconds()
    for index in 0 ..< writes {
        let key = "k\(Int.random(in: 0 ..< keys, using: &generator))"
        let value: PropertyListValue? = switch Int.random(in: 0 ..< 10, using: &generator) {
        case 0: nil
        case 1 ... 4: .integer(Int64.random(in: -1_000_000 ... 1_000_000, using: &generator))
        default: .string("\(device)#\(index)")
        }
        let before = DispatchTime.now()
        store.set(value, forKey: key)
        statusLog?.wrote(taking: Double(DispatchTime.now().uptimeNanoseconds - before.uptimeNanoseconds) / 1e9)
        // The record this write made (unless another device's newer one already replaced it,
        // which then wins in any merge anyway).
        if let journal, let record = store.record(forKey: key), record.stamp.device == device { journal.record(record) }
        if syncEach {
            var attempts = 0
            while !store.synchronize() {
                attempts += 1
                if attempts > attemptsToSend { fail("write \(index) never reached \(cloudName): \(store.status.problem ?? "?")", code: 3) }
                usleep(50_000)
            }
        } else if let pace {
            usleep(pace * 1000)
        } else if Int.random(in: 0 ..< 4, using: &generator) == 0 {
            // Writers interleave with each other's syncs, as people do.
            usleep(UInt32.random(in: 0 ..< 3000, using: &generator))
        }
    }
    if syncEach { print("writes \(writes) start_ms \(started) end_ms \(unixMilliseconds())") }
    store.stop(timeout: 10)
    // Everything must reach the folder (or server) before this writer counts as done.
    var attempts = 0
    while !(store.synchronize() && store.status.pendingChanges == 0) {
        attempts += 1
        if attempts > attemptsToSend { fail("\(store.status.pendingChanges) changes never reached \(cloudName)", code: 3) }
        usleep(50_000)
    }
    statusLog?.finish(store)
case "dump":
    let store = makeStore()
    guard store.synchronize() else { fail("cannot reach \(cloudName): \(store.status.problem ?? "?")", code: 3) }
    let state = store.dictionaryRepresentation.mapValues(json)
    let data = try! JSONSerialization.data(withJSONObject: state, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
default:
    fail("unknown mode \(mode)")
}
