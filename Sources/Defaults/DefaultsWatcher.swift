import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Platform

/// Notices when another process may have changed the defaults file, without threads: file
/// events on the folder (a descriptor the app's loop polls, then drains here), or, when inotify
/// is not available, a plain comparison of the file's stamp on every check.
///
/// It only answers "look again?"; the store compares stamps and contents to find what changed.
final class DefaultsWatcher {
    private let folder: String
    private let events: FileEvents?
    private var watch: Int32?
    /// Other folders whose files' writes count as news (the collections database's, where
    /// SQLite appends to its log without closing it), by path, with their watch.
    private var others: [String: Int32?] = [:]

    init(folder: String, useInotify: Bool) {
        self.folder = folder
        events = useInotify ? FileEvents() : nil
        addWatch()
    }

    /// Readable when the folder changed; -1 when polling.
    var descriptor: Int32 { events?.descriptor ?? -1 }

    /// True while inotify is watching the folder; false means polling.
    var isWatching: Bool { watch != nil }

    /// True while inotify watches the folder and the folder is on a local file system, where
    /// no write escapes the watch: nothing needs looking at until the descriptor is readable.
    var seesEveryChange: Bool {
        guard watch != nil else { return false }
        if let folderIsLocal { return folderIsLocal }
        let local = FileSystemKind.inotifySeesEveryChange(at: folder)
        folderIsLocal = local
        return local
    }

    /// The answer for the current watch, found when first asked: the loop asks after the first
    /// frame, and reading the mount table took longer than the rest of the store's start.
    private var folderIsLocal: Bool?

    private func addWatch() {
        guard let events else { return }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
        watch = events.addWatch(folder, mask: mask)
        folderIsLocal = nil
    }

    /// Also watches `folder`, for writes that do not close their file.
    func watchAlso(folder: String) {
        others[folder] = .some(addOtherWatch(folder))
    }

    private func addOtherWatch(_ folder: String) -> Int32? {
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
        return events?.addWatch(folder, mask: mask)
    }

    /// Drains pending events; true when the file may have changed (always true when polling).
    func check() -> Bool {
        guard let events else { return true }
        var lostOther = false
        for (folder, other) in others where other == nil {
            others[folder] = .some(addOtherWatch(folder))
            lostOther = true
        }
        if watch == nil {
            addWatch()  // the folder may exist now
            return true
        }
        let sawEvent = events.drain { event in
            guard event.endsWatch else { return }
            if event.watch == watch { watch = nil }
            for (folder, other) in others where other == event.watch { others[folder] = .some(nil) }
        }
        if watch == nil { addWatch() }
        return sawEvent || lostOther
    }
}
