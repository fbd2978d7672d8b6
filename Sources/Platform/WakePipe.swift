#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe that carries "wake up" to a thread blocked in `poll`: written from any thread, or
/// from a signal handler, without blocking; read by the one thread that waits on it beside
/// other descriptors. Wakes before a wait are kept until it starts; many count as one.
/// Without descriptors left both ends are -1 and waits run to their deadlines: slower, never
/// stuck.
public final class WakePipe: @unchecked Sendable {
    public let readEnd: Int32
    /// For a signal handler, which may not touch this object: it keeps the number and calls
    /// `WakePipe.wake(writeEnd:)`.
    public let writeEnd: Int32

    public init() {
        let ends = closingPipe(nonBlocking: true)
        readEnd = ends?.read ?? -1
        writeEnd = ends?.write ?? -1
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    public func wake() { Self.wake(writeEnd: writeEnd) }

    /// One `write(2)` and nothing else, so a signal handler may call it. A full pipe already
    /// says "wake up": nothing is lost when the byte does not fit.
    public static func wake(writeEnd: Int32) {
        guard writeEnd >= 0 else { return }
        let savedError = errno  // a handler must leave errno as the interrupted code had it
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
        errno = savedError
    }

    /// Takes every wake so far; true when there was one.
    @discardableResult
    public func drain() -> Bool {
        guard readEnd >= 0 else { return false }
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var woken = false
        while withUnsafeMutableBytes(of: &buffer, { read(readEnd, $0.baseAddress, $0.count) }) > 0 { woken = true }
        return woken
    }

    /// What ended a `wait`.
    public enum Outcome: Equatable, Sendable {
        /// The other descriptor is ready.
        case ready
        /// `wake()` was called (or the wait could not be made: the caller looks again).
        case woken
        case timedOut
    }

    /// Blocks in `poll` until `descriptor` (when not negative) has one of `events`, this pipe
    /// is woken, or `timeout` seconds pass (nil: no limit, so nothing but those two ends it).
    /// A wake wins over a ready descriptor. Wakes stay in the pipe: `drain()` takes them.
    public func wait(for descriptor: Int32 = -1, events: Int16 = Int16(POLLIN), timeout: Double?) -> Outcome {
        let deadline = timeout.map { Deadline.after(seconds: $0) }
        while true {
            var descriptors = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: descriptor, events: events, revents: 0)]
            // Rounded up: a deadline 0.4 ms away must not become a zero wait that spins.
            let milliseconds = deadline.map { Int32(min(($0.secondsLeft * 1000).rounded(.up), Double(Int32.max))) } ?? -1
            let count = poll(&descriptors, descriptor >= 0 ? 2 : 1, milliseconds)
            if count < 0 {
                if errno == EINTR { continue }
                return .woken
            }
            if descriptors[0].revents != 0 { return .woken }
            if descriptor >= 0, descriptors[1].revents != 0 { return .ready }
            if let deadline, deadline.hasPassed { return .timedOut }
        }
    }

    /// Blocks until a wake or `deadline`, and takes the wakes.
    public func wait(until deadline: Deadline) {
        _ = wait(timeout: deadline.secondsLeft)
        drain()
    }
}
