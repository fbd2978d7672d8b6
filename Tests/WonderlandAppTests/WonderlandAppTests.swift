import Foundation
import Testing
@testable import WonderlandApp
import BookFront
import Defaults
import Restoration
import Screens
import ScreensTesting
import Terminal

/// The real screen tree on a headless terminal, driven one step at a time.
private final class AppPilot: Pilot {
    let root: TabScreen

    init(columns: Int = 80, rows: Int = 24, capabilities: TerminalCapabilities = .init(colors: true, unicode: true)) {
        let root = RootScreen.make()
        self.root = root
        super.init(root, columns: columns, rows: rows, capabilities: capabilities)
    }


    var characters: NavigationStack { root.tabs[1] as! NavigationStack }
}

private struct Boom: Error {}

/// A root that throws from a key binding, for the runner's error path.
private final class ThrowingScreen: Screen {
    init() { super.init(title: "Throwing") }
    override var keyBindings: [KeyBinding] { [KeyBinding(.character("!"), help: "Fail") { throw Boom() }] }
}

@Suite("RootScreen")
struct RootScreenTests {
    @Test func screenTreeHasItsRestorationIdentifiers() throws {
        let root = RootScreen.make()
        #expect(root.restorationIdentifier == "RootTabBar")
        #expect(RootScreen.tabBarRestorationID == "RootTabBar")
        #expect(root.tabs.map(\.restorationIdentifier) == ["Map", "Characters", "Book"])
        #expect(root.tabs.map(\.title) == ["Map", "Characters", "Book"])
        #expect(String(describing: type(of: root.tabs[0])) == "MapScreen")
        #expect(root.tabs[2] is ReaderScreen)
        let nav = try #require(root.tabs[1] as? NavigationStack)
        let list = try #require(nav.stack.first as? ListScreen)
        #expect(nav.stack.count == 1)
        #expect(list.restorationIdentifier == "CharacterList")
        // The character list is read when the list first shows, not when the tree is made.
        #expect(list.items.isEmpty)
        list.viewWillAppear()
        #expect(list.items.first == ListItem(id: "alice", title: "Alice", detail: "ch. 1"))
        #expect(Set(list.items.map(\.id)).count == list.items.count)  // ids are unique
    }

    @Test func firstFrameShowsTheMapTab() {
        let pilot = AppPilot()
        #expect(pilot.lines[0] == "  1 Map   2 Characters   3 Book")
        // The map, then its three lines: the pin panel, where the map is, what it is doing.
        #expect(pilot.lines[20] == " No pin yet: r remembers this place")
        #expect(pilot.lines[21].hasPrefix(" Zoom 0/14  ├") && pilot.lines[21].hasSuffix("  20.0° N, 0.0° E"))
        #expect(pilot.lines[22].hasPrefix(" Standard · Follow (no location yet)"))
        #expect(pilot.lines[23].hasPrefix("←↑↓→ Pan  +/- Zoom  / Find a place"))
        #expect(pilot.lines[23].hasSuffix("? Help  q Quit"))
    }

    @Test func charactersTabListsPeopleAndOpensADetailWithNotesOnEnter() throws {
        let pilot = AppPilot()
        try pilot.press(.character("2"))
        #expect(pilot.lines[1] == " Characters")
        #expect(pilot.lines[2] == "▸ Alice  ch. 1")
        #expect(pilot.lines[3] == "  White Rabbit  ch. 1 · Rabbit")
        try pilot.press(.down, .enter)
        #expect(pilot.characters.stack.count == 2)
        let detail = try #require(pilot.characters.topScreen as? CharacterDetailScreen)
        #expect(detail.title == "White Rabbit")
        #expect(detail.restorationIdentifier == "CharacterDetail")
        #expect(detail.restorationClassName == "CharacterDetail")
        #expect(pilot.lines[1] == " Characters › White Rabbit")
        #expect(pilot.lines[2] == " White Rabbit")
        try pilot.press(.character("e"))
        let notesRow = try #require(pilot.lines.firstIndex { $0.hasPrefix("─ Notes (editing") }) + 1
        #expect(pilot.lines[notesRow] == " Write your notes; Esc saves them.")
        #expect(pilot.terminal.frame.cursor == Point(x: 1, y: notesRow))
        try pilot.type("Late, q!")
        #expect(pilot.lines[notesRow] == " Late, q!")
        #expect(pilot.app.terminationReason == nil)
        try pilot.press(.escape)  // saves and stops editing
        #expect(pilot.characters.stack.count == 2)
        #expect(pilot.lines[notesRow] == " Late, q!")
        try pilot.press(.escape)
        #expect(pilot.characters.stack.count == 1)
        #expect(pilot.lines[3] == "▸ White Rabbit  ch. 1 · Rabbit")
    }

    @Test func whileTypingTheBarOffersNoKeyThatWouldBeTyped() throws {
        let pilot = AppPilot()
        try pilot.press(.character("2"))
        #expect(pilot.lines[23].contains("1-3 Go to a tab"), "\(pilot.lines[23])")
        try pilot.press(.enter)
        #expect(pilot.lines[23].contains("1-3 Go to a tab"), "reading a detail takes no text")
        try pilot.press(.character("e"))  // the notes editor takes text: digits and commas are letters now
        #expect(!pilot.lines[23].contains("1-3") && !pilot.lines[23].contains(", Settings"))
        #expect(pilot.lines[23].contains("Esc Save notes") && pilot.lines[23].contains("Tab Next tab"), "\(pilot.lines[23])")
        try pilot.type("1,")
        #expect(pilot.lines.contains(" 1,"))
        #expect(pilot.app.modals.isEmpty)
    }

