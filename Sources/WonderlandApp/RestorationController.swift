import FileSafety
import FoundationEssentials
import Restoration
import Screens
import Terminal

/// Connects the restoration engine to the app's lifecycle: restores before the first frame,
/// and saves on quit, on Ctrl-Z, on SIGTERM/SIGHUP/SIGINT, and when the app goes idle after a
/// change (so a `kill -9` loses at most the last moments).
///
/// Restoring is skipped, with the reason logged, after `--fresh`, when the previous launch
/// died while restoring (a marker file outlives it), for an archive that is corrupt, not a
/// regular file or too big (moved aside as `.corrupt-<time>`, the user told once), for one a
/// newer version wrote (moved aside unchanged as `.newer-<time>`, the user told once), and for
/// one of an older format version.
public final class RestorationController: ApplicationLifecycleObserver {
    public struct Configuration {
        public var files: RestorationFiles
        public var fresh = false
        /// Off for a read-only run (`--exit-after-first-frame`): restores, never saves.
        public var savesState = true
        public var appVersion: String
        public init(files: RestorationFiles, fresh: Bool = false, appVersion: String) {
            self.files = files
            self.fresh = fresh
            self.appVersion = appVersion
        }
    }

    let configuration: Configuration
    let engine: RestorationEngine
    weak var delegate: RestorationDelegate?
    private let now: () -> Date
    /// Frames drawn when the last save was made: no new frame means nothing changed.
    /// Idle saves follow the user's moves only: a redraw for a GPS fix or map data that
    /// finished loading would otherwise rewrite the archive at every idle moment, and replace a place
    /// kept after a crash before the user has touched anything.
    private var inputAtLastSave = -1
    /// Told to the user once, in an alert after the first frame.
    private(set) var notice: String?
    /// The last save's error, printed by the runner after the terminal is restored.
    public private(set) var lastSaveError: Error?
    private var toldAboutSaveFailure = false
    /// Set when a newer version's archive could not be moved aside: saving would destroy it.
    private var keepsNewerArchiveInPlace = false

    public init(configuration: Configuration, engine: RestorationEngine, delegate: RestorationDelegate? = nil,
                now: @escaping () -> Date = Date.init) {
        self.configuration = configuration
        self.engine = engine
        self.delegate = delegate
        self.now = now
    }

    private var files: RestorationFiles { configuration.files }

    // MARK: restoring

    public func applicationDidFinishLaunching(_ application: Application) {
        let leftovers = files.removeStaleTemporaries()
        if !leftovers.isEmpty {
            files.appendLog(["launch: removed \(leftovers.joined(separator: ", ")), left by a save that was interrupted"], now: now())
        }
        if configuration.fresh {
            files.appendLog(["launch: not restored: --fresh was given"], now: now())
            return
        }
        if files.hasMarker {
            files.removeMarker()
            files.appendLog(["launch: not restored: the previous launch stopped while restoring; starting fresh this once"], now: now())
            notice = "The last launch stopped while restoring your place, so this one starts fresh. Your saved place is kept until the next save."
            return
        }
        let data: Data
        do {
            guard let read = try files.readArchive() else {
                files.appendLog(["launch: not restored: no saved archive"], now: now())
                return
            }
            data = read
        } catch {
            // Not a regular file, or too big to be ours: moved aside unread, as a damaged one is.
            var lines = ["launch: not restored: the archive \(error.predicate)"]
            do {
                let aside = try files.moveArchiveAside(now: now())
                lines.append("launch: the unreadable archive was moved to \(aside.path)")
                notice = "Your saved place could not be read (\(error.reason)), so this launch starts fresh. The file was kept as \(aside.lastPathComponent)."
            } catch let moveError {
                lines.append("launch: could not move the unreadable archive aside: \(moveError)")
                notice = "Your saved place could not be read (\(error.reason)); starting fresh."
            }
            files.appendLog(lines, now: now())
            return
        }
        do { try files.writeMarker(now: now()) } catch {
            files.appendLog(["launch: could not write the restore marker: \(error)"], now: now())
        }
        do {
            let report = try engine.restore(from: data, root: application.root, presentModal: { modal in
                if let screen = modal as? Screen { application.presentModal(screen) }
            }, delegate: delegate)
            files.appendLog(["launch: restored \(report.restoredPaths.count) screens saved \(Self.describe(report.header))"]
                            + report.log.map { "launch: skipped: \($0)" }, now: now())
        } catch let error as RestorationError {
            var lines = ["launch: not restored: \(error)"]
            if error.isNewerFormat {
                keepNewerArchive(error, log: &lines)
            } else if error.isCorruption {
                do {
                    let aside = try files.moveArchiveAside(now: now())
                    lines.append("launch: the unreadable archive was moved to \(aside.path)")
                    notice = "Your saved place could not be read, so this launch starts fresh. The file was kept as \(aside.lastPathComponent)."
                } catch {
                    lines.append("launch: could not move the unreadable archive aside: \(error)")
                }
            }
            files.removeMarker()
            files.appendLog(lines, now: now())
        } catch {
            files.removeMarker()
            files.appendLog(["launch: not restored: \(error)"], now: now())
        }
    }

