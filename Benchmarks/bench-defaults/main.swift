import Defaults
import Foundation
import PropertyList
#if canImport(Glibc)
import Glibc
#endif

// Benchmarks for the defaults store, spawning copies of itself as the other processes.
//
//   bench-defaults stress [PROCESSES] [WRITES]   PROCESSES writers × WRITES distinct keys at once,
//                                                each write flushed; counts lost keys. Runs ours
//                                                (lock + per-key merge) and a naive peer (read,
//                                                modify, atomic rename, no lock) on the same load.
//   bench-defaults propagation [WRITES]          delay from one process's flush to another's
//                                                did-change notification, with inotify and with
//                                                the polling fallback (loop waking every 250 ms).
// Internal modes: writer, naive-writer, listener.

let arguments = Array(CommandLine.arguments.dropFirst())
let me = URL(fileURLWithPath: CommandLine.arguments[0]).path

func scratchFolder(_ name: String) -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-defaults-\(name)-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

func spawn(_ arguments: [String], output: Pipe? = nil) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: me)
    process.arguments = arguments
    if let output { process.standardOutput = output }
    try process.run()
    return process
}

func storeOptions(inotify: Bool = true) -> DefaultsStore.Options {
    .init(watchesForChanges: inotify, usesInotify: inotify)
}

// MARK: Stress

func runWriter(file: String, index: Int, count: Int) throws {
    let store = DefaultsStore(fileURL: URL(fileURLWithPath: file), options: .init(watchesForChanges: false))
    for step in 0 ..< count {
        store.set(.integer(Int64(step)), forKey: "p\(index)-k\(step)")
        try store.flush()
    }
}

/// The peer: what a program without the lock does; read, add the key, write a temporary file and
/// rename it over the old one (atomic, but without fsync and without merging).
func runNaiveWriter(file: String, index: Int, count: Int) throws {
    let url = URL(fileURLWithPath: file)
    for step in 0 ..< count {
        var values: [String: PropertyListValue] = [:]
        if let data = try? Data(contentsOf: url), case .dictionary(let read)? = try? PropertyListReader.value(from: data) {
            values = read
        }
        values["p\(index)-k\(step)"] = .integer(Int64(step))
        try PropertyListSerializer.data(from: .dictionary(values), format: .xml).write(to: url, options: .atomic)
    }
}

/// Foundation's UserDefaults (swift-corelibs-foundation) on a suite, synchronize() after each
/// write; the suite's file lives under the XDG_CONFIG_HOME the parent sets.
func runFoundationWriter(index: Int, count: Int) {
    let defaults = UserDefaults(suiteName: "bench-defaults")!
    for step in 0 ..< count {
        defaults.set(step, forKey: "p\(index)-k\(step)")
        defaults.synchronize()
    }
}

func stress(processes: Int, writes: Int, mode: String) throws -> (lost: Int, seconds: Double) {
    let folder = scratchFolder(mode)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("defaults.plist")
    setenv("XDG_CONFIG_HOME", folder.path, 1)
    let start = DefaultsStore.monotonicNow()
    let children = try (0 ..< processes).map { try spawn([mode, file.path, String($0), String(writes)]) }
    for child in children { child.waitUntilExit() }
    let seconds = DefaultsStore.monotonicNow() - start
    var values: [String: PropertyListValue] = [:]
    if mode == "foundation-writer" {
        let output = Pipe()
        let counter = try spawn(["foundation-count"], output: output)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        counter.waitUntilExit()
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let number = Int64(parts[1]) { values[String(parts[0])] = .integer(number) }
        }
    } else if case .dictionary(let read)? = try? PropertyListReader.value(from: Data(contentsOf: file)) {
        values = read
    }
    var lost = 0
    for index in 0 ..< processes {
        for step in 0 ..< writes where values["p\(index)-k\(step)"] != .integer(Int64(step)) { lost += 1 }
    }
    return (lost, seconds)
}

// MARK: Propagation

/// Prints "ready", then one delay in seconds per notification of key "stamp", until `count`.
func runListener(file: String, count: Int, inotify: Bool) {
    let store = DefaultsStore(fileURL: URL(fileURLWithPath: file), options: storeOptions(inotify: inotify))
    var delays: [Double] = []
    let token = store.addChangeObserver { keys in
        guard keys.contains("stamp"), case .real(let written)? = store.object(forKey: "stamp") else { return }
        delays.append(DefaultsStore.monotonicNow() - written)
    }
    print("ready")
    fflush(nil)
    while delays.count < count {
        if let descriptor = store.wakeupFileDescriptor {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 250)
        } else {
            usleep(250_000)  // the app's loop wakes at least this often
        }
        store.processExternalChanges()
    }
    for delay in delays { print(delay) }
    fflush(nil)
    withExtendedLifetime(token) {}
}

