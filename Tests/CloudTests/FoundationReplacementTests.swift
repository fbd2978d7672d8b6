@testable import Cloud
import Foundation
import Platform
import Testing

/// What the synced store does without Foundation's paths, formats and threads, held to what
/// those gave.
@Suite struct FoundationReplacementTests {
    /// As NSString's deletingLastPathComponent, except that "//" gives "/" (it gave "", on which
    /// the walk up to an existing folder never ended) and runs of slashes are kept.
    @Test(arguments: [("/", "/"), ("/a", "/"), ("/a/", "/"), ("/a/b", "/a"), ("/a/b/", "/a"), ("/a//b", "/a"),
                      ("//a", "/"), ("/a/./b", "/a/."), ("/a/../b", "/a/.."), ("/a///", "/"), ("/é/x", "/é"),
                      ("//", "/")])
    func parentPaths(path: String, parent: String) {
        #expect(FolderWatcher.parentPath(of: path) == parent)
    }

    @Test func nearestExistingAncestorOfAMissingFolder() {
        let missing = "/tmp/wl-missing-\(UUID().uuidString)/a/b/"
        #expect(FolderWatcher.nearestExistingAncestor(of: missing) == "/tmp")
        #expect(FolderWatcher.nearestExistingAncestor(of: "relative/path") == nil)
    }

    @Test func replicaFileNamesEndInTheHashAsEightHexDigits() {
        // FNV-1a of the whole name, zero-padded as "%08x" padded it.
        #expect(LocalReplicaFolder.fileName(forBackend: "folder ~/Sync/wonderland") == "folder-sync-wonderland-0eee6ca6.plist")
        #expect(LocalReplicaFolder.fileName(forBackend: "memory") == "memory-84e9f1ae.plist")
    }

    @Test func theWorkerThreadRunsUnderItsName() {
        let done = Condition()
        nonisolated(unsafe) var seenName: String?
        let started = startThread(name: "wonderland-sync") {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            done.withLock {
                seenName = name.trimmingCharacters(in: .newlines)
                done.signal()
            }
        }
        done.withLock {
            while seenName == nil, done.wait(seconds: 10) {}
        }
        #expect(started)
        #expect(done.withLock { seenName } == "wonderland-sync")
    }
}
