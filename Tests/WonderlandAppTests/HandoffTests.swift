import BookFront
import Cloud
import Defaults
import Foundation
import PropertyList
import Restoration
import Screens
import ScreensTesting
import Terminal
import Testing
@testable import WonderlandApp

/// One machine: the app on a headless terminal, its synced store on a shared in-memory cloud,
/// and Handoff. No worker thread: `sync()` does the store's pass, then an idle tick delivers
/// the news as the run loop would.
private final class Machine: Pilot {
    let store: InMemoryPreferenceStore
    let services: AppServices
    let cloud: CloudController
    let handoff: HandoffController
    let stateFolder: URL

    init(_ name: String, on shared: InMemoryCloud, drafts: Bool = true, handoff isOn: Bool = true, extra: [String: PropertyListValue] = [:],
         continuing: HandoffController.ContinueRequest? = nil, bookPath: String? = nil, clock: @escaping () -> Date = Date.init) {
        var values: [String: PropertyListValue] = ["WLHandoff": .boolean(isOn), "WLHandoffDrafts": .boolean(drafts), "WLDeviceName": .string(name)]
        values.merge(extra) { $1 }
        let store = InMemoryPreferenceStore(values: values)
        let launch = LaunchOptions(location: "48.8566,2.3522", bookPath: bookPath, dataFolder: LaunchOptions.emptyDataFolder)
        let services = AppServices(store: store, bundle: .embedded, launch: launch)
        let root = RootScreen.make(services: services)
        var factory = CloudStoreFactory(replicas: nil) { _, _ in shared.backend() }
        factory.startsWorker = false
        let cloud = CloudController(services: services, factory: factory, onNews: {})
        stateFolder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-handoff-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
        let handoff = HandoffController(services: services, cloud: cloud, restoration: nil,
                                        makeRoot: { RootScreen.make(services: $0) }, makeEngine: { RootScreen.restorationEngine(services: $0) },
                                        quarantine: HandoffQuarantine(folderPath: stateFolder.path), appVersion: "0.5.0",
                                        continueRequest: continuing, now: clock)
        self.store = store
        self.services = services
        self.cloud = cloud
        self.handoff = handoff
        super.init(root, columns: 120, rows: 30, observers: [cloud, handoff])
    }

    deinit { try? FileManager.default.removeItem(at: stateFolder) }

    func sync() throws {
        cloud.mirror.store?.synchronize()
        try becomeIdle()
    }

    var tabBar: String { terminal.lines[0] }
    var detail: CharacterDetailScreen? { app.focusChain.lazy.compactMap { $0 as? CharacterDetailScreen }.first }

    /// Characters › the named character, by the list's filter.
    func openCharacter(_ name: String) throws {
        try press(.character("2"))
        try press(.character("/"))
        try type(name)
        try press(.enter)  // the filter's one match, opened
    }

    func editNote(typing text: String, thenLeft moves: Int = 0) throws {
        try press(.character("e"))
        try type(text)
        for _ in 0 ..< moves { try press(.left) }
        try becomeIdle()
    }

    /// The screen's words in one line, for text an alert wraps.
    var screenText: String {
        terminal.lines.joined(separator: " ").replacingOccurrences(of: "│", with: " ").split(separator: " ").joined(separator: " ")
    }

    var handoffKeys: [String] { cloud.mirror.store?.keys(withPrefix: HandoffSettings.storePrefix) ?? [] }
}

@Suite("Handoff")
struct HandoffTests {
    @Test func anotherMachinesPlaceIsOfferedAndHRebuildsItsScreensDraftAndCursor() throws {
        let shared = InMemoryCloud()
        let desk = Machine("desk", on: shared)
        let laptop = Machine("laptop", on: shared)
        try desk.openCharacter("Cheshire")
        try desk.editNote(typing: "Grins without a cat", thenLeft: 3)
        try desk.sync(); try laptop.sync()
        #expect(laptop.tabBar.contains("Continue from desk"), "\(laptop.numberedScreen)")
        #expect(laptop.tabBar.contains("Characters › Cheshire Cat, note draft"))
        #expect(laptop.tabBar.hasSuffix("— h"))
        try laptop.press(.character("h"))
        #expect(laptop.detail?.character.name == "Cheshire Cat", "\(laptop.numberedScreen)")
        #expect(laptop.detail?.isEditing == true)
        #expect(laptop.expectScreen(contains: "Grins without a cat"))
        #expect(laptop.cursor == desk.cursor)
        #expect(!laptop.tabBar.contains("Continue"))
        // Its own place is now the one continued: the desk is offered nothing back.
        try laptop.sync(); try desk.sync()
        #expect(!desk.tabBar.contains("Continue"), "\(desk.numberedScreen)")
    }

