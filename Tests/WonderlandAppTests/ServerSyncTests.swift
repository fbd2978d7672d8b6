import Cloud
import CloudServer
import Defaults
import Foundation
import PropertyList
import Screens
import ScreensTesting
import Settings
import Terminal
import Testing
@testable import WonderlandApp

/// The app on a headless terminal whose synced store may run on a folder or on a server. Both
/// are in-memory clouds here (the server's real backend has its own tests and journeys): what
/// is checked is which one the app picks, with which address and password, and that a change
/// of setting switches it live. No worker thread: `sync()` does a pass, then an idle tick.
private final class ServerInstance: Pilot {
    let store: PreferenceStore
    let services: AppServices
    let controller: CloudController
    let made: Made

    final class Made: @unchecked Sendable {
        var folders: [URL] = []
        var servers: [(address: PostgresSyncAddress, password: String?)] = []
        var serverBackends: [KeyValueBackend] = []
    }

    /// `serverBackend` makes what the server backend would be (an in-memory one named like it,
    /// by default); the folder side syncs through `folderCloud`.
    init(store: PreferenceStore, environment: [String: String] = [:], folderCloud: InMemoryCloud = InMemoryCloud(),
         serverCloud: InMemoryCloud = InMemoryCloud(), serverBackend: ((PostgresSyncAddress) -> KeyValueBackend)? = nil) {
        self.store = store
        // Never this machine's own ~/.pgpass.
        var environment = environment
        if environment["PGPASSFILE"] == nil { environment["PGPASSFILE"] = "/nonexistent/wonderland-test/pgpass" }
        let launch = LaunchOptions(location: "48.8566,2.3522", dataFolder: LaunchOptions.emptyDataFolder, environment: environment)
        let services = AppServices(store: store, bundle: .embedded, launch: launch)
        // Made before the controller, as the runner does.
        let root = RootScreen.make(services: services)
        let made = Made()
        var factory = CloudStoreFactory(replicas: nil, makeBackend: { folder, _ in
            made.folders.append(folder)
            return folderCloud.backend()
        }, makeServerBackend: { address, password, _ in
            made.servers.append((address, password))
            let backend = serverBackend?(address) ?? NamedBackend(name: "server \(address)", backend: serverCloud.backend())
            made.serverBackends.append(backend)
            return backend
        })
        factory.startsWorker = false
        let controller = CloudController(services: services, factory: factory, onNews: {})
        self.services = services
        self.made = made
        self.controller = controller
        super.init(root, columns: 140, rows: 30, observers: [controller])
    }

    func sync() throws {
        controller.mirror.store?.synchronize()
        try becomeIdle()
    }

    var tabBar: String { terminal.lines[0] }
    /// The words on the screen, a box's sides and the map's braille dots taken for blanks: the
    /// map is drawn around an alert on the first frame, and its dots are not words.
    var screenText: String {
        let words = terminal.lines.joined(separator: " ").unicodeScalars.map { (0x2800...0x28FF).contains($0.value) || $0 == "│" ? " " : Character($0) }
        return String(words).split(separator: " ").joined(separator: " ")
    }
    func screenContains(_ text: String) -> Bool { terminal.lines.contains { $0.contains(text) } }

    func closeAlerts() throws { while !app.modals.isEmpty { try press(.enter) } }

    func remember(_ title: String) throws {
        try press(.character("r"))
        try type(title)
        try press(.enter)
    }
}

/// An in-memory backend under another name, as the server backend names itself.
private final class NamedBackend: KeyValueBackend, @unchecked Sendable {
    let displayName: String
    let backend: KeyValueBackend
    init(name: String, backend: KeyValueBackend) {
        displayName = name
        self.backend = backend
    }
    func append(_ records: [ChangeRecord]) throws { try backend.append(records) }
    func fetchChanges() throws -> [ChangeRecord] { try backend.fetchChanges() }
    func waitForChanges(timeout: Double) { backend.waitForChanges(timeout: timeout) }
    func wake() { backend.wake() }
    func compact(latest: MergedChanges) {}
}

