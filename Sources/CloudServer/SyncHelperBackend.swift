import Cloud
import FoundationEssentials
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// The synced store's server backend as the app holds it: every call goes through pipes to a
/// helper process (`wonderland-sync-server`) that runs the PostgreSQL backend, so the app itself
/// never links NIO or the full Foundation. The helper starts at the first sync; when it dies or
/// talks nonsense it is ended, and the server counts as unreachable for the back-off the
/// server's own failures get, after which a new helper starts. Changes stay waiting meanwhile,
/// as for a server that is down.
///
/// Used from the store's worker thread, one call at a time; `wake()` from any thread. Only the
/// worker writes to the helper: `wake()` writes a byte to a pipe of its own, which the worker
/// watches while it waits and then passes on. Every read waits in `poll` with a deadline, so a
/// helper that hangs costs a time-out, never the worker, and an idle app wakes up for nothing.
public final class SyncHelperBackend: KeyValueBackend, @unchecked Sendable {
    public struct Options: Sendable {
        /// Time-outs and back-off for the server, used by the helper, and the back-off before
        /// starting a helper again.
        public var server: SyncServerOptions
        /// The helper program; nil for `SyncHelperLocation.path()`.
        public var helperPath: String?
        /// Seconds the helper may take over any answer but a wait's: well past the server's own
        /// time-outs for a connection and a fetch, so only a helper that hangs reaches it.
        public var replyTimeout: Double
        /// Seconds a woken wait may take to end.
        public var wakeGrace: Double

        public init(server: SyncServerOptions = SyncServerOptions(), helperPath: String? = nil, replyTimeout: Double = 60, wakeGrace: Double = 5) {
            self.server = server
            self.helperPath = helperPath
            self.replyTimeout = replyTimeout
            self.wakeGrace = wakeGrace
        }
    }

    public let address: PostgresSyncAddress
    public let device: DeviceIdentifier
    public let options: Options
    private let password: String?

    private let lock = Lock()
    private var helper: SyncHelperProcess?
    private var failures = 0
    private var nextAttempt: Deadline?
    private var problem: String?
    private var lastReadProblems: [String] = []
    private var fetchedWhole = false
    private let wakes: WakePipe

    /// A fetch that brings more than this is not a store's (1 MB, 1,024 keys) but a broken
    /// helper's or a hostile server's.
    static let maximumFetchBytes = 64 << 20

    /// Starts nothing: the first `fetchChanges` starts the helper.
    public init(address: PostgresSyncAddress, password: String?, device: DeviceIdentifier, options: Options = Options()) {
        self.address = address
        self.password = password
        self.device = device
        self.options = options
        wakes = WakePipe()
    }

    deinit {
        helper?.end()
    }

    public var displayName: String { "server \(address)" }

    public var readProblems: [String] { lock.withLock { lastReadProblems } }

    public var lastFetchWasWhole: Bool { lock.withLock { fetchedWhole } }

    /// The running helper's process, if one runs.
    var helperProcessID: pid_t? { lock.withLock { helper?.pid } }

    public func append(_ records: [ChangeRecord]) throws {
        let helper = try runningHelper()
        let reply = try exchange(.append(records), with: helper)
        if let error = reply.error {
            helperWorks()
            throw error
        }
        guard case .done = reply else { throw helperFailed(SyncHelperFailure("the sync helper answered a write with \(reply.name)")) }
        helperWorks()
    }

    public func fetchChanges() throws -> [ChangeRecord] {
        lock.withLock { fetchedWhole = false }
        let helper = try runningHelper()
        var reply = try exchange(.fetch, with: helper)
        var records: [ChangeRecord] = []
        var bytes = 0
        while true {
            if let error = reply.error {
                helperWorks()
                throw error
            }
            guard case .records(let part, let more, let problems, let fromStart) = reply else {
                throw helperFailed(SyncHelperFailure("the sync helper answered a fetch with \(reply.name)"))
            }
            records += part
            bytes += part.reduce(0) { $0 + $1.key.utf8.count + ($1.payload?.count ?? 0) }
            guard bytes <= Self.maximumFetchBytes else {
                throw helperFailed(SyncHelperFailure("the sync helper sent more than \(Self.maximumFetchBytes) bytes of changes at once"))
            }
            if !more {
                lock.withLock {
                    lastReadProblems = problems
                    fetchedWhole = fromStart
                }
                helperWorks()
                return records
            }
            reply = try receiveOrFail(from: helper, patience: Patience(seconds: options.replyTimeout))
        }
    }

