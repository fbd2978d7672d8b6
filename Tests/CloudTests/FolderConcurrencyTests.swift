@testable import Cloud
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Two instances of one device appending at once, and waiting for news.
@Suite struct FolderConcurrencyTests {
    typealias Data_ = FolderTestData
    let a = FolderTestData.deviceA
    let b = FolderTestData.deviceB

    @Test func twoInstancesOfOneDeviceAppendingAtOnceLoseNothing() throws {
        let fixture = FolderFixture()
        let first = try fixture.backend(a)
        let second = try fixture.backend(a)
        let batches = 150
        let a = self.a
        @Sendable func batch(_ instance: Int, _ index: Int) -> [ChangeRecord] {
            (0 ..< 3).map { Data_.record("i\(instance)-k\(index % 9)", "\(instance).\(index).\($0)", UInt64(index * 4 + $0), a, counter: UInt16(instance)) }
        }
        let done = DispatchGroup()
        let failures = FolderFlag()
        for (instance, backend) in [(0, first), (1, second)] {
            DispatchQueue.global().async(group: done) {
                for index in 0 ..< batches {
                    do { try backend.append(batch(instance, index)) } catch { failures.raise() }
                }
            }
        }
        done.wait()
        #expect(!failures.isRaised)
        let expected = Set((0 ..< 2).flatMap { instance in (0 ..< batches).flatMap { batch(instance, $0) } })
        let read = try fixture.backend(b).fetchChanges()
        #expect(read.count == expected.count)
        #expect(Set(read) == expected)
    }

    @Test func compactingWhileAnotherInstanceAppendsLosesNothingNewest() throws {
        let fixture = FolderFixture()
        let appender = try fixture.backend(a)
        let compactor = try FolderBackend(folder: fixture.cloud, device: a, options: .init(compactionFactor: 1, compactionSlack: 0))
        let written = (0 ..< 400).map { Data_.record("k\($0 % 10)", "v\($0)", UInt64($0 + 1), a) }
        let done = DispatchGroup()
        let failures = FolderFlag()
        DispatchQueue.global().async(group: done) {
            for record in written {
                do { try appender.append([record]) } catch { failures.raise() }
            }
        }
        DispatchQueue.global().async(group: done) {
            for _ in 0 ..< 60 {
                do {
                    let seen = MergedChanges(try compactor.fetchChanges())
                    compactor.compact(latest: seen)
                } catch { failures.raise() }
            }
        }
        done.wait()
        #expect(!failures.isRaised)
        let merged = MergedChanges(try fixture.backend(b).fetchChanges())
        #expect(merged == MergedChanges(written))
    }

    @Test(arguments: [true, false])
    func waitingReturnsWhenAnotherDeviceWrites(inotify: Bool) throws {
        let fixture = FolderFixture()
        let waiter = try fixture.backend(a, inotify: inotify, pollInterval: 0.05)
        let writer = try fixture.backend(b)
        _ = try waiter.fetchChanges()
        let returned = FolderFlag()
        let started = FolderFlag()
        Thread.detachNewThread {
            started.raise()
            waiter.waitForChanges(timeout: 120)
            returned.raise()
        }
        #expect(Data_.eventually { started.isRaised })
        try writer.append([Data_.record("k", "v", 1, b)])
        #expect(Data_.eventually { returned.isRaised })
        #expect(try waiter.fetchChanges().count == 1)
        if inotify { #expect(waiter.isWatchingWithInotify) }
    }

    /// Polling so slow it cannot be what ends the wait: only inotify on the folder above can.
    @Test func aWaitOnAMissingFolderEndsWhenItIsCreatedHeardNotPolled() throws {
        let fixture = FolderFixture()
        let missing = fixture.root.appendingPathComponent("shared/deeper/cloud")
        let waiter = try FolderBackend(folder: missing, device: a, options: .init(pollInterval: 600, usesInotify: true))
        #expect(throws: BackendUnavailable.self) { try waiter.fetchChanges() }
        let returned = FolderFlag()
        let started = FolderFlag()
        Thread.detachNewThread {
            started.raise()
            // Woken by "shared", then "deeper", then "cloud" appearing, each a level nearer.
            while (try? waiter.fetchChanges()) == nil { waiter.waitForChanges(timeout: 600) }
            returned.raise()
        }
        #expect(Data_.eventually { started.isRaised })
        try FolderBackend.createFolder(missing)
        #expect(Data_.eventually { returned.isRaised })
        if !returned.isRaised { waiter.wake() }
        // The folder itself is watched from the next wait on.
        waiter.waitForChanges(timeout: 0)
        #expect(waiter.isWatchingWithInotify)
    }

    @Test func wakeEndsAWait() throws {
        let fixture = FolderFixture()
        let waiter = try fixture.backend(a, pollInterval: 0.5)
        _ = try waiter.fetchChanges()
        let returned = FolderFlag()
        Thread.detachNewThread {
            waiter.waitForChanges(timeout: 120)
            returned.raise()
        }
        waiter.wake()
        #expect(Data_.eventually { returned.isRaised })
    }

    @Test func aWaitNoticesTheFolderComingBackAndInotifyWatchesItAgain() throws {
        let fixture = FolderFixture()
        let waiter = try fixture.backend(a, pollInterval: 0.05)
        _ = try waiter.fetchChanges()
        let away = fixture.root.appendingPathComponent("away")
        #expect(rename(fixture.cloud.path, away.path) == 0)
        waiter.waitForChanges(timeout: 0.2)
        #expect(throws: BackendUnavailable.self) { try waiter.fetchChanges() }
        #expect(rename(away.path, fixture.cloud.path) == 0)
        _ = try waiter.fetchChanges()
        waiter.waitForChanges(timeout: 0.2)
        #expect(waiter.isWatchingWithInotify)
        let returned = FolderFlag()
        Thread.detachNewThread {
            waiter.waitForChanges(timeout: 120)
            returned.raise()
        }
        try fixture.backend(b).append([Data_.record("k", "v", 1, b)])
        #expect(Data_.eventually { returned.isRaised })
    }
}
