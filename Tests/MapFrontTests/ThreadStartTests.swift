import Platform
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `startThread` (Platform) as the gpsd reader uses it: the body runs on a thread of its own,
/// under the name given.
@Suite("Threads of their own")
struct ThreadStartTests {
    @Test func theBodyRunsOnANewNamedThread() {
        let done = Condition()
        nonisolated(unsafe) var seen: (ran: Bool, name: String, sameThread: Bool) = (false, "", true)
        let caller = pthread_self()
        let started = startThread(name: "a very long thread name", stackSize: 1 << 20) {
            var name = [CChar](repeating: 0, count: 32)
            #if canImport(Glibc)
            let fd = open("/proc/thread-self/comm", O_RDONLY)
            if fd >= 0 {
                _ = read(fd, &name, 31)
                close(fd)
            }
            #endif
            done.withLock {
                seen = (true, String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), pthread_equal(pthread_self(), caller) != 0)
                done.signal()
            }
        }
        #expect(started)
        done.withLock {
            let deadline = Deadline.after(seconds: 10)
            while !seen.ran, done.wait(until: deadline) {}
        }
        #expect(seen.ran)
        #expect(!seen.sameThread)
        #if canImport(Glibc)
        #expect(seen.name == "a very long thr\n")
        #endif
    }
}