    public func waitForChanges(timeout: Double) {
        // Woken since the last wait: the store has something to do at once.
        if wakes.drain() { return }
        let current = lock.withLock { helper }
        guard let current else {
            // No helper: until the back-off ends (to start one again) or a wake.
            var until = Deadline.after(seconds: timeout)
            if let retry = lock.withLock({ nextAttempt }), retry < until { until = retry }
            wakes.wait(until: until)
            return
        }
        do {
            try send(.wait(timeout: timeout), to: current)
            var patience = Patience(seconds: timeout + options.wakeGrace)
            var passedOn = false
            let reply = try receive(from: current, patience: { patience }, onWake: {
                guard !passedOn else { return }
                passedOn = true
                try self.send(.wake, to: current)
                patience = min(patience, Patience(seconds: self.options.wakeGrace))
            })
            guard case .done = reply else { throw SyncHelperFailure("the sync helper answered a wait with \(reply.name)") }
        } catch let failure as SyncHelperFailure {
            _ = helperFailed(failure)
        } catch {
            _ = helperFailed(SyncHelperFailure("\(error)"))
        }
    }

    public func wake() { wakes.wake() }

    /// `wonderland cloud check`: the helper audits the server's database for a team on a
    /// connection of its own, which creates nothing; throws `BackendUnavailable` when the
    /// server or the helper cannot be reached.
    public func check() throws -> [ServerCheckFinding] {
        let helper = try runningHelper()
        let reply = try exchange(.check, with: helper)
        if let error = reply.error {
            helperWorks()
            throw error
        }
        guard case .findings(let findings) = reply else {
            throw helperFailed(SyncHelperFailure("the sync helper answered a check with \(reply.name)"))
        }
        helperWorks()
        return findings
    }

    /// Not passed on: the server keeps one row per key already, so its backend has nothing to
    /// drop, and sending the store's whole state after every write would cost for nothing.
    public func compact(latest: MergedChanges) {}

    // MARK: the helper

    /// The running helper, or a new one after the back-off; throws `BackendUnavailable` while
    /// none can run.
    private func runningHelper() throws -> SyncHelperProcess {
        if let current = lock.withLock({ helper }) { return current }
        try lock.withLock {
            if let nextAttempt, !nextAttempt.hasPassed { throw BackendUnavailable(reason: problem ?? "the sync helper cannot run") }
        }
        let path = options.helperPath ?? SyncHelperLocation.path()
        let started: SyncHelperProcess
        do {
            started = try SyncHelperProcess.start(path: path)
        } catch let failure as SyncHelperFailure {
            throw helperFailed(failure)
        }
        lock.withLock { helper = started }
        let reply = try exchange(.open(address: address, password: password, device: device, options: options.server), with: started)
        guard case .ready(let version) = reply, version == SyncHelperRequest.protocolVersion else {
            throw helperFailed(SyncHelperFailure("\(path) is not a sync helper this app can talk to (it answered \(reply.name))"))
        }
        return started
    }

    /// Sends `request` and reads the first answer; a broken pipe or a senseless answer ends the
    /// helper and throws `BackendUnavailable`.
    private func exchange(_ request: SyncHelperRequest, with helper: SyncHelperProcess) throws -> SyncHelperReply {
        do {
            try send(request, to: helper)
        } catch let failure as SyncHelperFailure {
            throw helperFailed(failure)
        }
        return try receiveOrFail(from: helper, patience: Patience(seconds: options.replyTimeout))
    }

    /// The helper did its part (whatever the server said): its failures are forgotten.
    private func helperWorks() {
        lock.withLock {
            failures = 0
            nextAttempt = nil
            problem = nil
        }
    }

