import Platform
import Synchronization
import Testing

@Suite("Prefetch")
struct PrefetchTests {
    @Test func theWorkRunsOnceWhoeverComesFirst() {
        for _ in 0..<200 {
            let runs = Atomic<Int>(0)
            let prefetch = Prefetch(name: "test") { () -> Int in
                runs.add(1, ordering: .relaxed)
                return 42
            }
            #expect(prefetch.value == 42)
            #expect(prefetch.value == 42)
            #expect(runs.load(ordering: .relaxed) == 1)
        }
    }

    @Test func aReaderWaitsForTheThreadThatHasBegun() {
        let started = Condition()
        let release = Condition()
        nonisolated(unsafe) var begun = false, released = false
        let runs = Atomic<Int>(0)
        let prefetch = Prefetch(name: "test") { () -> String in
            runs.add(1, ordering: .relaxed)
            started.withLock { begun = true; started.broadcast() }
            release.withLock { while !released { release.wait() } }
            return "from the thread"
        }
        started.withLock { while !begun { started.wait() } }
        // The thread holds the work: a reader now waits for it rather than doing it again.
        _ = startThread(name: "releaser") {
            release.withLock { released = true; release.broadcast() }
        }
        #expect(prefetch.value == "from the thread")
        #expect(runs.load(ordering: .relaxed) == 1)
    }
}