    @Test func theDraftContinuedAndTheOneTypedHereAreBothKept() throws {
        let shared = InMemoryCloud()
        let desk = Machine("desk", on: shared)
        let laptop = Machine("laptop", on: shared)
        try laptop.openCharacter("Cheshire")
        try laptop.editNote(typing: "Typed on the laptop")
        try laptop.press(.escape)  // saved
        try laptop.editNote(typing: " and more")  // and a draft on top
        try desk.openCharacter("Cheshire")
        try desk.editNote(typing: "Typed at the desk")
        try desk.sync(); try laptop.sync()
        // The laptop is typing: the offer waits, and every key stays text.
        #expect(laptop.tabBar.contains("Esc, then h"), "\(laptop.numberedScreen)")
        try laptop.type("h")
        #expect(laptop.detail?.draftBytes == "Typed on the laptop and moreh".utf8.count)
        try laptop.press(.escape)
        #expect(laptop.tabBar.hasSuffix("— h"))
        try laptop.press(.character("h"))
        #expect(laptop.expectScreen(contains: "Typed at the desk"))
        let notes = CharacterNotes(store: laptop.store)
        let id = try #require(laptop.detail?.character.id)
        #expect(notes.note(for: id) == "Typed on the laptop and moreh")
        try laptop.press(.escape)
        #expect(notes.note(for: id) == "Typed at the desk")
        #expect(notes.otherVersions(for: id) == ["Typed on the laptop and moreh"])
    }

    @Test func withHandoffOffNothingIsSentAndNothingOffered() throws {
        let shared = InMemoryCloud()
        let syncsThePin: [String: PropertyListValue] = ["HPSyncLocations": .boolean(true)]
        let desk = Machine("desk", on: shared, handoff: false, extra: syncsThePin)
        let laptop = Machine("laptop", on: shared)
        try desk.openCharacter("Cheshire")
        try desk.editNote(typing: "Private")
        try desk.sync(); try laptop.sync()
        #expect(!shared.allRecords.contains { $0.key.hasPrefix(HandoffSettings.storePrefix) && $0.stamp.device == desk.cloud.mirror.store?.device })
        // The laptop's own move is sent, but the desk, with Handoff off, is offered nothing.
        try laptop.openCharacter("Alice")
        try laptop.sync(); try desk.sync()
        #expect(laptop.handoffKeys.count == 1)
        #expect(!desk.tabBar.contains("Continue"))
        // Turned off later: the activity is taken out of the store.
        laptop.store.set(.boolean(false), forKey: HandoffSettings.enabledKey)
        try laptop.app.processPendingEvents()
        desk.store.set(.boolean(true), forKey: HandoffSettings.enabledKey)
        try laptop.sync(); try desk.sync()
        #expect(desk.handoffKeys.isEmpty)
    }

    @Test func withoutDraftsTheScreenTravelsAndTheTextStays() throws {
        let shared = InMemoryCloud()
        let desk = Machine("desk", on: shared, drafts: false)
        let laptop = Machine("laptop", on: shared)
        try desk.openCharacter("Cheshire")
        try desk.editNote(typing: "Not for the laptop")
        try desk.sync(); try laptop.sync()
        #expect(laptop.tabBar.contains("Characters › Cheshire Cat"))
        #expect(!laptop.tabBar.contains("draft"))
        let value = try #require(laptop.cloud.mirror.store?.keys(withPrefix: HandoffSettings.storePrefix).first.flatMap { laptop.cloud.mirror.store?.object(forKey: $0) })
        let bytes = try BinaryPropertyListWriter.data(from: value)
        #expect(bytes.range(of: Data("Not for the laptop".utf8)) == nil)
        try laptop.press(.character("h"))
        #expect(laptop.detail?.character.name == "Cheshire Cat")
        #expect(laptop.detail?.isEditing == false)
    }

