import Cloud
import FoundationEssentials
import Platform

/// A backend made on the store's worker thread, at its first use, not on the app's thread when
/// the store opens: making the folder backend starts watching the folder (an inotify watch), which
/// on a hung network mount would freeze the screen. Until it can be made, it is unavailable
/// with the reason (the store works on its local copy and says so), and it is tried again on
/// the next pass.
final class CloudDeferredBackend: KeyValueBackend, @unchecked Sendable {
    let displayName: String
    private let make: @Sendable () throws -> KeyValueBackend
    private let condition = Condition()
    private var made: KeyValueBackend?
    private var woken = false

    init(displayName: String, make: @escaping @Sendable () throws -> KeyValueBackend) {
        self.displayName = displayName
        self.make = make
    }

    private var current: KeyValueBackend? { condition.withLock { made } }

    private func backend() throws -> KeyValueBackend {
        if let current { return current }
        let backend = try make()
        condition.withLock { made = backend }
        return backend
    }

    func append(_ records: [ChangeRecord]) throws { try backend().append(records) }

    func fetchChanges() throws -> [ChangeRecord] { try backend().fetchChanges() }

    func waitForChanges(timeout: Double) {
        if let current { return current.waitForChanges(timeout: timeout) }
        condition.withLock {
            let deadline = Deadline.after(seconds: timeout)
            while !woken, condition.wait(until: deadline) {}
            woken = false
        }
    }

    func wake() {
        let backend = condition.withLock { () -> KeyValueBackend? in
            woken = true
            condition.broadcast()
            return made
        }
        backend?.wake()
    }

    func compact(latest: MergedChanges) { current?.compact(latest: latest) }

    var readProblems: [String] { current?.readProblems ?? [] }

    var lastFetchWasWhole: Bool { current?.lastFetchWasWhole ?? false }
}