    @Test func charactersFilterNarrowsTheList() throws {
        let pilot = AppPilot()
        try pilot.press(.character("2"), .character("/"))
        try pilot.type("ha")
        #expect(Array(pilot.lines[2...5]) == [" / ha", "▸ March Hare  ch. 7 · Hare", "  Hatter  ch. 7", ""])
        #expect(pilot.lines[23].hasSuffix(" 2/22"))
    }

    @Test func bookTabShowsTheReader() throws {
        let pilot = AppPilot()
        try pilot.press(.character("3"))
        // No book is installed in the tests' data folder: the tab says how to get one.
        #expect(pilot.lines.contains { $0.contains("wonderland --book PATH") }, "\(pilot.lines)")
    }

    @Test func asciiMonochromeTerminalShowsFallbacks() throws {
        let pilot = AppPilot(capabilities: .init(colors: false, unicode: false))
        try pilot.press(.character("2"))
        #expect(pilot.lines[2] == "> Alice  ch. 1")
        try pilot.press(.enter)
        #expect(pilot.lines[1] == " Characters > Alice")
        #expect(pilot.terminal.frame.cells.allSatisfy { $0.style.foreground == nil && $0.style.background == nil })
        #expect(pilot.terminal.frame.cells.allSatisfy { $0.text.unicodeScalars.allSatisfy { $0.value < 0x80 } })
        try pilot.press(.function(1))
        #expect(pilot.lines.contains { $0.contains("+- Keys: Alice -") }, "\(pilot.lines.joined(separator: "\n"))")
    }
}

@Suite("AppRunner")
struct AppRunnerTests {
    @Test func exitAfterFirstFrameDrawsOnceAndRestores() {
        let terminal = HeadlessTerminal()
        let status = AppRunner.run(.init(exitAfterFirstFrame: true), environment: [:], makeTerminal: { _ in terminal })
        #expect(status == 0)
        #expect(terminal.framesPresented == 1)
        #expect(terminal.isRestored)
        #expect(terminal.lines[0] == "  1 Map   2 Characters   3 Book")
    }

    @Test(arguments: [
        (Event.key(.character("q")), Int32(0)), (.key(.control("c")), 130), (.terminate(.hangup), 129), (.terminate(.terminate), 143),
    ])
    func exitStatusFollowsHowTheAppEnded(_ event: Event, _ status: Int32) {
        let terminal = HeadlessTerminal()
        terminal.enqueue(.key(.character("2")))
        terminal.enqueue(event)
        #expect(AppRunner.run(.init(), environment: [:], makeTerminal: { _ in terminal }) == status)
        #expect(terminal.isRestored)
    }

    @Test func environmentReachesTheTerminalFactory() {
        var seen: [String: String] = [:]
        let terminal = HeadlessTerminal()
        _ = AppRunner.run(.init(exitAfterFirstFrame: true), environment: ["TERM": "xterm-256color"], makeTerminal: { env in
            seen = env
            return terminal
        })
        #expect(seen == ["TERM": "xterm-256color"])
    }

    @Test func anErrorFromTheAppRestoresTheTerminalAndFails() {
        let terminal = HeadlessTerminal()
        terminal.enqueue(.key(.character("!")))
        let status = AppRunner.run(.init(), environment: [:], makeTerminal: { _ in terminal }, makeRoot: { _ in ThrowingScreen() })
        #expect(status == 1)
        #expect(terminal.isRestored)
        #expect(terminal.framesPresented == 1)
    }

    @Test func noTerminalFailsWithStatusOne() {
        var made = 0
        let status = AppRunner.run(.init(), environment: [:], makeTerminal: { _ in
            made += 1
            throw TerminalError.notATerminal
        })
        #expect(status == 1)
        #expect(made == 1)
    }

    @Test func signalNumbersMatchTheShellsConvention() {
        #expect(AppRunner.signalNumber(.quit) == 0)
        #expect(AppRunner.signalNumber(.interrupt) == 2)
        #expect(AppRunner.signalNumber(.hangup) == 1)
        #expect(AppRunner.signalNumber(.terminate) == 15)
    }

    @Test func terminalErrorsHaveOneLineMessages() {
        for error in [TerminalError.notATerminal, .unknownTerminalType("vt999"), .initializationFailed] {
            #expect(!error.description.isEmpty)
            #expect(!error.description.contains("\n"))
        }
        #expect(TerminalError.unknownTerminalType("vt999").description.hasPrefix("unknown terminal type \"vt999\""))
    }
}

@Suite("Launching with --book")
struct BookOptionTests {
    @Test func theBookTabIsShownEvenWhenAnotherTabWasSaved() throws {
        let launch = LaunchOptions(bookPath: "/nowhere/tide.txt", dataFolder: LaunchOptions.emptyDataFolder)
        let services = AppServices(store: InMemoryPreferenceStore(), bundle: .embedded, launch: launch)
        let root = RootScreen.make(services: services)
        #expect(root.selectedTab is ReaderScreen)

        // A saved place on the Characters tab, restored: --book still wins.
        let plain = RootScreen.make()
        plain.select(1)
        let header = RestorationHeader(appVersion: "test", timestamp: Date(), terminalColumns: 80, terminalRows: 24)
        let archive = try RootScreen.restorationEngine().preserve(root: plain, header: header).data
        let restored = RootScreen.make(services: services)
        _ = try RootScreen.restorationEngine(services: services).restore(from: archive, root: restored)
        #expect(restored.selectedTab is ReaderScreen)
    }
}
