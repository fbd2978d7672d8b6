import Platform
#if canImport(Glibc)
import Glibc
#endif

/// A pipe that carries "wake up": written from any thread without blocking, read by the one
/// thread that waits on it in `poll` beside other descriptors. Wakes before a wait are kept
/// until it starts; many count as one.
final class WakePipe: @unchecked Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init() {
        // Without descriptors left, waits run to their deadlines: slower, never stuck.
        let ends = closingPipe(nonBlocking: true)
        readEnd = ends?.read ?? -1
        writeEnd = ends?.write ?? -1
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// A full pipe already says "wake up": nothing is lost when this write does not fit.
    func post() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Takes every wake posted so far; true when there was one.
    func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var woken = false
        while read(readEnd, &buffer, buffer.count) > 0 { woken = true }
        return woken
    }

    /// Blocks until a wake or `deadline`, and takes the wakes.
    func wait(until deadline: Deadline) {
        while !deadline.hasPassed {
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(deadline.secondsLeft * 1_000 + 1, Double(Int32.max)))
            if poll(&descriptor, 1, milliseconds) > 0 { break }
        }
        _ = drain()
    }
}