    /// An archive from a newer version is moved out of the way of this version's saves, so
    /// going back to that version loses nothing. A run that never saves leaves it in place.
    private func keepNewerArchive(_ error: RestorationError, log lines: inout [String]) {
        guard configuration.savesState else {
            lines.append("launch: the newer archive is left in place: this run never saves")
            return
        }
        do {
            let aside = try files.moveNewerArchiveAside(now: now())
            lines.append("launch: the archive was written by a newer version of wonderland; it was moved, unchanged, to \(aside.path)")
            notice = "Your saved place was written by a newer version of wonderland, which this one cannot read (\(error)), "
                + "so this launch starts fresh. The file was kept unchanged as \(aside.lastPathComponent); "
                + "rename it back to restoration.archive for the newer version to restore it."
        } catch {
            lines.append("launch: could not move the newer archive aside: \(error); this run will not save over it")
            keepsNewerArchiveInPlace = true
            notice = "Your saved place was written by a newer version of wonderland and could not be moved aside (\(error)); "
                + "this launch starts fresh and will not save over it."
        }
    }

    public func applicationDidPresentFirstFrame(_ application: Application) {
        files.removeMarker()
        inputAtLastSave = application.inputEventsHandled
        if let notice {
            self.notice = nil
            let alert = Alert(title: "Starting fresh", message: notice)
            alert.passesOtherKeysOn = true  // it came unasked: the key typed as it appears is the user's
            application.presentModal(alert)
            // The alert is not a change of place, and it is no input: the next idle moment will not
            // replace the archive the notice has just said is kept.
        }
    }

    static func describe(_ header: RestorationHeader) -> String {
        "\(RestorationFiles.stamp(header.timestamp)) by \(header.appVersion) at \(header.terminalColumns)×\(header.terminalRows)"
    }

    // MARK: saving

    public func applicationDidEnterBackground(_ application: Application) { save(application, reason: "suspend") }

    public func applicationWillTerminate(_ application: Application, reason: TerminationReason) {
        save(application, reason: "\(reason)")
    }

    public func applicationDidBecomeIdle(_ application: Application) {
        guard application.inputEventsHandled != inputAtLastSave else { return }
        save(application, reason: "idle")
    }

    /// Saves the tree now. A failure keeps the previous archive (the write is atomic) and is
    /// shown once; the runner prints the last one on exit.
    public func save(_ application: Application, reason: String) {
        inputAtLastSave = application.inputEventsHandled
        guard configuration.savesState, !keepsNewerArchiveInPlace else { return }
        if let delegate, !delegate.shouldSaveApplicationState() { return }
        let size = application.terminal.size
        let header = RestorationHeader(appVersion: configuration.appVersion, timestamp: now(),
                                       terminalColumns: size.columns, terminalRows: size.rows)
        do {
            let preserved = try engine.preserve(root: application.root, modals: application.restorableModals,
                                                header: header, delegate: delegate)
            try files.writeArchive(preserved.data)
            lastSaveError = nil
            files.appendLog(preserved.log.map { "save (\(reason)): skipped: \($0)" }, now: now())
        } catch {
            lastSaveError = error
            files.appendLog(["save (\(reason)) failed, the previous archive is kept: \(error)"], now: now())
            if !toldAboutSaveFailure, application.state == .active {
                toldAboutSaveFailure = true
                application.presentModal(Alert(title: "Could not save your place", message: "\(error). The previous save is kept."))
            }
        }
    }
}
