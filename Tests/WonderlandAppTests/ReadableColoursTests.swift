import Defaults
import Foundation
import PropertyList
import Screens
import ScreensTesting
import Settings
import Terminal
import Testing
@testable import WonderlandApp

/// The whole app walked through on a headless terminal — every tab, its modals, the settings,
/// the help and the messages, each page theme — gathering the style of every character it
/// draws, then each style resolved against the palettes of common terminals (ScreensTesting's
/// `TerminalPalette.common`) and held to WCAG's 4.5:1. The map's land and lines, drawn only
/// with map data, are held to their own rule in MapFrontTests' `MapColoursTests`.
@Suite("Colours people can read")
struct ReadableColoursTests {
    private final class Walk: Pilot {
        let store: InMemoryPreferenceStore
        let services: AppServices
        var drawn = DrawnStyles()

        init(colors: Bool, bookPath: String) {
            let store = InMemoryPreferenceStore()
            let launch = LaunchOptions(location: "48.8566,2.3522", bookPath: bookPath, dataFolder: LaunchOptions.emptyDataFolder)
            let services = AppServices(store: store, bundle: .embedded, launch: launch)
            self.store = store
            self.services = services
            super.init(RootScreen.make(services: services), columns: 100, rows: 30, capabilities: .init(colors: colors, unicode: true))
            look()
        }

        func look() { drawn.collect(terminal.frame) }

        func step(_ keys: Key...) throws {
            for key in keys {
                try press(key)
                look()
            }
        }

        func step(typing text: String) throws {
            try type(text)
            look()
        }

        func setting(_ key: String, _ value: PropertyListValue) throws {
            store.simulateExternalChange([key: value])
            try settle()
            look()
        }
    }

    /// A book with chapters, strong and emphasised words, and words to find.
    private static func writeBook() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-colours-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let chapter = "Alice was beginning to get **very tired** of sitting by her sister on the bank, and of having *nothing* to do. "
        let text = (1...3).map { "# Chapter \($0)\n\n" + String(repeating: chapter, count: 12) }.joined(separator: "\n\n")
        let book = folder.appendingPathComponent("wonderland.md")
        try Data(text.utf8).write(to: book)
        return book
    }

    private func walkEverywhere(colors: Bool) throws -> DrawnStyles {
        let book = try Self.writeBook()
        defer { try? FileManager.default.removeItem(at: book.deletingLastPathComponent()) }
        let walk = Walk(colors: colors, bookPath: book.path)
        try walk.step(.escape)  // the book's notes, if it had any to say
        try walk.step(.character("1"))
        try mapTab(walk)
        walk.services.cloudStatus.text = "offline, 1 change waiting: folder missing: /media/share"
        walk.app.setNeedsDisplay()
        try walk.settle()
        walk.look()
        walk.services.cloudStatus.text = nil
        try charactersTab(walk)
        try bookTab(walk)
        try overlays(walk)
        try settings(walk)
        try walk.resize(columns: 30, rows: 8)
        walk.look()
        try walk.resize(columns: 100, rows: 30)
        return walk.drawn
    }

    private func mapTab(_ walk: Walk) throws {
        for _ in 0..<3 { try walk.step(.character("m")) }  // Standard, Satellite, Hybrid, back
        try walk.step(.character("r"))
        try walk.step(typing: "Home")
        try walk.step(.enter)
        try walk.step(.character("c"))  // the confirmation, then kept
        try walk.step(.escape)
        try walk.step(.character("/"))
        try walk.step(typing: "Par")
        try walk.step(.escape)
        // Far enough east that the pin is off screen: the arrow on the edge.
        for _ in 0..<4 { try walk.step(.character("+")) }
        for _ in 0..<12 { try walk.step(.character("l")) }
        try walk.step(.character("."))
        try walk.step(.character("t"))
    }

    private func charactersTab(_ walk: Walk) throws {
        try walk.step(.character("2"), .down, .down)
        try walk.step(.character("/"))
        try walk.step(typing: "ha")
        try walk.step(.enter, .escape)
        try walk.step(.character("f"), .character("F"), .escape)
        try walk.step(.enter)  // a character's page
        try walk.step(.character("e"))
        try walk.step(typing: "Curiouser and curiouser!")
        try walk.step(.escape, .escape)
    }

    private func bookTab(_ walk: Walk) throws {
        try walk.step(.character("3"))
        try walk.step(.character("/"))
        try walk.step(typing: "tired")
        try walk.step(.enter, .character("n"))
        for theme in ["paper", "sepia", "night", "terminal"] {
            try walk.setting("WLTheme", .string(theme))
            try walk.step(.pageDown)
        }
        try walk.step(.character("t"), .down, .escape)
        try walk.step(.character("a"), .character("B"), .escape)
        try walk.step(.character("o"))
        try walk.step(typing: "/nowhere")
        try walk.step(.escape)
    }

    private func overlays(_ walk: Walk) throws {
        try walk.step(.character("?"), .pageDown, .escape)
        try walk.step(.character("M"), .escape)
    }

    private func settings(_ walk: Walk) throws {
        try walk.step(.character(","))
        for _ in 0..<20 { try walk.step(.down) }
        let sheet = try #require(walk.app.modals.first as? SettingsSheet)
        let pane = try #require(sheet.navigation.topScreen as? SettingsScreen)
        #expect(pane.select(rowID: "HPManualLocation"))
        try walk.step(.enter)
        try walk.step(typing: "north")  // of the wrong form: the line under it says so
        try walk.step(.escape)
        #expect(pane.select(rowID: "HPMapType"))
        try walk.step(.enter, .down, .escape)
        try walk.step(.escape)
    }

    private func check(_ drawn: DrawnStyles) {
        let problems = drawn.contrastProblems()
        let weakest = drawn.weakestTextContrast().map { "\($0.palette) \(DrawnStyles.ratio($0.ratio)):1 (\($0.style))" }
        #expect(problems.isEmpty, "\(problems.count) pairs under the minimum; weakest per palette: \(weakest.joined(separator: "; "))\n\(problems.joined(separator: "\n"))")
        #expect(drawn.text.count >= 4, "the walk saw the app draw: \(drawn.text)")
    }

    @Test("every pair the app draws in colour reads at 4.5:1 in every common palette")
    func inColour() throws {
        check(try walkEverywhere(colors: true))
    }

    @Test("and with colours off (NO_COLOR), on the terminal's own colours")
    func withoutColour() throws {
        let drawn = try walkEverywhere(colors: false)
        #expect(drawn.text.keys.allSatisfy { $0.foreground == nil && $0.background == nil })
        check(drawn)
    }
}
