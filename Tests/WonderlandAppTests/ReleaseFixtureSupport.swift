import BookFront
import Cloud
import Defaults
import Foundation
import PropertyList
import Restoration
import Screens
import ScreensTesting
import Terminal
@testable import WonderlandApp

/// What `scripts/compat-fixtures` did in one release, from the fixture's `journey.json`.
struct ReleaseJourney: Decodable {
    struct Pin: Decodable { let title: String; let lat: Double; let long: Double }
    struct Draft: Decodable { let text: String; let cursorUTF8: Int; let screenLine: Int; let screenColumn: Int }
    struct Terminal: Decodable { let columns: Int; let rows: Int }
    let rev: String
    let version: String
    let character: String
    let note: String
    let draft: Draft
    let pin: Pin
    let bookID: String
    let offset: Int
    let page: Int
    let pages: Int
    let bookmarkOffsets: [Int]
    let favourites: [String]
    let hasFavourites: Bool
    let changeFiles: [String]
    let terminal: Terminal
}

/// One fixture folder of `Tests/WonderlandAppTests/Fixtures/Releases/`, copied into a HOME of the
/// test's own (the fixture itself is never written), and launched by today's code as the app
/// launches: the real defaults store on the release's defaults.plist with today's collections
/// beside it, today's screens and restoration controller on the release's archive.
final class ReleaseFixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Releases")

    /// Every fixture folder (one per release), sorted.
    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0)/journey.json").path) }
            .sorted()
    }

    let name: String
    let journey: ReleaseJourney
    let home: URL

    init(_ name: String) throws {
        self.name = name
        let source = Self.folder.appendingPathComponent(name)
        journey = try JSONDecoder().decode(ReleaseJourney.self, from: Data(contentsOf: source.appendingPathComponent("journey.json")))
        home = FileManager.default.temporaryDirectory.appendingPathComponent("wl-release-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: home)
        // Saved files are 0600 in 0700 folders, as the app makes them (a copy keeps the modes).
        for folder in ["config", "state", "data", "sync"] {
            let url = home.appendingPathComponent(folder)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            for case let path as String in FileManager.default.enumerator(atPath: url.path)! {
                var isFolder: ObjCBool = false
                let full = url.appendingPathComponent(path).path
                FileManager.default.fileExists(atPath: full, isDirectory: &isFolder)
                chmod(full, isFolder.boolValue ? 0o700 : 0o600)
            }
        }
    }

    deinit { try? FileManager.default.removeItem(at: home) }

    var environment: [String: String] {
        ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
         "XDG_STATE_HOME": home.appendingPathComponent("state").path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
         "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
         "WONDERLAND_SYNC_FOLDER": syncFolder.path]
    }
    var syncFolder: URL { home.appendingPathComponent("sync") }
    var book: URL { home.appendingPathComponent("book.txt") }
    var stateFolder: URL { home.appendingPathComponent("state/wonderland") }
    var archive: Data? { try? Data(contentsOf: stateFolder.appendingPathComponent("restoration.archive")) }

    /// The store a launch of today's app opens in this HOME (the first one moves what an older
    /// release kept in defaults.plist into the collections).
    func store() -> DefaultsStore {
        var options = DefaultsStore.Options()
        options.watchesForChanges = false
        options.collectionsPath = DefaultsStore.standardCollectionsPath(environment: environment)
        return DefaultsStore.standard(environment: environment, options: options)
    }

    /// Today's app launched in this HOME at the journey's terminal size, restoring the archive.
    func launch(bookPath: String? = nil) -> ReleaseLaunch {
        ReleaseLaunch(fixture: self, bookPath: bookPath)
    }

    /// Every record in the sync folder's change files, read by a device of its own.
    func changeRecords() throws -> [ChangeRecord] {
        let backend = try FolderBackend(folder: syncFolder, device: DeviceIdentifier("release-fixture-reader")!)
        return try backend.fetchChanges()
    }

    /// The newest value of each key in the change files.
    func syncedValues() throws -> [String: PropertyListValue?] {
        var newest: [String: ChangeRecord] = [:]
        for record in try changeRecords() where newest[record.key].map({ $0.stamp < record.stamp }) ?? true {
            newest[record.key] = record
        }
        return try newest.mapValues { record in try record.payload.map { try PropertyListReader.value(from: $0) } }
    }

    /// The local copies of the synced store (`synced-store/*.plist`) as today's code loads them.
    func localReplicas() -> [(file: String, replica: LocalReplica?, warning: String?)] {
        let folder = home.appendingPathComponent("data/wonderland/synced-store")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".plist") }.sorted()
        return files.map { file in
            var warning: String?
            let replica = LocalReplicaFile(url: folder.appendingPathComponent(file)).load(warning: &warning)
            return (file, replica, warning)
        }
    }
}

/// One launch of today's app tree in a fixture's HOME, through the restoration controller the
/// app uses (headless, so no tty: what `wonderland` does in its first frame).
final class ReleaseLaunch: Pilot {
    let root: TabScreen
    let services: AppServices
    let store: DefaultsStore
    let controller: RestorationController

    init(fixture: ReleaseFixture, bookPath: String?) {
        let store = fixture.store()
        let launch = LaunchOptions(bookPath: bookPath, environment: fixture.environment)
        let services = AppServices(store: store, bundle: .embedded, launch: launch)
        let root = RootScreen.make(services: services)
        var configuration = RestorationController.Configuration(files: RestorationFiles(folder: fixture.stateFolder), appVersion: AppVersion.current)
        configuration.savesState = false  // reads the release's archive; the copy is never saved over
        let controller = RestorationController(configuration: configuration, engine: RootScreen.restorationEngine(services: services))
        self.root = root
        self.services = services
        self.store = store
        self.controller = controller
        super.init(root, columns: fixture.journey.terminal.columns, rows: fixture.journey.terminal.rows, observers: [controller])
    }

    var characters: NavigationStack? { root.tabs[1] as? NavigationStack }
    var detail: CharacterDetailScreen? { characters?.topScreen as? CharacterDetailScreen }
    var reader: ReaderScreen? { root.tabs.compactMap { $0 as? ReaderScreen }.first }
    func row(of text: String) -> Int? { lines.firstIndex { $0.contains(text) } }

    /// Lets background work (the book's page count) arrive until the screen shows what is
    /// asked, for at most `seconds`.
    func waitFor(seconds: Double = 20, _ shown: ([String]) -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !shown(lines), Date() < deadline {
            usleep(10_000)
            try send(.wake)
        }
    }
}

/// A pin's title and place, whatever stamps a release keeps beside them.
struct PinFields: Equatable {
    let title: String?
    let lat: Double?
    let long: Double?

    init(_ value: PropertyListValue) {
        guard case .dictionary(let fields) = value else { title = nil; lat = nil; long = nil; return }
        func real(_ key: String) -> Double? { if case .real(let x)? = fields[key] { return x }; return nil }
        if case .string(let t)? = fields["title"] { title = t } else { title = nil }
        lat = real("lat")
        long = real("long")
    }

    init(_ pin: ReleaseJourney.Pin) {
        title = pin.title
        lat = pin.lat
        long = pin.long
    }
}