    @Test func aDraftTooLargeIsLeftOutAndTheOfferSaysSo() throws {
        let shared = InMemoryCloud()
        let desk = Machine("desk", on: shared)
        let laptop = Machine("laptop", on: shared)
        try desk.openCharacter("Cheshire")
        try desk.press(.character("e"))
        try desk.paste(String(repeating: "We're all mad here. ", count: 2_000))
        try desk.becomeIdle()
        try desk.sync(); try laptop.sync()
        #expect(laptop.tabBar.contains("too long"), "\(laptop.numberedScreen)")
        try laptop.press(.character("h"))
        #expect(laptop.detail?.character.name == "Cheshire Cat")
        #expect(laptop.detail?.isEditing == false)
    }

    @Test func anyOtherKeyWavesTheOfferAwayAndDoesWhatItDoesUntilANewerPlaceComes() throws {
        let shared = InMemoryCloud()
        var time = Date(timeIntervalSince1970: 1_800_000_000)
        let desk = Machine("desk", on: shared) { time }
        let laptop = Machine("laptop", on: shared) { time }
        try desk.openCharacter("Cheshire")
        try desk.becomeIdle()
        try desk.sync(); try laptop.sync()
        #expect(laptop.tabBar.contains("Continue from desk"))
        try laptop.press(.character("3"))
        #expect(!laptop.tabBar.contains("Continue"))
        #expect(laptop.app.focusChain.contains { $0 is ReaderScreen })
        try laptop.sync()
        #expect(!laptop.tabBar.contains("Continue"))
        time += 60
        try desk.press(.escape)  // back to the list: a move
        try desk.becomeIdle()
        try desk.sync(); try laptop.sync()
        #expect(laptop.tabBar.contains("Continue from desk"), "\(laptop.numberedScreen)")
        try laptop.press(.escape)
        #expect(!laptop.tabBar.contains("Continue"))
    }

    @Test func aNewerVersionsPlaceIsShownAndNeverApplied() throws {
        let shared = InMemoryCloud()
        let laptop = Machine("laptop", on: shared)
        let other = UbiquitousKeyValueStore(.init(backend: shared.backend(), device: DeviceIdentifier("0123456789abcdef")))
        other.set(.dictionary(["Version": .integer(2), "Device": .string("studio"), "When": .date(Date()), "Place": .data(Data([1, 2, 3]))]),
                  forKey: HandoffSettings.storePrefix + "0123456789abcdef")
        other.synchronize()
        try laptop.sync()
        #expect(laptop.tabBar.contains("studio"), "\(laptop.numberedScreen)")
        #expect(laptop.tabBar.contains("from a newer wonderland"))
        try laptop.press(.character("h"))
        #expect(!laptop.tabBar.contains("studio"))
        #expect(laptop.detail == nil)
    }

