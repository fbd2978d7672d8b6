/// Why a connection to gpsd ended or never began.
public enum GPSDConnectionFailure: Equatable, Sendable {
    /// Nothing listens there (ECONNREFUSED): gpsd is not running.
    case refused
    /// No answer within the connect timeout.
    case timedOut
    /// The host name did not resolve.
    case unresolved(String)
    /// gpsd closed the connection.
    case closed
    /// Any other socket error, in strerror's words.
    case error(String)
}

/// What the gpsd reader knows, as a value: the connection's phase, the latest fix and the news
/// for the status line. The reader thread feeds it events with the time they happened; tests
/// feed it the same events with made-up times, so back-off and stall rules need no waiting.
///
/// The status names moments ("retrying at 14:02:31", "no fix since 14:02:31") rather than
/// counting seconds, so it stays true without being redrawn: it changes only at an event or at
/// the one moment `nextStatusChange(after:)` gives, and the reader sleeps until then.
public struct GPSDSession: Sendable {
    public enum Phase: Equatable, Sendable {
        case connecting
        case connected(since: Double)
        case waiting(until: Double, after: GPSDConnectionFailure)
        case stopped
    }

    public let address: GPSDAddress
    /// Connected but no fix for this long: the status says so ("gpsd: no fix since 14:02:31").
    public let stallAfter: Double
    /// How long an ignored report stays mentioned in the status.
    public let ignoredNoteLasts: Double
    /// How a moment on the session's clock is shown: the reader shows the local time of day
    /// (`GPSDTimeOfDay`); tests show what they like.
    public let timeText: @Sendable (Double) -> String

    public private(set) var phase: Phase = .connecting
    public private(set) var fix: LocationFix?
    public private(set) var mode: GPSDFixMode = .unknown
    public private(set) var lastFixTime: Double?
    public private(set) var deviceCount: Int?
    public private(set) var ignoredCount = 0
    private var lastIgnored: (reason: String, time: Double)?
    private var backoff: GPSDBackoff

    public init(address: GPSDAddress, backoff: GPSDBackoff = GPSDBackoff(), stallAfter: Double = 5, ignoredNoteLasts: Double = 10,
                timeText: @escaping @Sendable (Double) -> String = GPSDTimeOfDay.forUptime) {
        self.address = address
        self.backoff = backoff
        self.stallAfter = stallAfter
        self.ignoredNoteLasts = ignoredNoteLasts
        self.timeText = timeText
    }

    public mutating func connecting() { phase = .connecting }

    public mutating func connected(at now: Double) {
        phase = .connected(since: now)
        mode = .unknown
        deviceCount = nil
        // A fix from before the outage is still the best guess of where we are, but it is not
        // news from this connection: the stall clock starts again.
        lastFixTime = nil
    }

    /// Records a lost or failed connection; returns how long to wait before the next try.
    @discardableResult
    public mutating func failed(_ failure: GPSDConnectionFailure, at now: Double) -> Double {
        let delay = backoff.delayAfterFailure()
        phase = .waiting(until: now + delay, after: failure)
        mode = .unknown
        return delay
    }

    public mutating func stopped() { phase = .stopped }

    public mutating func received(_ report: GPSDReport, at now: Double) {
        switch report {
        case .position(let newFix, let newMode):
            fix = newFix
            mode = newMode
            lastFixTime = now
        case .noPosition(let newMode):
            // gpsd's mode-3-without-position report opens a cycle; it does not undo a fix.
            if !newMode.hasFix { mode = newMode }
        case .devices(let count):
            deviceCount = count
        case .other(className: "DEVICE"):
            // A device came or went after DEVICES: the count is no longer known.
            deviceCount = nil
        case .version, .other:
            break
        case .gpsdError(let message):
            note("gpsd said: \(message)", at: now)
            return
        case .ignored(let reason):
            note("ignored \(reason)", at: now)
            return
        }
        // gpsd answered with a report it meant: this connection works.
        backoff.reset()
    }

    public mutating func lineTooLong(at now: Double) {
        note("ignored a report over 16 KiB", at: now)
    }

    private mutating func note(_ text: String, at now: Double) {
        ignoredCount += 1
        lastIgnored = (text, now)
    }

    /// The first moment after `now` at which `statusText` would read differently with no new
    /// event: a fix going stale, a connection stalling, a note about an ignored report running
    /// out. Nil when the status stays as it is until something happens.
    public func nextStatusChange(after now: Double) -> Double? {
        guard case .connected(let since) = phase else { return nil }
        var moments: [Double] = []
        // With no receiver and no fix yet, "no GPS device" stays true until gpsd reports one.
        if !hasNoDeviceYet { moments.append((lastFixTime ?? since) + stallAfter) }
        if let lastIgnored { moments.append(lastIgnored.time + ignoredNoteLasts) }
        return moments.filter { $0 > now }.min()
    }

    /// One line for the status bar, as of `now`.
    public func statusText(at now: Double) -> String {
        var text = "gpsd: " + phaseText(at: now)
        if let lastIgnored, now - lastIgnored.time < ignoredNoteLasts, case .connected = phase {
            text += " · " + lastIgnored.reason
        }
        return text
    }

    /// gpsd said it has no receiver, and this connection has had no fix.
    private var hasNoDeviceYet: Bool { deviceCount == 0 && lastFixTime == nil }

    private var shownAddress: String {
        address == .standard ? "" : " at \(address)"
    }

    private func phaseText(at now: Double) -> String {
        switch phase {
        case .connecting:
            return "connecting to \(address)"
        case .stopped:
            return "stopped"
        case .waiting(let until, let failure):
            return "\(failureText(failure)) (retrying at \(timeText(until)))"
        case .connected(let since):
            if let lastFixTime, now - lastFixTime < stallAfter, mode.hasFix {
                return mode == .threeDimensional ? "3D fix" : "2D fix"
            }
            if hasNoDeviceYet { return "no GPS device" }
            let quiet = now - (lastFixTime ?? since)
            let noDevice = deviceCount == 0 ? " (no GPS device)" : ""
            if quiet < stallAfter {
                if lastFixTime != nil { return "fix lost" }
                return deviceCount == 0 ? "no GPS device" : "no fix yet"
            }
            return "no fix since \(timeText(lastFixTime ?? since))\(noDevice)"
        }
    }

    private func failureText(_ failure: GPSDConnectionFailure) -> String {
        switch failure {
        case .refused: return "not running\(shownAddress)"
        case .timedOut: return "no answer from \(address)"
        case .unresolved(let host): return "cannot find host \(host)"
        case .closed: return "\(address) closed the connection"
        case .error(let message): return "\(address): \(message)"
        }
    }
}
