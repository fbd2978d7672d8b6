import FileSafety
import Foundation
import Testing
@testable import Defaults
#if canImport(Glibc)
import Glibc
#endif

/// A disk that fails the way a full one does: each write's error names the fresh temporary
/// file AtomicFile would have created, as the real one's does.
private final class FailingDisk {
    /// The errno writes fail with; nil lets them through to the real file.
    var failure: Int32? = ENOSPC
    private(set) var temporaryNames: [String] = []

    func write(_ data: Data, to url: URL) throws {
        guard let failure else { return try AtomicFile.write(data, to: url) }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        temporaryNames.append(temporary.lastPathComponent)
        throw AtomicFile.Failure(operation: "write", path: temporary.path, code: failure)
    }
}

@Suite("Write failure reports")
struct WriteFailureReportTests {
    private func makeStore(_ home: URL, disk: FailingDisk, clock: TestClock) -> DefaultsStore {
        DefaultsStore.standard(
            environment: ["XDG_CONFIG_HOME": home.path],
            options: .init(watchesForChanges: false, clock: { clock.now }, writeFile: disk.write)
        )
    }

    /// Changes a key and lets the store try to save it, as the app's loop does once it is due.
    private func changeAndFlush(_ store: DefaultsStore, _ value: Int, clock: TestClock) {
        store.set(value, forKey: "slider")
        clock.now += 5
        store.flushIfDue(now: clock.now)
    }

    @Test func theSameFailureIsReportedOnceThoughEachRetryNamesANewTemporaryFile() {
        withConfigHome { home in
            let disk = FailingDisk(), clock = TestClock()
            let store = makeStore(home, disk: disk, clock: clock)
            changeAndFlush(store, 1, clock: clock)
            let first = store.takeStartupWarnings()
            #expect(first.count == 1)
            #expect(first.first?.contains(String(cString: strerror(ENOSPC))) == true)
            changeAndFlush(store, 2, clock: clock)
            clock.now += 5
            store.flushIfDue(now: clock.now)
            #expect(Set(disk.temporaryNames).count == 3, "every retry failed on a temporary of its own")
            #expect(store.takeStartupWarnings().isEmpty, "the same full disk: no new alert")
        }
    }

    @Test func aDifferentFailureOrTheSameOneAfterASaveIsReportedAgain() throws {
        try withConfigHome { home throws in
            let disk = FailingDisk(), clock = TestClock()
            let store = makeStore(home, disk: disk, clock: clock)
            changeAndFlush(store, 1, clock: clock)
            #expect(store.takeStartupWarnings().count == 1)

            disk.failure = EACCES
            changeAndFlush(store, 2, clock: clock)
            #expect(store.takeStartupWarnings().first?.contains(String(cString: strerror(EACCES))) == true, "a new cause is news")

            disk.failure = nil
            changeAndFlush(store, 3, clock: clock)
            #expect(store.takeStartupWarnings().isEmpty)
            let saved = try fileContents(defaultsFile(in: home))
            #expect(saved == ["slider": .integer(3)])

            disk.failure = EACCES
            changeAndFlush(store, 4, clock: clock)
            #expect(store.takeStartupWarnings().count == 1, "saved in between: the failure is news again")
        }
    }

    @Test func aTemporaryFileStandsForTheFileItWasToReplace() {
        #expect(WriteFailure.subject(of: "/c/wonderland/.defaults.plist.tmp-12-345") == "/c/wonderland/defaults.plist")
        #expect(WriteFailure.subject(of: "/c/wonderland/defaults.plist") == "/c/wonderland/defaults.plist")
        #expect(WriteFailure.subject(of: "/c/.tmp-1-2") == "/c/.tmp-1-2")
    }
}