    @Test func forgetMyPlaceOnQuitTakesTheActivityOutAndOtherwiseItStays() throws {
        let shared = InMemoryCloud()
        let desk = Machine("desk", on: shared, extra: [HandoffSettings.forgetOnQuitKey: .boolean(true)])
        let laptop = Machine("laptop", on: shared)
        try desk.openCharacter("Cheshire")
        try desk.becomeIdle()
        try laptop.openCharacter("Alice")
        try laptop.becomeIdle()
        try desk.sync(); try laptop.sync(); try desk.sync()
        #expect(laptop.handoffKeys.count == 2)
        // Without a worker, the last words a quit leaves in the stores are sent by hand.
        let stores = [desk.cloud.mirror.store, laptop.cloud.mirror.store]
        try desk.quit()
        try laptop.quit()
        for store in stores { store?.synchronize() }
        let reader = UbiquitousKeyValueStore(.init(backend: shared.backend()))
        reader.synchronize()
        let left = reader.keys(withPrefix: HandoffSettings.storePrefix).compactMap { reader.object(forKey: $0) }
        #expect(left.count == 1, "only the laptop's place stays")
        if case .activity(let activity)? = left.first.map({ HandoffActivity.read($0) }) { #expect(activity.deviceName == "laptop") }
    }

    @Test func continueStartsAtThatMachinesPlaceAndSaysSoWhenThereIsNone() throws {
        let shared = InMemoryCloud()
        let desk = Machine("desk", on: shared)
        try desk.openCharacter("Cheshire")
        try desk.editNote(typing: "Grins", thenLeft: 2)
        try desk.sync()
        let laptop = Machine("laptop", on: shared, continuing: .device("Desk"))
        #expect(laptop.detail?.character.name == "Cheshire Cat", "\(laptop.numberedScreen)")
        #expect(laptop.detail?.draftBytes == "Grins".utf8.count)
        #expect(laptop.cursor == desk.cursor)
        let nobody = Machine("studio", on: shared, continuing: .device("nobody"))
        #expect(nobody.detail == nil)
        try nobody.settle()
        #expect(nobody.screenText.contains("--continue: no place from nobody to continue"), "\(nobody.numberedScreen)")
        #expect(nobody.tabBar.contains("Continue from desk"), "still offered on the tab bar")
    }

    @Test func theOfferIsInTheHelpWhileItIsOnShow() throws {
        let shared = InMemoryCloud()
        let desk = Machine("desk", on: shared)
        let laptop = Machine("laptop", on: shared)
        #expect(!laptop.app.activeBindings.contains { $0.help.contains("Handoff") })
        try desk.openCharacter("Cheshire")
        try desk.becomeIdle()
        try desk.sync(); try laptop.sync()
        #expect(laptop.app.activeBindings.contains { $0.help == "Continue from desk (Handoff)" })
    }

    @Test func aNewerVersionsPlaceWithScreensThisOneLacksIsShownAsNewerBeforeAnyoneTakesIt() throws {
        final class Saved: Restorable {
            let restorationIdentifier: String?
            let restorableChildren: [any Restorable]
            init(_ identifier: String, _ children: [any Restorable] = []) {
                restorationIdentifier = identifier
                restorableChildren = children
            }
        }
        func place(_ tree: Saved) throws -> PropertyListValue {
            let header = RestorationHeader(appVersion: "9.0.0", timestamp: Date(timeIntervalSince1970: 0), terminalColumns: 0, terminalRows: 0)
            let archive = try RestorationEngine().preserve(root: tree, header: header).data
            return HandoffActivity(deviceName: "studio", appVersion: "9.0.0", when: Date(), path: ["Hologram"], draft: .none, place: archive).propertyList
        }
        let shared = InMemoryCloud()
        let laptop = Machine("laptop", on: shared)
        let other = UbiquitousKeyValueStore(.init(backend: shared.backend(), device: DeviceIdentifier("0123456789abcdef")))
        other.set(try place(Saved(RootScreen.tabBarRestorationID, [Saved("Hologram")])), forKey: HandoffSettings.storePrefix + "0123456789abcdef")
        other.synchronize()
        try laptop.sync()
        #expect(laptop.tabBar.contains("studio"), "\(laptop.numberedScreen)")
        #expect(laptop.tabBar.contains("from a newer wonderland"))
        // The same version's place with nothing this one lacks is offered as any other.
        other.set(try place(Saved(RootScreen.tabBarRestorationID)), forKey: HandoffSettings.storePrefix + "0123456789abcdef")
        other.synchronize()
        try laptop.sync()
        #expect(laptop.tabBar.contains("Continue from studio"), "\(laptop.numberedScreen)")
    }

    @Test func aBooksPlaceMovesOnlyWhenTheOfferIsTaken() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-handoff-book-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("book.txt")
        try Data((1...400).map { "Line \($0) of a long walk down the rabbit hole." }.joined(separator: "\n").utf8).write(to: book)
        let shared = InMemoryCloud()
        let desk = Machine("desk", on: shared, bookPath: book.path)
        let laptop = Machine("laptop", on: shared, bookPath: book.path)
        for machine in [desk, laptop] {
            try machine.press(.character("3"))
            // The book's notes (no chapters found) come up once, in an alert.
            while !machine.app.modals.isEmpty { try machine.press(.enter) }
        }
        try laptop.becomeIdle()
        for _ in 0..<5 { try desk.press(.character(" ")) }
        let deskTop = try #require(desk.terminal.lines.first { $0.contains("Line ") && !$0.contains("Line 1 of") })
        try desk.becomeIdle()
        try desk.sync(); try laptop.sync()
        #expect(laptop.tabBar.contains("Continue from desk"), "\(laptop.numberedScreen)")
        #expect(laptop.expectScreen(contains: "Line 1 of"), "the laptop's page stays until the offer is taken")
        try laptop.press(.character("h"))
        #expect(laptop.terminal.lines.contains(deskTop), "\(laptop.numberedScreen)")
    }