func propagation(writes: Int, inotify: Bool) throws -> (delays: [Double], flushes: [Double]) {
    let folder = scratchFolder("propagation")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("defaults.plist")
    let writer = DefaultsStore(fileURL: file, options: .init(watchesForChanges: false))
    writer.set(.integer(0), forKey: "warm-up")
    try writer.flush()
    let output = Pipe()
    let listener = try spawn(["listener", file.path, String(writes), inotify ? "inotify" : "poll"], output: output)
    let reader = output.fileHandleForReading
    var ready = Data()
    while !String(decoding: ready, as: UTF8.self).contains("ready\n") {
        let chunk = reader.availableData
        if chunk.isEmpty { break }
        ready.append(chunk)
    }
    var flushes: [Double] = []
    for _ in 0 ..< writes {
        let start = DefaultsStore.monotonicNow()
        writer.set(.real(start), forKey: "stamp")
        try writer.flush()
        flushes.append(DefaultsStore.monotonicNow() - start)
        // Far enough apart that each write is noticed on its own (the polling loop needs 250 ms).
        usleep(inotify ? 20_000 : 300_000)
    }
    let text = String(decoding: ready + reader.readDataToEndOfFile(), as: UTF8.self)
    listener.waitUntilExit()
    return (text.split(separator: "\n").dropFirst().compactMap { Double($0) }.sorted(), flushes.sorted())
}

func milliseconds(_ seconds: Double) -> String { String(format: "%.2f", seconds * 1000) }

switch arguments.first {
case "writer"?:
    try runWriter(file: arguments[1], index: Int(arguments[2])!, count: Int(arguments[3])!)
case "naive-writer"?:
    try runNaiveWriter(file: arguments[1], index: Int(arguments[2])!, count: Int(arguments[3])!)
case "foundation-writer"?:
    runFoundationWriter(index: Int(arguments[2])!, count: Int(arguments[3])!)
case "foundation-count"?:
    for (key, value) in UserDefaults(suiteName: "bench-defaults")!.dictionaryRepresentation() where key.hasPrefix("p") {
        if let number = value as? Int { print(key, number) }
    }
case "listener"?:
    runListener(file: arguments[1], count: Int(arguments[2])!, inotify: arguments[3] == "inotify")
case "stress"?:
    let processes = arguments.count > 1 ? Int(arguments[1])! : 8
    let writes = arguments.count > 2 ? Int(arguments[2])! : 500
    let total = processes * writes
    let ours = try stress(processes: processes, writes: writes, mode: "writer")
    let naive = try stress(processes: processes, writes: writes, mode: "naive-writer")
    let foundation = try stress(processes: processes, writes: writes, mode: "foundation-writer")
    print("stress: \(processes) processes × \(writes) writes = \(total) keys, each write flushed")
    print("| writer | lost keys | time (s) | writes/s |")
    print("| --- | ---: | ---: | ---: |")
    for (name, result) in [("DefaultsStore (flock + per-key merge, fsync)", ours), ("naive read-modify-rename, no lock, no fsync", naive), ("Foundation UserDefaults, synchronize() per write", foundation)] {
        print("| \(name) | \(result.lost) of \(total) | \(String(format: "%.2f", result.seconds)) | \(Int(Double(total) / result.seconds)) |")
    }
    print("lost keys: \(ours.lost)")
    if ours.lost != 0 { exit(1) }
case "propagation"?:
    let writes = arguments.count > 1 ? Int(arguments[1])! : 200
    print("propagation: \(writes) writes (inotify), \(writes / 4) writes (polling); delay from set+flush to the other process's notification")
    print("| watcher | writes noticed | median (ms) | max (ms) | writer's flush, median (ms) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for (name, inotify, count) in [("inotify (loop polls the fd)", true, writes), ("polling fallback (loop wakes every 250 ms)", false, writes / 4)] {
        let (delays, flushes) = try propagation(writes: count, inotify: inotify)
        let median = delays.isEmpty ? .nan : delays[delays.count / 2]
        let flush = flushes.isEmpty ? .nan : flushes[flushes.count / 2]
        print("| \(name) | \(delays.count) of \(count) | \(milliseconds(median)) | \(milliseconds(delays.last ?? .nan)) | \(milliseconds(flush)) |")
    }
default:
    FileHandle.standardError.write(Data("usage: bench-defaults stress [PROCESSES] [WRITES] | propagation [WRITES]\n".utf8))
    exit(2)
}