/// A server that is never reached, for a reason that quotes the password (as a careless
/// library's error could).
private final class RefusingBackend: KeyValueBackend, @unchecked Sendable {
    let displayName: String
    let reason: String
    init(name: String, reason: String) {
        displayName = name
        self.reason = reason
    }
    func append(_ records: [ChangeRecord]) throws { throw BackendUnavailable(reason: reason) }
    func fetchChanges() throws -> [ChangeRecord] { throw BackendUnavailable(reason: reason) }
    func waitForChanges(timeout: Double) {}
    func wake() {}
    func compact(latest: MergedChanges) {}
}

@Suite("Syncing through a server: choosing it, switching live, keeping the password out")
struct ServerSyncTests {
    let locationsOn: [String: PropertyListValue] = ["HPSyncLocations": .boolean(true)]
    let data = URL(fileURLWithPath: "/data/wonderland")
    let noPasswordFile = ["PGPASSFILE": "/nonexistent/wonderland-test/pgpass"]

    // MARK: choosing

    @Test func theEnvironmentBeatsTheSettingsAndAServerBeatsAFolder() throws {
        let store = InMemoryPreferenceStore()
        func place(_ environment: [String: String]) -> CloudSyncPlace {
            CloudSettings.place(store: store, environment: environment.merging(noPasswordFile) { $1 }, dataFolder: data)
        }
        #expect(place([:]) == CloudSyncPlace(kind: .folder(data.appendingPathComponent("cloud")), source: "the default"))
        store.set(.string("/mnt/sync"), forKey: "WLSyncFolder")
        #expect(place([:]).source == "the Sync Folder setting")
        store.set(.string("  postgres://alice@db.example.org/wonderland "), forKey: "WLSyncServer")
        guard case .server(let address, _) = place([:]).kind else { Issue.record("the server setting beats the folder setting"); return }
        #expect(address.description == "postgres://alice@db.example.org:5432/wonderland")
        #expect(place([:]).source == "the Sync Server setting")
        #expect(place(["WONDERLAND_SYNC_FOLDER": "/tmp/here"]) == CloudSyncPlace(kind: .folder(URL(fileURLWithPath: "/tmp/here")), source: "WONDERLAND_SYNC_FOLDER"))
        let fromEnvironment = place(["WONDERLAND_SYNC_FOLDER": "/tmp/here", "WONDERLAND_SYNC_URL": "postgresql://bob@10.0.0.2:6543/shared?sslmode=require"])
        #expect(fromEnvironment.source == "WONDERLAND_SYNC_URL")
        guard case .server(let other, _) = fromEnvironment.kind else { Issue.record("the environment's server beats everything"); return }
        #expect(other == PostgresSyncAddress(user: "bob", host: "10.0.0.2", port: 6543, database: "shared", tls: .require))
    }

    @Test func thePasswordComesFromTheEnvironmentsAddressOrPGPASSWORDAndIsNeverInTheDescription() throws {
        let store = InMemoryPreferenceStore()
        let url = "postgres://alice:fromTheUrl@db.example.org/wl"
        let withUrl = CloudSettings.place(store: store, environment: noPasswordFile.merging(["WONDERLAND_SYNC_URL": url]) { $1 }, dataFolder: data)
        guard case .server(let address, let lookup) = withUrl.kind else { Issue.record("a server"); return }
        #expect(lookup.password == "fromTheUrl")
        #expect(lookup.source == "the address")
        #expect(!address.description.contains("fromTheUrl"))
        let withBoth = CloudSettings.place(store: store, environment: noPasswordFile.merging(["WONDERLAND_SYNC_URL": url, "PGPASSWORD": "fromPG"]) { $1 }, dataFolder: data)
        guard case .server(_, let both) = withBoth.kind else { Issue.record("a server"); return }
        // As libpq: a password written in the address comes before PGPASSWORD.
        #expect(both.password == "fromTheUrl")
        #expect(both.source == "the address")
        #expect(withBoth.redacting("connect to \(url) failed") == "connect to postgres://alice:•••@db.example.org/wl failed")
        // Not distinctive enough (no digit) to be taken out of free text: it might be a word in it.
        #expect(withBoth.redacting("connect failed for alice/fromTheUrl") == "connect failed for alice/fromTheUrl")
    }

