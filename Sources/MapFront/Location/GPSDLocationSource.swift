import FoundationEssentials
import Platform
import Terminal
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the gpsd reader behaves; tests shrink the times and bring their own clock.
public struct GPSDConfiguration: Sendable {
    public var address: GPSDAddress
    public var backoff: GPSDBackoff
    /// Connected but no fix for this many seconds: the status says so.
    public var stallAfter: Double
    public var connectTimeout: Double
    /// The longest the reader sleeps without looking at the clock. Nil (the app): it sleeps
    /// until gpsd sends something, a stop, or the next moment the status changes by itself (a
    /// fix going stale, the next retry), and not a moment before. A test that moves a manual
    /// clock sets a short slice so the reader sees the clock move.
    public var longestSleep: Double?
    /// Seconds on a clock that never goes back.
    public var clock: @Sendable () -> Double
    /// How a moment on `clock` is shown in the status ("retrying at 14:02:31").
    public var timeText: @Sendable (Double) -> String
    /// Tells the main thread there is news; the run loop then calls `handleWake()`.
    public var notify: @Sendable () -> Void

    public init(address: GPSDAddress = .standard, backoff: GPSDBackoff = GPSDBackoff(), stallAfter: Double = 5,
                connectTimeout: Double = 5, longestSleep: Double? = nil,
                clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime },
                timeText: @escaping @Sendable (Double) -> String = GPSDTimeOfDay.forUptime,
                notify: @escaping @Sendable () -> Void = { Wakeup.post() }) {
        self.address = address
        self.backoff = backoff
        self.stallAfter = stallAfter
        self.connectTimeout = connectTimeout
        self.longestSleep = longestSleep
        self.clock = clock
        self.timeText = timeText
        self.notify = notify
    }
}

/// The current location from gpsd. A background thread keeps a connection (reconnecting with
/// back-off), reads its JSON reports and leaves the latest fix and status for the main thread,
/// which takes them in `refresh()` after the wake-up the thread posts.
public final class GPSDLocationSource: LocationSource {
    public let configuration: GPSDConfiguration
    public private(set) var currentFix: LocationFix?
    public private(set) var statusText: String
    private var reader: GPSDReader?
    /// The reader asked to stop last, kept so tests can see its thread end.
    private var stoppedReader: GPSDReader?

    public init(configuration: GPSDConfiguration = GPSDConfiguration()) {
        self.configuration = configuration
        statusText = "gpsd: connecting to \(configuration.address)"
    }

    public func start() {
        guard reader == nil else { return }
        let reader = GPSDReader(configuration: configuration)
        self.reader = reader
        startThread(name: "gpsd reader") { reader.run() }
    }

    /// Asks the reader to end and returns at once: it wakes from any wait through its pipe.
    public func stop() {
        reader?.requestStop()
        stoppedReader = reader ?? stoppedReader
        reader = nil
        statusText = "gpsd: stopped"
    }

    /// True once the reader thread has returned (or never ran).
    var readerHasFinished: Bool { (reader ?? stoppedReader)?.hasFinished ?? true }

    public func refresh() -> Bool {
        guard let news = reader?.takeNews() else { return false }
        let changed = news.fix != currentFix || news.status != statusText
        currentFix = news.fix
        statusText = news.status
        return changed
    }

    deinit { reader?.requestStop() }
}

/// The reader thread's side. Its session is touched by that thread only; what it shares with
/// the main thread (the news, the stop flag) sits behind the lock.
final class GPSDReader: @unchecked Sendable {
    struct News: Equatable {
        var fix: LocationFix?
        var status: String
    }

    private let configuration: GPSDConfiguration
    private let lock = Lock()
    private var published: News?
    private var unread = false
    private var stopRequested = false
    private var finished = false
    private var session: GPSDSession
    private var lines = GPSDLineBuffer()
    /// Woken once to stop, and never drained: every wait after it returns at once.
    private let stopPipe = WakePipe()

    init(configuration: GPSDConfiguration) {
        self.configuration = configuration
        session = GPSDSession(address: configuration.address, backoff: configuration.backoff, stallAfter: configuration.stallAfter,
                              timeText: configuration.timeText)
    }

    func requestStop() {
        lock.lock()
        stopRequested = true
        lock.unlock()
        stopPipe.wake()
    }

    var isStopRequested: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopRequested
    }

    /// The latest fix and status if they changed since the last call.
    func takeNews() -> News? {
        lock.lock()
        defer { lock.unlock() }
        guard unread else { return nil }
        unread = false
        return published
    }

    func run() {
        var retrying = false
        while !isStopRequested {
            // A retry keeps "retrying at 14:02:31" up while it tries: a refused connection
            // takes no time, and two status changes per retry would be two wake-ups for nothing.
            session.connecting()
            if !retrying { publish() }
            retrying = true
            switch GPSDSocket.connect(to: configuration.address, timeout: configuration.connectTimeout, wake: stopPipe) {
            case .interrupted:
                break
            case .failed(let failure):
                waitBeforeRetry(after: failure)
            case .connected(let fd):
                retrying = false
                let failure = converse(on: fd)
                close(fd)
                if let failure { waitBeforeRetry(after: failure) }
            }
        }
        session.stopped()
        publish()
        lock.lock()
        finished = true
        lock.unlock()
    }

    var hasFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    /// Reads reports until the connection ends (its failure) or a stop is asked for (nil).
    private func converse(on fd: Int32) -> GPSDConnectionFailure? {
        session.connected(at: configuration.clock())
        lines.reset()
        publish()
        let watch = Array("?WATCH={\"enable\":true,\"json\":true}\n".utf8)
        guard GPSDSocket.send(watch, on: fd, wake: stopPipe, timeout: configuration.connectTimeout) else {
            return isStopRequested ? nil : .closed
        }
        while !isStopRequested {
            switch GPSDSocket.read(from: fd, wake: stopPipe, timeout: waitUntilStatusChanges()) {
            case .interrupted:
                return nil
            case .closed:
                return .closed
            case .failed(let message):
                return .error(message)
            case .idle:
                publish()
            case .data(let bytes):
                let now = configuration.clock()
                for item in lines.append(bytes) {
                    switch item {
                    case .line(let line): session.received(GPSDReport.parse(line), at: now)
                    case .tooLong: session.lineTooLong(at: now)
                    }
                }
                publish()
            }
        }
        return nil
    }

    /// How long to wait for gpsd before the status changes by itself; nil: for as long as it
    /// stays silent.
    private func waitUntilStatusChanges() -> Double? {
        let now = configuration.clock()
        let wait = session.nextStatusChange(after: now).map { $0 - now }
        guard let longest = configuration.longestSleep else { return wait }
        return min(wait ?? longest, longest)
    }

    /// One sleep until the retry (the status already names its time); a stop ends it at once.
    private func waitBeforeRetry(after failure: GPSDConnectionFailure) {
        guard !isStopRequested else { return }
        let failedAt = configuration.clock()
        let until = failedAt + session.failed(failure, at: failedAt)
        publish()
        while !isStopRequested, configuration.clock() < until {
            let left = max(0, until - configuration.clock())
            guard GPSDSocket.pause(configuration.longestSleep.map { min($0, left) } ?? left, wake: stopPipe) else { return }
        }
    }

    private func publish() {
        let news = News(fix: session.fix, status: session.statusText(at: configuration.clock()))
        lock.lock()
        let changed = news != published
        if changed {
            published = news
            unread = true
        }
        lock.unlock()
        if changed { configuration.notify() }
    }
}