    private func receiveOrFail(from helper: SyncHelperProcess, patience: Patience) throws -> SyncHelperReply {
        do {
            return try receive(from: helper, patience: { patience }, onWake: nil)
        } catch let failure as SyncHelperFailure {
            throw helperFailed(failure)
        }
    }

    private func send(_ request: SyncHelperRequest, to helper: SyncHelperProcess) throws {
        let bytes = try SyncHelperFrames.encode(request.propertyList)
        let patience = Patience(seconds: options.replyTimeout)
        try SyncHelperFrames.write(bytes, to: helper.input, peer: "the sync helper") {
            try self.awaitDescriptor(helper.input, events: Int16(POLLOUT), patience: { patience }, onWake: nil)
        }
    }

    /// One answer. While `onWake` is given, a `wake()` meanwhile calls it (the wait passes it
    /// on); without, wakes stay in their pipe for the next wait.
    private func receive(from helper: SyncHelperProcess, patience: () -> Patience,
                         onWake: (() throws -> Void)?) throws -> SyncHelperReply {
        let value = try SyncHelperFrames.read(from: helper.output, bounds: SyncHelperFrames.fromHelper, peer: "the sync helper") {
            try awaitDescriptor(helper.output, events: Int16(POLLIN), patience: patience, onWake: onWake)
        }
        guard let value else {
            throw SyncHelperFailure("the sync helper stopped (\(helper.end(afterItsOutputEnded: true)))")
        }
        return try SyncHelperReply(propertyList: value)
    }

    /// Blocks until `fd` is ready for `events`; throws once the patience runs out.
    private func awaitDescriptor(_ fd: Int32, events: Int16, patience: () -> Patience, onWake: (() throws -> Void)?) throws {
        while true {
            let current = patience()
            let left = current.deadline.secondsLeft
            guard left > 0 else { throw SyncHelperFailure("the sync helper did not answer within \(cFormat("%g", current.seconds)) s") }
            var descriptors = [pollfd(fd: fd, events: events, revents: 0)]
            if onWake != nil { descriptors.append(pollfd(fd: wakes.readEnd, events: Int16(POLLIN), revents: 0)) }
            // poll takes milliseconds in an Int32: a longer wait comes back after 24 days and goes on.
            let milliseconds = Int32(min(left * 1_000 + 1, Double(Int32.max)))
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready < 0 && errno != EINTR { throw SyncHelperFailure("waiting for the sync helper failed: \(String(cString: strerror(errno)))") }
            if ready <= 0 { continue }
            if descriptors[0].revents != 0 { return }
            if let onWake, descriptors.count > 1, descriptors[1].revents != 0 {
                _ = wakes.drain()
                try onWake()
            }
        }
    }

    /// Ends the helper, counts a failure and schedules the next start; the error the store sees.
    private func helperFailed(_ failure: SyncHelperFailure) -> BackendUnavailable {
        let ended = lock.withLock { () -> SyncHelperProcess? in
            let ended = helper
            helper = nil
            failures += 1
            nextAttempt = Deadline.after(seconds: options.server.backoff(afterFailures: failures))
            problem = failure.description
            return ended
        }
        ended?.end()
        return BackendUnavailable(reason: failure.description)
    }

    /// How long an answer may take, and the moment that ends.
    private struct Patience: Comparable {
        let seconds: Double
        let deadline: Deadline

        init(seconds: Double) {
            self.seconds = seconds
            deadline = Deadline.after(seconds: seconds)
        }

        static func < (lhs: Patience, rhs: Patience) -> Bool { lhs.deadline < rhs.deadline }
        static func == (lhs: Patience, rhs: Patience) -> Bool { lhs.deadline == rhs.deadline }
    }
}

extension SyncHelperReply {
    /// The reply's kind, for messages about one that was not expected.
    var name: String {
        switch self {
        case .ready: "ready"
        case .done: "done"
        case .records: "records"
        case .unavailable: "unavailable"
        case .refused: "refused"
        case .findings: "findings"
        }
    }
}