    @Test func anUnusableAddressSaysWhyWithoutThePassword() {
        let store = InMemoryPreferenceStore(values: ["WLSyncServer": .string("postgres://alice:hunter2@db:99999/wl")])
        let place = CloudSettings.place(store: store, environment: noPasswordFile, dataFolder: data)
        guard case .unusableServer(let reason) = place.kind else { Issue.record("unusable: \(place)"); return }
        #expect(reason == "the Sync Server setting is not a usable server address: the port 99999 is not between 1 and 65535")
        #expect(!reason.contains("hunter2"))
    }

    @Test func theAppsFactoryMakesTheHelpersBackendForAServer() throws {
        let address = try PostgresSyncAddress(parsing: "postgres://alice@db.example.org:5433/wl")
        let backend = CloudStoreFactory.serverBackend(address: address, password: "pw", device: DeviceIdentifier("phone")!)
        let proxy = try #require(backend as? SyncHelperBackend)
        #expect(proxy.address == address)
        #expect(proxy.device == DeviceIdentifier("phone")!)
        #expect(proxy.options.helperPath == nil, "found beside the app, or where WONDERLAND_SYNC_SERVER_HELPER says")
        #expect(proxy.displayName == "server postgres://alice@db.example.org:5433/wl")
    }

    // MARK: switching live

    @Test func aServerSetWhileTheAppRunsTakesOverFromTheFolderAndBackNothingLost() throws {
        let folderCloud = InMemoryCloud()
        let serverCloud = InMemoryCloud()
        let phone = ServerInstance(store: InMemoryPreferenceStore(values: locationsOn), environment: ["PGPASSWORD": "from-env"],
                                   folderCloud: folderCloud, serverCloud: serverCloud)
        try phone.sync()
        #expect(phone.made.folders.count == 1)
        #expect(phone.tabBar.hasSuffix("synced"))
        try phone.remember("Rabbit hole")
        try phone.sync()
        #expect(folderCloud.allRecords.map(\.key) == ["HPLocation"])

        // As the settings screens or `wonderland defaults write` would.
        phone.store.set(.string("postgres://alice@db.example.org/wl"), forKey: "WLSyncServer")
        try phone.app.processPendingEvents()
        let server = try #require(phone.made.servers.last)
        #expect(server.address.description == "postgres://alice@db.example.org:5432/wl")
        #expect(server.password == "from-env")
        try phone.sync(); try phone.sync()
        #expect(phone.tabBar.hasSuffix("synced · server postgres://alice@db.example.org:5432/wl"))
        #expect(phone.screenContains("Rabbit hole"), "the pin stays")
        #expect(serverCloud.allRecords.map(\.key) == ["HPLocation"], "and goes to the server, which had none")

        // A pin from another device on the server arrives.
        let laptop = ServerInstance(store: InMemoryPreferenceStore(values: locationsOn.merging(["WLSyncServer": .string("postgres://alice@db.example.org/wl")]) { $1 }),
                                    serverCloud: serverCloud)
        try laptop.sync()
        #expect(laptop.screenContains("Rabbit hole"))
        try laptop.remember("Tea party")
        try laptop.sync(); try phone.sync()
        #expect(phone.screenContains("Tea party"))

        // Back to the folder: the store reopens there; the local pin stays.
        phone.store.set(.string(""), forKey: "WLSyncServer")
        try phone.app.processPendingEvents()
        #expect(phone.made.folders.count == 2)
        try phone.sync(); try phone.sync()
        #expect(phone.tabBar.hasSuffix("synced"))
        #expect(!phone.tabBar.contains("server"))
        #expect(phone.screenContains("Tea party") || phone.screenContains("Rabbit hole"))
    }

