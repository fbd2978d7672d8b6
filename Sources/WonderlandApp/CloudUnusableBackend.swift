import Cloud
import FoundationEssentials
import Platform

/// The backend of a server address that cannot be used (a typo in the setting): never
/// reachable, always with the reason, so the store works on this machine's copy, the status
/// says "offline: <why>", and nothing is lost until the address is put right.
final class CloudUnusableBackend: KeyValueBackend, @unchecked Sendable {
    let displayName = "server (unusable address)"
    let reason: String
    private let condition = Condition()
    private var woken = false

    init(reason: String) { self.reason = reason }

    func append(_ records: [ChangeRecord]) throws { throw BackendUnavailable(reason: reason) }

    func fetchChanges() throws -> [ChangeRecord] { throw BackendUnavailable(reason: reason) }

    func waitForChanges(timeout: Double) {
        condition.withLock {
            let deadline = Deadline.after(seconds: timeout)
            while !woken, condition.wait(until: deadline) {}
            woken = false
        }
    }

    func wake() {
        condition.withLock {
            woken = true
            condition.broadcast()
        }
    }

    func compact(latest: MergedChanges) {}
}
