import Foundation
import Testing
@testable import Settings
import PropertyList

/// Settings.bundles as iOS reads them: strings tables in either encoding and syntax, the
/// language from the environment, and what iOS lets pass.
@Suite struct SettingsLocalizationTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/interop/settings").standardizedFileURL

    @Test func stringsTablesReadInEveryEncodingAndSyntax() throws {
        let text = """
            /* a comment */ "Title" = "Titel"; // to the end of the line
            Bare = "a \\"quoted\\" \\\\ \\n \\U00e9\\UD83D\\UDE00";
            "Self";
            """
        let expected = ["Title": "Titel", "Bare": "a \"quoted\" \\ \n é😀", "Self": "Self"]
        #expect(try StringsFileReader.read(Data(text.utf8)) == expected)
        #expect(try StringsFileReader.read(Data([0xEF, 0xBB, 0xBF] + Array(text.utf8))) == expected)
        let littleEndian: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(try StringsFileReader.read(Data(littleEndian)) == expected)
        let bigEndian: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(try StringsFileReader.read(Data(bigEndian)) == expected)
        let binary = try BinaryPropertyListWriter.data(from: .dictionary(expected.mapValues(PropertyListValue.string)))
        #expect(try StringsFileReader.read(binary) == expected)
        #expect(try StringsFileReader.read(Data("{ a = b; }".utf8)) == ["a": "b"])
    }

    @Test(arguments: ["\"a\" = \"b\"", "\"a\" = ;", "\"a = \"b\";", "/* open", "a = b; }"])
    func brokenTablesAreRefusedWithALine(text: String) {
        #expect(throws: PropertyListError.self) { try StringsFileReader.read(Data(text.utf8)) }
    }

    @Test func languagesComeFromTheEnvironmentInGettextOrder() {
        #expect(SettingsLanguages.preferred(environment: ["LANGUAGE": "pt_BR:de", "LANG": "fr_FR.UTF-8"])
            == ["pt-BR", "pt", "de", "Base", "en"])
        #expect(SettingsLanguages.preferred(environment: ["LC_ALL": "de_DE.UTF-8@euro", "LANG": "fr_FR"]) == ["de-DE", "de", "Base", "en"])
        #expect(SettingsLanguages.preferred(environment: ["LC_MESSAGES": "ja_JP", "LANG": "fr_FR"]) == ["ja-JP", "ja", "Base", "en"])
        #expect(SettingsLanguages.preferred(environment: ["LANG": "C"], developmentRegion: "fr") == ["Base", "en", "fr"])
    }

    @Test func titlesFootersAndChoicesAreLocalizedFallingBackToTheKey() throws {
        let root: PropertyListValue = .dictionary([
            "StringsTable": "Pane",
            "Title": "Settings",
            "PreferenceSpecifiers": .array([
                .dictionary(["Type": "PSGroupSpecifier", "Title": "General", "FooterText": "Footer"]),
                .dictionary(["Type": "PSMultiValueSpecifier", "Title": "Speed", "Key": "speed", "DefaultValue": 1,
                             "Titles": .array(["Slow", "Fast"]), "ShortTitles": .array(["S", "F"]), "Values": .array([1, 2])]),
            ]),
        ])
        let files: [String: Data] = [
            "Root.plist": try PropertyListSerializer.data(from: root, format: .xml),
            "de.lproj/Pane.strings": Data("\"General\" = \"Allgemein\"; \"Slow\" = \"Langsam\"; \"S\" = \"L\";".utf8),
            "en.lproj/Pane.strings": Data("\"Footer\" = \"The footer\"; \"Slow\" = \"Slowly\"; \"Settings\" = \"Preferences\";".utf8),
        ]
        let bundle = SettingsBundle.load(files: files, languages: ["de", "Base", "en"])
        #expect(bundle.errors.isEmpty)
        #expect(bundle.root.title == "Preferences")
        guard case .group(let group) = bundle.root.items[0].specifier, case .multiValue(let speed) = bundle.root.items[1].specifier else {
            Issue.record("items are not a group and a multi-value")
            return
        }
        #expect(group.title == "Allgemein" && group.footerText == "The footer")
        #expect(speed.title == "Speed")
        #expect(speed.choices.titles == ["Langsam", "Fast"])
        #expect(speed.shortTitles == ["L", "F"])
    }

    @Test func whatIOSLetsPassIsReadAndNoted() throws {
        let root: PropertyListValue = .dictionary(["PreferenceSpecifiers": .array([
            .dictionary(["Type": "IASKButtonSpecifier", "Title": "Press"]),
            .dictionary(["Type": "PSToggleSwitchSpecifier", "Title": "Sync", "Key": "sync", "DefaultValue": "YES"]),
            .dictionary(["Type": "PSTextFieldSpecifier", "Title": "Name", "Key": "name", "AutocorrectionType": "no"]),
        ])])
        let bundle = SettingsBundle.load(files: ["Root.plist": try PropertyListSerializer.data(from: root, format: .xml)], languages: ["en"])
        #expect(bundle.errors.isEmpty)
        #expect(bundle.root.items.map(\.index) == [1, 2])
        #expect(bundle.notes.map(\.description) == [
            "Root.plist item 0: unknown Type \"IASKButtonSpecifier\" is skipped",
            "Root.plist item 1: PSToggleSwitchSpecifier DefaultValue is the string \"YES\", read as the boolean YES",
            "Root.plist item 2: PSTextFieldSpecifier AutocorrectionType \"no\" is read as \"No\"",
        ])
        guard case .toggleSwitch(let sync) = bundle.root.items[0].specifier else { Issue.record("not a toggle"); return }
        #expect(sync.defaultValue == .boolean(true))
    }

    /// The real bundles: every one loads, and German titles come from de.lproj (UTF-8) while
    /// English ones come from en.lproj (UTF-16 with a byte-order mark).
    @Test func realBundlesLoadAndLocalize() throws {
        let utm = Self.corpus.appendingPathComponent("UTM/Settings.bundle")
        let german = SettingsBundle.load(directory: utm, languages: ["de", "Base", "en"])
        #expect(german.notes.filter { $0.kind == .unreadableFile }.isEmpty)
        let titles = german.allPanes.flatMap(\.items).compactMap(\.specifier.title)
        #expect(titles.contains("Im Hintergrund automatisch Pausieren"))
        for name in ["UTM", "CastVideos-ios", "InAppSettingsKit-SampleApp"] {
            let bundle = SettingsBundle.load(directory: Self.corpus.appendingPathComponent("\(name)/Settings.bundle"), languages: ["en"])
            #expect(!bundle.root.items.isEmpty, "\(name)")
            #expect(bundle.notes.filter { $0.kind == .unreadableFile }.isEmpty, "\(name): \(bundle.notes)")
        }
    }
}
