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
    private let usesInotify: Bool
    private var inotify: Int32 = -1
    private var watch: Int32 = -1
    /// While the folder is missing: a watch on the nearest existing folder above it, its path,
    /// and the name in it that leads to the folder (the only name whose arrival is news).
    private var ancestorWatch: Int32 = -1
    private var ancestorPath: String?
    private var ancestorChild: String?
    /// The watch is in place on a local file system, where no write escapes it.
    private var watchSeesEveryChange = false
    private let wakePipe: (read: Int32, write: Int32)
    private var baseline: Snapshot?
    /// `isWatching` and `remember` may come from another thread than the waiting one.
    private let stateLock = Lock()

    init(folder: String, pollInterval: Double, usesInotify: Bool) {
        self.folder = folder
        self.pollInterval = max(0.01, pollInterval)
        self.usesInotify = usesInotify
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        } else {
            ends = [-1, -1]
        }
        wakePipe = (ends[0], ends[1])
        if usesInotify {
            inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            addWatch()
        }
    }

    deinit {
        if inotify >= 0 { close(inotify) }
        if wakePipe.read >= 0 { close(wakePipe.read) }
        if wakePipe.write >= 0 { close(wakePipe.write) }
    }

    /// True while inotify watches the folder (false: polling only).
    var isWatching: Bool { stateLock.withLock { inotify >= 0 && watch >= 0 } }

    private var hasAnyWatch: Bool { stateLock.withLock { inotify >= 0 && (watch >= 0 || ancestorWatch >= 0) } }

    /// True while the watch alone can be trusted: nothing needs a look until inotify fires.
    var seesEveryChange: Bool { stateLock.withLock { inotify >= 0 && watch >= 0 && watchSeesEveryChange } }

    private func addWatch() {
        stateLock.withLock {
            guard inotify >= 0, watch < 0 else { return }
            // IN_ATTRIB: a folder made readable again (chmod) is news, as nothing else would
            // end a wait that no longer looks at the listing on a beat.
            let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF
                              | IN_MOVE_SELF | IN_ATTRIB)
            watch = inotify_add_watch(inotify, folder, mask)
            watchSeesEveryChange = watch >= 0 && FileSystemKind.inotifySeesEveryChange(at: folder)
            if watch >= 0 {
                removeAncestorWatchLocked()
                return
            }
            guard let ancestor = Self.nearestExistingAncestor(of: folder), ancestor != ancestorPath else { return }
            removeAncestorWatchLocked()
            ancestorWatch = inotify_add_watch(inotify, ancestor, UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF))
            guard ancestorWatch >= 0 else { return }
            ancestorPath = ancestor
            let below = folder.dropFirst(ancestor == "/" ? 1 : ancestor.count + 1)
            ancestorChild = below.split(separator: "/").first.map(String.init)
        }
    }

    private func removeAncestorWatchLocked() {
        if ancestorWatch >= 0 { inotify_rm_watch(inotify, ancestorWatch) }
        ancestorWatch = -1
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

    func wake() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

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
            var descriptors = [pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
            if hasAnyWatch { descriptors.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
            let slice = seesEveryChange ? remaining : min(remaining, pollInterval)
            let milliseconds = slice < 2_000_000 ? Int32(max(1, (slice * 1000).rounded(.up))) : -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            guard ready > 0 else { continue }
            if descriptors[0].revents != 0 {
                drain(wakePipe.read)
                return
            }
            if descriptors.count > 1, descriptors[1].revents != 0, drainEvents() { return }
        }
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Reads the pending inotify events; true when one concerns a change file or the folder itself.
    private func drainEvents() -> Bool {
        var news = false
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= count {
                let (descriptor, mask, length) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + headerSize) ..< min(count, offset + headerSize + length)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                let aboveTheFolder = stateLock.withLock { descriptor == ancestorWatch && descriptor >= 0 }
                if aboveTheFolder {
                    // The missing folder (or a parent of it) appeared in the folder above, or
                    // that folder went: the next look watches anew, nearer or farther.
                    stateLock.withLock {
                        if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                            removeAncestorWatchLocked()
                        } else if name == ancestorChild {
                            ancestorPath = nil
                            news = true
                        }
                    }
                } else if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                    // The folder went (or moved away): watch the path again once it is back.
                    // An IN_IGNORED for a watch already dropped is old news.
                    stateLock.withLock {
                        guard descriptor == watch else { return }
                        inotify_rm_watch(inotify, watch)
                        watch = -1
                        watchSeesEveryChange = false
                        news = true
                    }
                } else if ChangeFileName.isChangeFile(name) || mask & UInt32(IN_Q_OVERFLOW) != 0
                            || (name.isEmpty && mask & UInt32(IN_ATTRIB) != 0) {
                    news = true
                }
                offset += headerSize + length
            }
        }
        if FolderSystemCalls.status(of: folder) != nil { addWatch() }
        return news
    }
}
