import Foundation
import Platform
import Testing

@Suite("Wake-up pipes")
struct WakePipeTests {
    @Test("a wake is kept until drained, and many count as one")
    func wakeAndDrain() {
        let pipe = WakePipe()
        #expect(pipe.drain() == false)
        pipe.wake()
        pipe.wake()
        #expect(pipe.drain() == true)
        #expect(pipe.drain() == false)
    }

    @Test("both ends are non-blocking and close when another program starts")
    func descriptorFlags() throws {
        let pipe = WakePipe()
        for end in [pipe.readEnd, pipe.writeEnd] {
            #expect(end >= 0)
            #expect(fcntl(end, F_GETFL) & O_NONBLOCK != 0)
            #expect(fcntl(end, F_GETFD) & FD_CLOEXEC != 0)
        }
        let plain = try #require(closingPipe())
        defer { close(plain.read); close(plain.write) }
        #expect(fcntl(plain.read, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(plain.read, F_GETFL) & O_NONBLOCK == 0)
    }

    @Test("waking a full pipe never blocks")
    func fullPipe() {
        let pipe = WakePipe()
        for _ in 0 ..< 200_000 { pipe.wake() }
        #expect(pipe.drain())
        #expect(!pipe.drain())
    }

    @Test("the write end alone wakes it, as a signal handler does; -1 is ignored")
    func wakeByDescriptor() {
        let pipe = WakePipe()
        WakePipe.wake(writeEnd: -1)
        // A handler leaves errno as the code it interrupted had it, even when the write fails.
        errno = EAGAIN
        WakePipe.wake(writeEnd: Int32.max)
        #expect(errno == EAGAIN)
        WakePipe.wake(writeEnd: pipe.writeEnd)
        #expect(pipe.wait(timeout: nil) == .woken)
    }

    @Test("a wait ends with a wake from another thread")
    func wokenFromAnotherThread() {
        let pipe = WakePipe()
        #expect(startThread(name: "waker") { pipe.wake() })
        #expect(pipe.wait(timeout: nil) == .woken)
        #expect(pipe.drain())
    }

    @Test("a wait sees the other descriptor ready, and a wake wins over it")
    func readyDescriptor() throws {
        let pipe = WakePipe()
        let other = try #require(closingPipe(nonBlocking: true))
        defer { close(other.read); close(other.write) }
        var byte: UInt8 = 7
        #expect(write(other.write, &byte, 1) == 1)
        #expect(pipe.wait(for: other.read, timeout: nil) == .ready)
        pipe.wake()
        #expect(pipe.wait(for: other.read, timeout: nil) == .woken)
    }

    @Test("a wait with nothing to see ends when its time is up")
    func timesOut() {
        let pipe = WakePipe()
        #expect(pipe.wait(timeout: 0) == .timedOut)
        #expect(pipe.wait(timeout: -5) == .timedOut)
        pipe.wait(until: Deadline.now)
    }
}