    @Test func anUnusableAddressLeavesTheAppOfflineOnItsOwnCopySaysWhyOnceAndRecoversWhenPutRight() throws {
        let serverCloud = InMemoryCloud()
        let phone = ServerInstance(store: InMemoryPreferenceStore(values: locationsOn), serverCloud: serverCloud)
        try phone.sync()
        try phone.remember("Before the typo")
        try phone.sync()
        phone.store.set(.string("postgres://alice@db.example.org:70000/wl"), forKey: "WLSyncServer")
        try phone.sync()
        #expect(phone.made.servers.isEmpty, "no backend is made for an address that cannot be used")
        #expect(phone.tabBar.contains("offline: the Sync Server setting is not a usable server address"))
        #expect(phone.app.modals.count == 1)
        #expect(phone.screenText.contains("the port 70000 is not between 1 and 65535"))
        try phone.closeAlerts()
        try phone.remember("During the typo")
        try phone.sync(); try phone.sync()
        #expect(phone.app.modals.isEmpty, "told once")
        #expect(phone.screenContains("During the typo"), "the app keeps working")
        #expect(phone.tabBar.contains("offline"))

        phone.store.set(.string("postgres://alice@db.example.org/wl"), forKey: "WLSyncServer")
        try phone.sync(); try phone.sync()
        #expect(phone.tabBar.hasSuffix("synced · server postgres://alice@db.example.org:5432/wl"))
        let sent = try #require(serverCloud.allRecords.last?.payload)
        guard case .dictionary(let pin) = try BinaryPropertyListReader.read(sent), case .string(let title)? = pin["title"] else {
            Issue.record("a pin reaches the server"); return
        }
        #expect(title.hasSuffix("During the typo"), "the pin made meanwhile reaches the server")
    }

    // MARK: the password

    @Test func aPasswordFoundInTheSettingIsRemovedUsedForThisRunAndToldOnce() throws {
        let store = InMemoryPreferenceStore(values: locationsOn.merging(["WLSyncServer": .string("postgres://alice:s3cret-word@db.example.org/wl")]) { $1 })
        let phone = ServerInstance(store: store)
        #expect(store.object(forKey: "WLSyncServer") == .string("postgres://alice@db.example.org/wl"))
        #expect(phone.made.servers.last?.password == "s3cret-word", "still used this run")
        #expect(phone.made.servers.count == 1, "opened once, not again after the rewrite")
        #expect(phone.app.modals.count == 1)
        try phone.app.processPendingEvents()
        #expect(phone.screenText.contains("held a password"))
        #expect(phone.screenText.contains("~/.pgpass"))
        #expect(!phone.terminal.lines.joined().contains("s3cret-word"))
        try phone.closeAlerts()
        try phone.sync()
        #expect(phone.tabBar.hasSuffix("synced · server postgres://alice@db.example.org:5432/wl"))

        // Written again by another tool while the app runs: removed again, and the store stays.
        store.simulateExternalChange(["WLSyncServer": .string("postgres://alice:s3cret-word@db.example.org/wl")])
        try phone.sync()
        #expect(store.object(forKey: "WLSyncServer") == .string("postgres://alice@db.example.org/wl"))
        #expect(phone.made.servers.count == 1)
        #expect(phone.app.modals.isEmpty, "told once per run")
    }

