import Cloud
import Foundation
import PropertyList

/// `cloud-hammer propagate WORK CLOUD N`: two stores (devices probe-a and probe-b, each with its
/// own backend connection and data folder under WORK, the app's 0.5 s poll interval) on the same
/// folder or server. Store a writes a new value; the time until store b holds it (b's worker
/// woken by the backend, fetching, merging, calling its news hook) is one delay. Two warm-up
/// writes, then N measured ones 0.2 s apart; prints `delay_ms X` per write.
func measurePropagation(work: URL, cloud: String, writes: Int, makeBackend: (String, DeviceIdentifier) throws -> KeyValueBackend) throws {
    let news = DispatchSemaphore(value: 0)
    func store(_ name: String, onNews: @escaping @Sendable () -> Void) throws -> UbiquitousKeyValueStore {
        let device = DeviceIdentifier(name)!
        let data = work.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let backend = try makeBackend(cloud, device)
        return UbiquitousKeyValueStore(.init(backend: backend, replicaFile: LocalReplicaFolder.standard(dataFolder: data).replicaFile(forBackend: backend.displayName),
                                             device: device, pollInterval: 0.5, onNews: onNews))
    }
    let writer = try store("probe-a") {}
    let reader = try store("probe-b") { news.signal() }
    writer.start()
    reader.start()
    defer {
        writer.stop(timeout: 5)
        reader.stop(timeout: 5)
    }
    for index in 0 ..< writes + 2 {
        let expected = PropertyListValue.string("probe \(index) \(UUID().uuidString)")
        let start = DispatchTime.now()
        writer.set(expected, forKey: "probe")
        let deadline = Date(timeIntervalSinceNow: 10)
        while reader.object(forKey: "probe") != expected {
            if Date() > deadline {
                throw BackendUnavailable(reason: "write \(index) never reached the other store (writer: \(writer.status), reader: \(reader.status))")
            }
            _ = news.wait(timeout: .now() + .milliseconds(20))
            reader.processExternalChanges()
        }
        let delay = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        if index >= 2 { print(String(format: "delay_ms %.2f", delay)) }
        usleep(200_000)
    }
}
