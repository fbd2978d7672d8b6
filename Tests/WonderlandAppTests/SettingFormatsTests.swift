import Defaults
import Foundation
import PropertyList
import Screens
import Settings
import Terminal
import Testing
@testable import WonderlandApp

@Suite("The forms of wonderland's text settings")
struct SettingFormatsTests {
    let formats = SettingFormats.wonderland

    @Test func eachFormIsTheParserTheAppReadsItWith() {
        let cases: [(key: String, text: String, problem: String?)] = [
            ("HPManualLocation", "48.8566,2.3522", nil),
            ("HPManualLocation", " -33.87, 151.21 ", nil),
            ("HPManualLocation", "200,0", "latitude 200 is outside -90…90"),
            ("HPManualLocation", "48.85", "expected LAT,LON in decimal degrees, like 48.8566,2.3522"),
            ("HPManualLocation", "1e3,2", "latitude “1e3” is not a decimal number"),
            ("HPGPSDAddress", "gps.local:2947", nil),
            ("HPGPSDAddress", "[::1]:2947", nil),
            ("HPGPSDAddress", "localhost:99999", "port “99999” is not a number from 1 to 65535"),
            ("HPGPSDAddress", "::1", "an IPv6 address needs brackets: [::1]:2947"),
            ("WLSyncServer", "postgres://alice@db.example.org/wonderland", nil),
            ("WLSyncServer", "postgres://db.example.org/wonderland", "the server address names no user (postgres://user@host/database)"),
            ("WLSyncServer", "https://alice@db/wl", "a server address starts with postgres://, as in postgres://alice@db.example.org:5432/wonderland"),
            ("WLSyncServer", "postgres://alice@db/wl?sslmode=maybe", "sslmode=maybe is not one of disable, require, verify-ca, verify-full"),
            ("WLSyncFolder", "~/Sync/wonderland", nil),
            ("WLSyncFolder", "postgres://alice@db/wl", "a server address goes in Sync Server, not Sync Folder"),
            ("WLSyncFolder", "/tmp/a\u{7}b", "a folder's path has no control characters"),
            ("WLProfileEmail", "alice@example.org", nil),
            ("WLProfileEmail", "alice", "expected an address like alice@example.org"),
            ("WLProfileEmail", "alice@example..org", "“example..org” is not a mail domain"),
            ("WLProfileEmail", "alice @example.org", "an e-mail address has no spaces"),
        ]
        for (key, text, problem) in cases {
            #expect(formats.problem(forKey: key, text: text) == problem, "\(key) \(text)")
        }
    }

    @Test func emptyMeansNotSetAndOtherKeysHaveNoForm() {
        for key in formats.keys { #expect(formats.problem(forKey: key, text: "  ") == nil, "\(key)") }
        #expect(formats.problem(forKey: "WLProfileName", text: "200,0") == nil)
        #expect(formats.keys == ["HPManualLocation", "HPGPSDAddress", "WLSyncServer", "WLSyncFolder", "WLProfileEmail"])
    }

    @Test func everyFormattedKeyIsATextFieldOfTheBundle() {
        let fields = Set(([SettingsBundle.embedded.root] + SettingsBundle.embedded.panes.values).flatMap { pane in
            pane.items.compactMap { item -> String? in
                if case .textField(let field) = item.specifier { return field.key }
                return nil
            }
        })
        #expect(formats.keys.isSubset(of: fields), "\(formats.keys.subtracting(fields))")
    }

    @Test func theCommandLineRefusalNamesTheKeyAndTheProblem() {
        #expect(formats.refusal(forKey: "HPManualLocation", value: .string("200,0")) == "Not saved: HPManualLocation: latitude 200 is outside -90…90.")
        #expect(formats.refusal(forKey: "HPManualLocation", value: .string("48.85,2.35")) == nil)
        #expect(formats.refusal(forKey: "HPManualLocation", value: .integer(3)) == nil, "only text is checked")
    }

    @Test func theSettingsSheetShowsTheParsersWordsUnderManualLocationAndSavesNothingWrong() throws {
        let store = InMemoryPreferenceStore(values: ["HPManualLocation": .string("48.8566,2.3522")])
        let services = AppServices(store: store, bundle: .embedded)
        let terminal = HeadlessTerminal(size: Size(columns: 80, rows: 30), capabilities: .init(colors: true, unicode: true))
        let app = Application(terminal: terminal, root: RootScreen.make(services: services))
        app.launch()
        func press(_ keys: Key...) throws {
            for key in keys { terminal.enqueue(.key(key)) }
            try app.processPendingEvents()
        }
        try press(.character(","))
        let sheet = try #require(app.modals.first as? SettingsSheet)
        let pane = try #require(sheet.navigation.topScreen as? SettingsScreen)
        #expect(pane.select(rowID: "HPManualLocation"))
        try press(.enter)
        for _ in 0..<20 { try press(.backspace) }
        for character in "200,0" { terminal.enqueue(.key(.character(character))) }
        try press(.enter)
        let row = try #require(terminal.lines.firstIndex { $0.contains("Manual Location") })
        #expect(terminal.lines[row + 1].contains("! latitude 200 is outside -90…90"), "\(terminal.lines)")
        #expect(pane.isEditing)
        #expect(store.object(forKey: "HPManualLocation") == .string("48.8566,2.3522"))
        try press(.escape)
        #expect(!pane.isEditing)
        #expect(store.object(forKey: "HPManualLocation") == .string("48.8566,2.3522"))
    }
}
