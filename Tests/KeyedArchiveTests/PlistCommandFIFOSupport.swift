import Foundation
import Testing

// The other end of a FIFO the command reads or writes, kept on a thread of its own. Each end is
// opened without blocking, so a command that fails before opening the FIFO fails its test
// instead of leaving it waiting.

/// Writes `data` into the FIFO at `path` once a reader has opened it.
final class FIFOWriter: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopped = false
    private(set) var wrote = false

    init(_ path: String, _ data: Data) {
        Thread {
            defer { self.done.signal() }
            // Without a reader, opening for writing without blocking fails with ENXIO.
            var descriptor: Int32 = -1
            while descriptor < 0, !self.isStopped {
                descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                if descriptor < 0 { usleep(5_000) }
            }
            guard descriptor >= 0 else { return }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            self.wrote = written == data.count
        }.start()
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Stops waiting for a reader (the command has exited) and returns whether all was written.
    func finish() -> Bool {
        lock.withLock { stopped = true }
        done.wait()
        return wrote
    }
}

/// Collects what is written into the FIFO at `path` from now until its writer closes it.
final class FIFOReader: @unchecked Sendable {
    private let path: String
    private let descriptor: Int32
    private let done = DispatchSemaphore(value: 0)
    private var received = Data()

    init(_ path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(descriptor >= 0, "cannot open \(path) for reading")
        Thread {
            defer { self.done.signal() }
            var request = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            // Until a writer has come, poll waits; once it has gone, read says 0.
            while poll(&request, 1, -1) >= 0 || errno == EINTR {
                let got = read(self.descriptor, &buffer, buffer.count)
                if got > 0 { self.received.append(contentsOf: buffer[0..<got]) }
                if got == 0 { return }
                if got < 0, errno != EAGAIN, errno != EINTR { return }
            }
        }.start()
    }

    /// Everything received. A writer that never came is stood in for (opened and closed), so
    /// the thread ends either way.
    func finish() -> Data {
        let standIn = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if standIn >= 0 { close(standIn) }
        done.wait()
        close(descriptor)
        return received
    }
}