    @Test func thePasswordLeavesTheDefaultsFileItself() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-server-defaults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("defaults.plist")
        let written = try XMLPropertyListWriter.data(from: .dictionary(["HPSyncLocations": .boolean(true),
                                                                        "WLSyncServer": .string("postgres://alice:pa%40ss-in-file@db/wl")]))
        try written.write(to: file)
        let defaults = DefaultsStore(fileURL: file)
        let phone = ServerInstance(store: defaults)
        try defaults.flush()
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(!saved.contains("pa%40ss-in-file") && !saved.contains("pa@ss-in-file"))
        #expect(saved.contains("postgres://alice@db/wl"))
        #expect(phone.made.servers.last?.password == "pa@ss-in-file")
    }

    @Test func aPasswordInAnErrorMessageIsNeverShown() throws {
        let phone = ServerInstance(store: InMemoryPreferenceStore(values: locationsOn.merging(["WLSyncServer": .string("postgres://alice@db/wl")]) { $1 }),
                                   environment: ["PGPASSWORD": "leaky-s3cret"]) { address in
            RefusingBackend(name: "server \(address)", reason: "password authentication failed for \"alice\" with leaky-s3cret")
        }
        try phone.sync()
        #expect(phone.tabBar.contains("offline: password authentication failed"))
        #expect(phone.tabBar.contains("•••"))
        #expect(!phone.terminal.lines.joined().contains("leaky-s3cret"))
    }

    @Test func theSettingsProgramRefusesAnAddressWithAPasswordAndSaysWhereItGoes() throws {
        let store = InMemoryPreferenceStore()
        let guarded = CloudServerSettingGuard(store: store)
        var told: [String] = []
        guarded.onRefusal = { told.append($0) }
        guarded.set(.string("postgres://alice:secret@db/wl"), forKey: "WLSyncServer")
        #expect(store.writes.isEmpty)
        #expect(told.count == 1)
        #expect(told.first?.contains("~/.pgpass") == true && told.first?.contains("PGPASSWORD") == true)
        #expect(told.first?.contains("secret") == false)
        guarded.set(.string("postgres://alice@db/wl"), forKey: "WLSyncServer")
        guarded.set(.string("/mnt/a:b@c"), forKey: "WLSyncFolder")
        #expect(store.object(forKey: "WLSyncServer") == .string("postgres://alice@db/wl"))
        #expect(store.object(forKey: "WLSyncFolder") == .string("/mnt/a:b@c"), "only the server address is checked")
        #expect(told.count == 1)

        // Saved by another tool: shown without it, and typing the same address again is refused.
        store.set(.string("postgres://alice:secret@db/wl"), forKey: "WLSyncServer")
        #expect(guarded.object(forKey: "WLSyncServer") == .string("postgres://alice@db/wl"))
        guarded.set(.string("postgres://alice:secret@db/wl"), forKey: "WLSyncServer")
        #expect(told.count == 2)
    }

    @Test func theSettingsScreenThroughTheGuardShowsTheRefusal() throws {
        let store = InMemoryPreferenceStore()
        let guarded = CloudServerSettingGuard(store: store)
        let root = SettingsScreen.makeRoot(bundle: .embedded, store: guarded)
        guarded.onRefusal = { [weak root] message in root?.present(Alert(title: "Sync Server", message: message)) }
        let pilot = Pilot(root, columns: 100, rows: 30)
        let screen = try #require(root.topScreen as? SettingsScreen)
        #expect(screen.select(rowID: "WLSyncServer"))
        try pilot.press("enter")
        try pilot.type("postgres://alice:hunter2@db/wl")
        try pilot.press("enter")
        #expect(pilot.app.modals.count == 1)
        #expect(pilot.lines.joined(separator: " ").contains("not saved"))
        #expect(store.object(forKey: "WLSyncServer") == .string(""))
    }

    // MARK: finding the password in the text

    @Test func thePasswordIsFoundInEveryFormOfAddress() {
        let cases: [(String, String?, String?)] = [
            ("postgres://alice:secret@db.example.org:5432/wl?sslmode=require", "postgres://alice@db.example.org:5432/wl?sslmode=require", "secret"),
            ("postgresql://alice:pa%40ss@db/wl", "postgresql://alice@db/wl", "pa@ss"),
            ("postgres://alice:p@ss/word@db/wl", "postgres://alice@db/wl", "p@ss/word"),
            ("postgres://alice:@db/wl", "postgres://alice@db/wl", ""),
            ("postgres://alice:secret@db:bad-port/wl?nonsense=1", "postgres://alice@db:bad-port/wl?nonsense=1", "secret"),
            ("postgres://alice@db/wl", nil, nil),
            ("postgres://db:5432/wl", nil, nil),
            ("postgres://alice@db/wl?application_name=a:b@c", nil, nil),
            ("/home/alice/Sync", nil, nil),
        ]
        for (text, address, password) in cases {
            let split = URLPassword.split(from: text)
            #expect(split?.address == address, "\(text)")
            #expect(split?.password == password, "\(text)")
        }
    }
}
