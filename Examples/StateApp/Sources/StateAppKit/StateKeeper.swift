import Foundation
import Restoration
import Screens
import Terminal

/// Restores the screens before the first frame and saves them when the app quits, goes to
/// the background (Ctrl-Z) or falls idle after input — so even a `kill -9` loses only the
/// last moments. A state file that cannot be read is moved aside, never deleted, and the app
/// starts fresh and says so.
public final class StateKeeper: ApplicationLifecycleObserver {
    public let files: RestorationFiles
    private let engine: RestorationEngine
    private var inputAtLastSave = -1
    /// Why this launch started fresh, shown once over the first frame.
    public private(set) var notice: String?
    private var toldAboutSaveFailure = false

    public init(folder: URL, engine: RestorationEngine) {
        files = RestorationFiles(folder: folder)
        self.engine = engine
    }

    public func applicationDidFinishLaunching(_ application: Application) {
        _ = files.removeStaleTemporaries()
        do {
            guard let data = try files.readArchive() else { return }
            let report = try engine.restore(from: data, root: application.root, presentModal: { modal in
                if let screen = modal as? Screen { application.presentModal(screen) }
            })
            files.appendLog(["restored \(report.restoredPaths.count) screens"] + report.log)
        } catch {
            let aside = try? files.moveArchiveAside()
            notice = "Your saved place could not be read (\(error)), so this launch starts fresh."
                + (aside.map { " The file was kept as \($0.lastPathComponent)." } ?? "")
            files.appendLog(["not restored: \(error)"])
        }
    }

    public func applicationDidPresentFirstFrame(_ application: Application) {
        inputAtLastSave = application.inputEventsHandled
        if let notice {
            self.notice = nil
            application.presentModal(Alert(title: "Starting fresh", message: notice))
        }
    }

    public func applicationDidEnterBackground(_ application: Application) { save(application) }
    public func applicationWillTerminate(_ application: Application, reason: TerminationReason) { save(application) }
    public func applicationDidBecomeIdle(_ application: Application) {
        if application.inputEventsHandled != inputAtLastSave { save(application) }
    }

    /// Writes the tree now, atomically: a failed save keeps the previous file.
    public func save(_ application: Application) {
        inputAtLastSave = application.inputEventsHandled
        let size = application.terminal.size
        let header = RestorationHeader(appVersion: "1", timestamp: Date(), terminalColumns: size.columns, terminalRows: size.rows)
        do {
            let preserved = try engine.preserve(root: application.root, modals: application.restorableModals, header: header)
            try files.writeArchive(preserved.data)
        } catch {
            files.appendLog(["save failed: \(error)"])
            guard !toldAboutSaveFailure, application.state == .active else { return }
            toldAboutSaveFailure = true
            application.presentModal(Alert(title: "Could not save your place", message: "\(error). The previous save is kept."))
        }
    }
}