    @Test func aPeersActivityIsReadStrictly() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func read(_ fields: [String: PropertyListValue]) -> HandoffActivity.Reading { HandoffActivity.read(.dictionary(fields), now: now) }
        let good: [String: PropertyListValue] = ["Version": .integer(1), "Device": .string("desk"), "When": .date(now), "Place": .data(Data([1]))]
        guard case .activity = read(good) else { Issue.record("a plain activity was refused"); return }
        #expect(HandoffActivity.read(.string("x"), now: now) == .unreadable("not a dictionary"))
        #expect(read(good.merging(["Version": .string("1")]) { $1 }) == .unreadable("no format version"))
        #expect(read(good.merging(["Place": .data(Data(count: HandoffSettings.maximumBytes + 1))]) { $1 }) != read(good))
        if case .activity = read(good.merging(["Place": .data(Data(count: HandoffSettings.maximumBytes + 1))]) { $1 }) { Issue.record("an oversized place was read") }
        if case .activity = read(good.merging(["When": .date(now.addingTimeInterval(2 * 86_400))]) { $1 }) { Issue.record("a time from the future was read") }
        let hostile = read(good.merging(["Device": .string("evil\u{1b}[2J" + String(repeating: "x", count: 500)),
                                         "Path": .array(Array(repeating: .string(String(repeating: "y", count: 500)), count: 100)),
                                         "App": .string("../../etc")]) { $1 })
        guard case .activity(let activity) = hostile else { Issue.record("not read"); return }
        #expect(!activity.deviceName.contains("\u{1b}"))
        #expect(activity.deviceName.count <= 40)
        #expect(activity.path.count <= 8 && activity.path.allSatisfy { $0.count <= 60 })
        #expect(activity.appVersion == "unknown")
    }

    @Test func anActivityWhoseTakingStoppedTheAppIsNeverOfferedAgain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-quarantine-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let quarantine = HandoffQuarantine(folderPath: folder.path)
        let entry = HandoffQuarantine.Entry(key: HandoffSettings.storePrefix + "abc", when: Date(timeIntervalSince1970: 1_800_000_000))
        try quarantine.markTaking(entry)
        // The app stopped there; the next launch finds the mark.
        #expect(quarantine.quarantineUnfinished() == entry)
        #expect(quarantine.quarantineUnfinished() == nil)
        #expect(quarantine.entries() == [entry])
        var choice = HandoffOfferChoice()
        choice.quarantined = quarantine.entries()
        let offer = HandoffOffer(key: entry.key, deviceName: "desk", when: entry.when, activity: nil)
        #expect(choice.offer(among: [offer]) == nil)
        let newer = HandoffOffer(key: entry.key, deviceName: "desk", when: entry.when + 1, activity: nil)
        #expect(choice.offer(among: [offer, newer]) == newer)
    }

    @Test func continueIsRecognisedInBothSpellings() {
        #expect(AppLaunchArguments.recognise(["--continue"])?.continueRequest == .newest)
        #expect(AppLaunchArguments.recognise(["--continue=desk"])?.continueRequest == .device("desk"))
        #expect(AppLaunchArguments.recognise(["--continue", "--continue=desk"]) == nil)
        #expect(AppLaunchArguments.recognise(["--continue="]) == nil)
    }
}
