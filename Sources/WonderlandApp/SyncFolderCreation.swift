import Cloud
import Defaults
import FoundationEssentials
import Screens
import Settings

/// Creating the sync folder, which only the user does: `wonderland cloud init` and `c` on the
/// Sync Folder row (after a question). Both say what they did in the same words. A running
/// app's store notices the folder appear (its watcher looks at the path) and sends the
/// changes that waited.
public enum SyncFolderCreation {
    /// What happened, in a sentence for the user.
    public struct Outcome {
        public var created: Bool
        public var message: String
    }

    /// Creates `folder` (0700, with missing parents); throws `BackendUnavailable` with the
    /// reason when it cannot.
    public static func create(_ folder: URL) throws -> Outcome {
        let path = folder.standardizedFileURL.path
        switch try FolderBackend.createFolder(folder) {
        case .created:
            return Outcome(created: true, message: "Created the sync folder \(path) (only you may read it).")
        case .alreadyThere:
            return Outcome(created: false, message: "The sync folder \(path) is there already; nothing was changed.")
        }
    }

    /// The folder the store would sync through now, or why there is none to create (the store
    /// syncs through a server).
    public static func folder(store: PreferenceStore, launch: LaunchOptions) -> Result<URL, SyncThroughServer> {
        let place = CloudSettings.place(store: store, environment: launch.environment, dataFolder: launch.dataFolder)
        guard case .folder(let folder) = place.kind else {
            return .failure(SyncThroughServer(message: "Syncing goes through a server (from \(place.source)), not a folder: there is no folder to create."))
        }
        return .success(folder)
    }

    public struct SyncThroughServer: Error {
        public let message: String
    }

    /// `c` on the Sync Folder row: asks, then creates the folder and says so.
    public static func rowKeys(launch: LaunchOptions) -> [String: [SettingsRowKey]] {
        [CloudSettings.syncFolderKey: [SettingsRowKey(.character("c"), help: "Create the sync folder") { pane in ask(over: pane, launch: launch) }]]
    }

    private static func ask(over pane: SettingsScreen, launch: LaunchOptions) {
        let folder: URL
        switch Self.folder(store: pane.store, launch: launch) {
        case .failure(let server):
            return pane.present(Alert(title: "Sync Folder", message: server.message))
        case .success(let found):
            folder = found
        }
        let path = folder.standardizedFileURL.path
        var isFolder = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder {
            return pane.present(Alert(title: "Sync Folder", message: "The sync folder \(path) is there already."))
        }
        let question = Confirm(title: "Create the sync folder?",
                               message: "Create \(path)? Keep it in a folder your machines share (Syncthing, Dropbox, NFS); changes waiting are sent there.") { [weak pane] yes in
            guard yes, let pane else { return }
            do {
                pane.present(Alert(title: "Sync Folder", message: try create(folder).message))
            } catch {
                pane.present(Alert(title: "Sync Folder", message: "Not created: \(error)."))
            }
        }
        pane.present(question)
    }
}
