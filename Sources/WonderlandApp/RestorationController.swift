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
    /// When the place restored at launch was saved: the moment the user last moved there.
    public private(set) var restoredPlaceTime: Date?
    /// Told to the user once, in an alert after the first frame.
    private(set) var notice: String?
    /// The last save's error, printed by the runner after the terminal is restored.
    public private(set) var lastSaveError: Error?
    private var toldAboutSaveFailure = false
    /// Set when a newer version's archive could not be moved aside: saving would destroy it.
    private var keepsNewerArchiveInPlace = false
    /// The version whose archive this run could not read whole: kept beside this version's
    /// at the first save (`keptForVersionPending`), and named in every header this run writes.
    private var keptBeside: String?
    private var keptForVersionPending = false
    /// This version's own archive, kept by an older version and restored this run: removed
    /// once this run has saved.
    private var ownKeptArchiveRestored: String?

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
        let restoring = takeOwnKeptArchive(insteadOf: data)
        do {
            let report = try engine.restore(from: restoring, root: application.root, presentModal: { modal in
                if let screen = modal as? Screen { application.presentModal(screen) }
            }, delegate: delegate)
            restoredPlaceTime = report.header.timestamp
            files.appendLog(["launch: restored \(report.restoredPaths.count) screens saved \(Self.describe(report.header))"]
                            + report.log.map { "launch: skipped: \($0)" }, now: now())
            if ownKeptArchiveRestored == nil { keepBesideIfNotReadWhole(report) }
        } catch let error as RestorationError {
            var lines = ["launch: not restored: \(error)"]
            if error.isNewerFormat {
                keepNewerArchive(error, data: data, log: &lines)
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

    /// An archive from a newer format is kept for the version that wrote it, beside this
    /// version's (`restoration.archive.for-<version>`), so going back to that version loses
    /// nothing: started again, it restores its own. A run that never saves leaves it in place.
    private func keepNewerArchive(_ error: RestorationError, data: Data, log lines: inout [String]) {
        guard configuration.savesState else {
            lines.append("launch: the newer archive is left in place: this run never saves")
            return
        }
        // A newer format claiming this very version is no archive of another version's.
        let version = (try? engine.header(of: data)).flatMap { ArchiveVersions.safe($0.appVersion) }.flatMap { $0 == configuration.appVersion ? nil : $0 }
        do {
            if let version {
                try files.keepArchive(forVersion: version)
                keptBeside = version
                let kept = files.keptArchivePath(forVersion: version) ?? ""
                lines.append("launch: the archive was written by wonderland \(version), which this one cannot read; it is kept, unchanged, as \(kept) for that version")
                notice = "Your saved place was written by wonderland \(version), a newer version this one cannot read (\(error)), "
                    + "so this launch starts fresh. It is kept unchanged for \(version), which restores it when started again."
            } else {
                let aside = try files.moveNewerArchiveAside(now: now())
                lines.append("launch: the archive was written by a newer version of wonderland; it was moved, unchanged, to \(aside.path)")
                notice = "Your saved place was written by a newer version of wonderland, which this one cannot read (\(error)), "
                    + "so this launch starts fresh. The file was kept unchanged as \(aside.lastPathComponent); "
                    + "rename it back to restoration.archive for the newer version to restore it."
            }
        } catch {
            lines.append("launch: could not move the newer archive aside: \(error); this run will not save over it")
            keepsNewerArchiveInPlace = true
            notice = "Your saved place was written by a newer version of wonderland and could not be moved aside (\(error)); "
                + "this launch starts fresh and will not save over it."
        }
    }

    /// An archive this version cannot read whole (screens of a newer version's, or a newer
    /// version wrote it and may have saved more than this one reads) is not written over: at
    /// the first save it is kept for its version, and this version's archive names it.
    private func keepBesideIfNotReadWhole(_ report: RestorationEngine.Report) {
        let version = report.header.appVersion
        guard !report.readWhole || ArchiveVersions.isNewer(version, than: configuration.appVersion) else {
            // Still kept from an earlier run: every save goes on naming it.
            if let kept = report.header.keptBeside.flatMap(ArchiveVersions.safe), files.keptVersions().contains(kept) { keptBeside = kept }
            return
        }
        guard let safe = ArchiveVersions.safe(version), safe != configuration.appVersion else {
            // No version a file can be named after: kept as a newer archive would be.
            keptBeside = nil
            files.appendLog(["launch: the archive holds \(report.unknownParts) part(s) this version does not know, from a version named \(version.debugDescription); it is kept at the first save"], now: now())
            keptForVersionPending = true
            return
        }
        keptBeside = safe
        keptForVersionPending = true
        files.appendLog(["launch: the archive of wonderland \(safe) holds \(report.unknownParts) part(s) this version does not know; it is kept for \(safe) at the first save, not written over"], now: now())
    }

    /// When an older version ran since this one and kept this version's archive beside its
    /// own (its archive names the kept one), this version takes its own back: the older one's
    /// archive is kept for it in turn at the first save. Otherwise `data` is restored.
    private func takeOwnKeptArchive(insteadOf data: Data) -> Data {
        guard !files.keptVersions().isEmpty, let header = try? engine.header(of: data),
              let kept = header.keptBeside.flatMap(ArchiveVersions.safe),
              !ArchiveVersions.isNewer(kept, than: configuration.appVersion),
              let own = (try? files.readKeptArchive(forVersion: kept)) ?? nil,
              (try? engine.header(of: own))?.formatVersion == RestorationEngine.formatVersion else { return data }
        ownKeptArchiveRestored = kept
        if let older = ArchiveVersions.safe(header.appVersion), older != configuration.appVersion {
            keptBeside = older
            keptForVersionPending = true
        }
        files.appendLog(["launch: wonderland \(header.appVersion) kept the archive of \(kept) beside its own; restoring that one, and keeping \(header.appVersion)'s for it"], now: now())
        return own
    }

    /// The launch's own place is restored and another stands in for it (a place continued from
    /// another machine, which has its own mark): a stop from here on is no reason to start the
    /// next launch fresh.
    public func launchRestoreIsOver() { files.removeMarker() }

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
                                       terminalColumns: size.columns, terminalRows: size.rows, keptBeside: keptBeside)
        do {
            let preserved = try engine.preserve(root: application.root, modals: application.restorableModals,
                                                header: header, delegate: delegate)
            if keptForVersionPending {
                if let keptBeside {
                    try files.keepArchive(forVersion: keptBeside)
                    files.appendLog(["save (\(reason)): the archive of \(keptBeside) was kept as \(files.keptArchivePath(forVersion: keptBeside) ?? "")"], now: now())
                } else {
                    let aside = try files.moveNewerArchiveAside(now: now())
                    files.appendLog(["save (\(reason)): the archive of another version was moved, unchanged, to \(aside.path)"], now: now())
                }
                keptForVersionPending = false
            }
            try files.writeArchive(preserved.data)
            if let own = ownKeptArchiveRestored {
                files.removeKeptArchive(forVersion: own)
                ownKeptArchiveRestored = nil
            }
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
