import Cloud
import Foundation
import PropertyList

// Merge time for the synced store's folder (scripts/bench-cloud-merge):
//
//   bench-cloud-merge generate FOLDER RECORDS DEVICES KEYS
//       writes RECORDS change records, spread evenly over DEVICES devices, to KEYS keys, through
//       FolderBackend.append in batches of 100 (no compaction), with skewed, colliding clocks.
//   bench-cloud-merge measure FOLDER RUNS STATE_JSON
//       RUNS times: a new backend's first fetchChanges (every file read, every frame checked)
//       and the last-writer-wins merge; prints the median and all timings in milliseconds and
//       writes the merged state (key → base64 of the value's binary plist) to STATE_JSON for comparison with the reference.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-cloud-merge: \(message)\n".utf8))
    exit(2)
}


let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "generate":
    guard arguments.count == 5, let records = Int(arguments[2]), let devices = Int(arguments[3]), let keys = Int(arguments[4]),
          devices > 0, keys > 0 else { fail("generate FOLDER RECORDS DEVICES KEYS") }
    let folder = URL(fileURLWithPath: arguments[1])
    try FolderBackend.createFolder(folder)
    var generator = SeededRandomNumberGenerator(seed: 2026)
    let base: UInt64 = 1_795_000_000_000
    for index in 0 ..< devices {
        let device = DeviceIdentifier(String(format: "%016llx", UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15))!
        let backend = try FolderBackend(folder: folder, device: device)
        // Each device's clock runs up to an hour off; readings collide across devices.
        let skew = UInt64.random(in: 0 ... 3_600_000, using: &generator)
        var batch: [ChangeRecord] = []
        for step in 0 ..< records / devices {
            let key = "position.\(String(Int.random(in: 0 ..< keys, using: &generator) * 7919, radix: 16))"
            let value: PropertyListValue? = switch Int.random(in: 0 ..< 20, using: &generator) {
            case 0: nil
            case 1 ... 9: .dictionary(["chapter": .integer(Int64.random(in: 0 ..< 60, using: &generator)),
                                       "offset": .integer(Int64.random(in: 0 ..< 200_000, using: &generator))])
            case 10 ... 14: .dictionary(["latitude": .real(Double.random(in: -90 ... 90, using: &generator)),
                                         "longitude": .real(Double.random(in: -180 ... 180, using: &generator)),
                                         "title": .string("a pin \(step)")])
            default: .string("value \(index).\(step)")
            }
            let clock = HybridTimestamp(milliseconds: base + skew + UInt64(step) * 3, counter: UInt16.random(in: 0 ..< 2, using: &generator))
            batch.append(try ChangeRecord(key: key, value: value, stamp: ChangeStamp(clock: clock, device: device)))
            if batch.count == 100 {
                try backend.append(batch)
                batch.removeAll()
            }
        }
        try backend.append(batch)
    }
case "measure":
    guard arguments.count == 4, let runs = Int(arguments[2]), runs > 0 else { fail("measure FOLDER RUNS STATE_JSON") }
    let folder = URL(fileURLWithPath: arguments[1])
    var timings: [Double] = []
    var merged = MergedChanges()
    var recordCount = 0
    for _ in 0 ..< runs {
        let start = DispatchTime.now().uptimeNanoseconds
        let backend = try FolderBackend(folder: folder, device: DeviceIdentifier("reader")!)
        let records = try backend.fetchChanges()
        merged = MergedChanges(records)
        timings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        recordCount = records.count
    }
    // Payload bytes, not decoded values: the comparison with the reference is then exact.
    var state: [String: Any] = [:]
    for (key, record) in merged.latest {
        if let payload = record.payload { state[key] = payload.base64EncodedString() }
    }
    try JSONSerialization.data(withJSONObject: state, options: [.sortedKeys]).write(to: URL(fileURLWithPath: arguments[3]))
    let sorted = timings.sorted()
    print("records \(recordCount)")
    print("keys \(merged.latest.count)")
    print("median_ms \(String(format: "%.1f", sorted[sorted.count / 2]))")
    print("runs_ms \(timings.map { String(format: "%.1f", $0) }.joined(separator: " "))")
default:
    fail("usage: bench-cloud-merge generate FOLDER RECORDS DEVICES KEYS | measure FOLDER RUNS STATE_JSON")
}
