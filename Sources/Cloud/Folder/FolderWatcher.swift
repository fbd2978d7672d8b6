import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Platform

/// Waits for news in the folder: inotify when the kernel gives it (local folders; Syncthing and
/// Dropbox write locally too), a self-pipe for `wake()`, and a look at the listing every poll
/// interval wherever inotify cannot be trusted: network and FUSE file systems send no inotify
/// events for other machines' writes, and a watch is lost when the folder is moved away. On a
/// local folder with a watch in place the wait blocks until inotify or the pipe says something.
/// While the folder is missing, the nearest folder above it that exists is watched as well, so
/// the folder being created (by `wonderland cloud init`, by hand, by a sync tool) is news at
/// once; the look on a beat stays on then, since a share mounted there sends no event.
final class FolderWatcher: @unchecked Sendable {
    /// What the listing looked like: each change file's name, inode, size and modification time,
    /// and the folder's own identity (nil when it is missing).
    struct Snapshot: Equatable {
        var folder: FolderSystemCalls.Identity?
        var files: [String: FolderSystemCalls.FileStatus] = [:]
    }

    private let folder: String
    private let pollInterval: Double
    private let events: FileEvents?
    private var watch: Int32?
    /// While the folder is missing: a watch on the nearest existing folder above it, its path,
    /// and the name in it that leads to the folder (the only name whose arrival is news).
    private var ancestorWatch: Int32?
    private var ancestorPath: String?
    private var ancestorChild: String?
    /// The watch is in place on a local file system, where no write escapes it.
    private var watchSeesEveryChange = false
    private let wakes = WakePipe()
    private var baseline: Snapshot?
    /// `isWatching` and `remember` may come from another thread than the waiting one.
    private let stateLock = Lock()

    init(folder: String, pollInterval: Double, usesInotify: Bool) {
        self.folder = folder
        self.pollInterval = max(0.01, pollInterval)
        events = usesInotify ? FileEvents() : nil
        addWatch()
    }

    /// True while inotify watches the folder (false: polling only).
    var isWatching: Bool { stateLock.withLock { watch != nil } }

    private var hasAnyWatch: Bool { stateLock.withLock { watch != nil || ancestorWatch != nil } }

    /// True while the watch alone can be trusted: nothing needs a look until inotify fires.
    var seesEveryChange: Bool { stateLock.withLock { watch != nil && watchSeesEveryChange } }

    private func addWatch() {
        stateLock.withLock {
            guard let events, watch == nil else { return }
            // IN_ATTRIB: a folder made readable again (chmod) is news, as nothing else would
            // end a wait that no longer looks at the listing on a beat.
            let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF
                              | IN_MOVE_SELF | IN_ATTRIB)
            watch = events.addWatch(folder, mask: mask)
            watchSeesEveryChange = watch != nil && FileSystemKind.inotifySeesEveryChange(at: folder)
            if watch != nil {
                removeAncestorWatchLocked()
                return
            }
            guard let ancestor = Self.nearestExistingAncestor(of: folder), ancestor != ancestorPath else { return }
            removeAncestorWatchLocked()
            ancestorWatch = events.addWatch(ancestor, mask: UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF))
            guard ancestorWatch != nil else { return }
            ancestorPath = ancestor
            let below = folder.dropFirst(ancestor == "/" ? 1 : ancestor.count + 1)
            ancestorChild = below.split(separator: "/").first.map(String.init)
        }
    }

    private func removeAncestorWatchLocked() {
        if let ancestorWatch { events?.removeWatch(ancestorWatch) }
        ancestorWatch = nil
        ancestorPath = nil
        ancestorChild = nil
    }

    /// The closest folder above `path` that exists ("/" at worst); nil for a relative path.
    static func nearestExistingAncestor(of path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var candidate = parentPath(of: path)
        while candidate != "/" && FolderSystemCalls.status(of: candidate) == nil {
            candidate = parentPath(of: candidate)
        }
        return candidate
    }

    /// `path` without its last component and the slashes before it; "/" for the root and its
    /// children.
    static func parentPath(of path: String) -> String {
        let bytes = Array(path.utf8)
        let slash = UInt8(ascii: "/")
        var end = bytes.count
        while end > 1, bytes[end - 1] == slash { end -= 1 }
        while end > 0, bytes[end - 1] != slash { end -= 1 }
        while end > 0, bytes[end - 1] == slash { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }

    func snapshot() -> Snapshot {
        var snapshot = Snapshot(folder: FolderSystemCalls.status(of: folder)?.identity)
        guard snapshot.folder != nil, let names = try? FolderSystemCalls.names(in: folder) else { return snapshot }
        for name in names where ChangeFileName.isChangeFile(name) {
            snapshot.files[name] = FolderSystemCalls.status(of: folder + "/" + name)
        }
        return snapshot
    }

    /// Taken by `fetchChanges` before it reads: a change after it is news for the next wait.
    func remember(_ snapshot: Snapshot) { stateLock.withLock { baseline = snapshot } }

    func wake() { wakes.wake() }

    /// Returns when the folder may have news, `wake()` was called, or `timeout` seconds passed
    /// (an infinite timeout waits for the first two only).
    func wait(timeout: Double) {
        let deadline = Self.monotonicSeconds() + max(0, timeout)
        while true {
            // Watched before looking, so a folder made in between is either seen or heard.
            addWatch()
            let now = snapshot()
            let changed = stateLock.withLock { () -> Bool in
                defer { baseline = now }
                return baseline != nil && baseline != now
            }
            if changed { return }
            if now.folder != nil { addWatch() }  // the folder came back, or inotify lost it
            let remaining = deadline - Self.monotonicSeconds()
            if remaining <= 0 { return }
            let slice = seesEveryChange ? remaining : min(remaining, pollInterval)
            // A wait of weeks is a wait for news only: no wake-up on the way.
            let timeout = slice < 2_000_000 ? slice : nil
            switch wakes.wait(for: hasAnyWatch ? events?.descriptor ?? -1 : -1, timeout: timeout) {
            case .woken:
                wakes.drain()
                return
            case .ready:
                if drainEvents() { return }
            case .timedOut:
                continue
            }
        }
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Reads the pending inotify events; true when one concerns a change file or the folder itself.
    private func drainEvents() -> Bool {
        var news = false
        events?.drain { event in
            let aboveTheFolder = stateLock.withLock { event.watch == ancestorWatch }
            if aboveTheFolder {
                // The missing folder (or a parent of it) appeared in the folder above, or
                // that folder went: the next look watches anew, nearer or farther.
                stateLock.withLock {
                    if event.endsWatch {
                        removeAncestorWatchLocked()
                    } else if event.name == ancestorChild {
                        ancestorPath = nil
                        news = true
                    }
                }
            } else if event.endsWatch {
                // The folder went (or moved away): watch the path again once it is back.
                // An IN_IGNORED for a watch already dropped is old news.
                stateLock.withLock {
                    guard let watch, event.watch == watch else { return }
                    events?.removeWatch(watch)
                    self.watch = nil
                    watchSeesEveryChange = false
                    news = true
                }
            } else if ChangeFileName.isChangeFile(event.name) || event.overflowed
                        || (event.name.isEmpty && event.mask & UInt32(IN_ATTRIB) != 0) {
                news = true
            }
        }
        if FolderSystemCalls.status(of: folder) != nil { addWatch() }
        return news
    }
}
