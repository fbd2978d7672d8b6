import ArgumentParser
import Cloud
import FoundationEssentials
import Platform
import WonderlandApp

extension CloudCommand {
    /// `wonderland cloud init [PATH]`: the one way, with `c` in the Sync settings, that the sync
    /// folder comes to exist. The app reports a missing folder as offline and keeps the changes
    /// waiting; it never creates one, which could be a mount point whose share is not mounted.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create the sync folder (only you may read it); the app never creates it by itself.",
            discussion: """
                Without PATH, the folder the store syncs through: WONDERLAND_SYNC_FOLDER, else
                the Sync Folder setting, else $XDG_DATA_HOME/wonderland/cloud. Missing parents
                are created too; a folder already there is left as it is. A running wonderland
                sees the folder appear and sends the changes that waited; so does
                `wonderland cloud sync`.
                """
        )

        @Argument(help: ArgumentHelp("The folder to create (~ is your home); without it, the sync folder in use.", valueName: "path"))
        var path: String?

        func run() throws {
            let place = Where.current()
            let inUse: URL?
            if case .folder(let folder) = place.place.kind { inUse = folder.standardizedFileURL } else { inUse = nil }
            let folder: URL
            if let path {
                if path.trimmingSpaces().isEmpty { throw UsageProblem(message: "cloud init: the path is empty") }
                if let problem = CloudSettings.folderProblem(path) { throw UsageProblem(message: "cloud init: \(path): \(problem)") }
                folder = Self.resolve(path)
            } else if let inUse {
                folder = inUse
            } else {
                place.printError("the store syncs through a server (from \(place.place.source)), not a folder: there is no folder to create. Give a PATH to create one anyway.")
                throw ExitCode.failure
            }
            let outcome: SyncFolderCreation.Outcome
            do {
                outcome = try SyncFolderCreation.create(folder)
            } catch {
                place.printError("\(error)")
                throw ExitCode.failure
            }
            print(outcome.message)
            guard folder.standardizedFileURL == inUse else {
                let now = inUse.map { "the folder \($0.path)" } ?? "a server"
                print("The store syncs through \(now) (from \(place.place.source)); to sync here: wonderland defaults write \(CloudSettings.syncFolderKey) \(folder.standardizedFileURL.path)")
                return
            }
            let waiting = place.openStore().status.pendingChanges
            if waiting > 0 {
                print("\(waiting) change\(waiting == 1 ? "" : "s") waiting on this machine: a running wonderland sends them now; `wonderland cloud sync` does too.")
            }
        }

        /// A path as a shell user means it: `~` is HOME, a relative path is from the current folder.
        static func resolve(_ path: String) -> URL {
            let trimmed = path.trimmingSpaces()
            var expanded = UserFolders(environment: ProcessEnvironment.current()).expandingTilde(trimmed, otherUsers: false)
            if !expanded.hasPrefix("/") { expanded = FileManager.default.currentDirectoryPath + "/" + expanded }
            return URL(fileURLWithPath: expanded).standardizedFileURL
        }
    }
}
