import Cloud
import Foundation

/// What a writer tells the fault suite (scripts/faults): a line whenever the store's
/// reachability changes, and every half second anyway,
///   `ms=<unix ms> reachable=<1|0|-> pending=<n> written=<n> max_set_ms=<n>`
/// so the suite can see when the store called the server offline, and that writes kept
/// returning at once meanwhile (`written` grows, `max_set_ms` stays small).
final class StatusLog: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    private var writes = 0
    private var slowestSet = 0.0
    private var running = true

    init(path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    /// Counts one `set` that took `seconds`.
    func wrote(taking seconds: Double) {
        lock.withLock {
            writes += 1
            slowestSet = max(slowestSet, seconds)
        }
    }

    func watch(_ store: UbiquitousKeyValueStore) {
        let thread = Thread { [self] in
            var last: Bool?? = .none
            var lastLine = Date.distantPast
            while lock.withLock({ running }) {
                let status = store.status
                if last != .some(status.isReachable) || Date().timeIntervalSince(lastLine) >= 0.5 {
                    line(status)
                    last = .some(status.isReachable)
                    lastLine = Date()
                }
                usleep(10_000)
            }
        }
        thread.start()
    }

    func finish(_ store: UbiquitousKeyValueStore) {
        lock.withLock { running = false }
        line(store.status, prefix: "done ")
    }

    private func line(_ status: KeyValueStoreStatus, prefix: String = "") {
        let reachable = status.isReachable.map { $0 ? "1" : "0" } ?? "-"
        let text = lock.withLock {
            "\(prefix)ms=\(Int64(Date().timeIntervalSince1970 * 1000)) reachable=\(reachable) pending=\(status.pendingChanges) "
                + "written=\(writes) max_set_ms=\(Int(slowestSet * 1000))\n"
        }
        lock.withLock { handle.write(Data(text.utf8)) }
    }
}
