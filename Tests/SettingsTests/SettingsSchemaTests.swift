import Foundation
import Testing
import Defaults
import PropertyList
import Settings

/// A specifier dictionary.
private func specifier(_ type: String, _ fields: [String: PropertyListValue] = [:]) -> PropertyListValue {
    var dictionary = fields
    dictionary["Type"] = .string(type)
    return .dictionary(dictionary)
}

/// A pane file: PreferenceSpecifiers and an optional Title, as XML.
private func paneData(_ items: [PropertyListValue], title: String? = nil) -> Data {
    var top: [String: PropertyListValue] = ["PreferenceSpecifiers": .array(items)]
    if let title { top["Title"] = .string(title) }
    return try! PropertyListSerializer.data(from: .dictionary(top), format: .xml)
}

private func strings(_ values: String...) -> PropertyListValue { .array(values.map(PropertyListValue.string)) }
private func integers(_ values: Int64...) -> PropertyListValue { .array(values.map(PropertyListValue.integer)) }

/// The repository's Resources/Settings.bundle.
private let repositoryBundle = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Resources/Settings.bundle")

@Suite("Settings schema")
struct SettingsSchemaTests {
    private let group = specifier("PSGroupSpecifier", ["Title": "Sync"])

    private func load(_ root: [PropertyListValue], _ others: [String: [PropertyListValue]] = [:]) -> SettingsBundle {
        var files = ["Root.plist": paneData(root)]
        for (name, items) in others { files[name + ".plist"] = paneData(items) }
        return SettingsBundle.load(files: files)
    }

    @Test func everySpecifierTypeIsParsed() throws {
        let bundle = load([
            specifier("PSGroupSpecifier", ["Title": "General", "FooterText": "Below the group."]),
            specifier("PSTextFieldSpecifier", ["Title": "Name", "Key": "name", "DefaultValue": "Alice", "IsSecure": true,
                                               "KeyboardType": "EmailAddress", "AutocapitalizationType": "Words", "AutocorrectionType": "No"]),
            specifier("PSToggleSwitchSpecifier", ["Title": "Warp", "Key": "warp", "DefaultValue": "engaged",
                                                  "TrueValue": "engaged", "FalseValue": "idle"]),
            specifier("PSSliderSpecifier", ["Key": "warpFactor", "DefaultValue": 5, "MinimumValue": 1, "MaximumValue": 10,
                                            "MinimumValueImage": "turtle", "MaximumValueImage": "rabbit"]),
            specifier("PSMultiValueSpecifier", ["Title": "Rank", "Key": "rank", "Titles": strings("Ensign", "Captain"),
                                                "ShortTitles": strings("Ens", "Capt"), "Values": strings("ensign", "captain"), "DefaultValue": "ensign"]),
            specifier("PSRadioGroupSpecifier", ["Title": "Units", "FooterText": "Distances.", "Key": "units",
                                                "Titles": strings("Kilometres", "Miles"), "Values": strings("km", "mi"), "DefaultValue": "km"]),
            specifier("PSTitleValueSpecifier", ["Title": "Version", "Key": "version", "DefaultValue": 2,
                                                "Titles": strings("One", "Two"), "Values": integers(1, 2)]),
            specifier("PSChildPaneSpecifier", ["Title": "More Settings", "File": "More"]),
        ], ["More": [specifier("PSToggleSwitchSpecifier", ["Title": "Fast", "Key": "fast", "DefaultValue": true])]])
        #expect(bundle.errors == [])
        let items = bundle.root.items.map(\.specifier)
        #expect(items.map(\.typeName) == SettingsSpecifier.allTypeNames)

        #expect(items[0] == .group(GroupSpecifier(title: "General", footerText: "Below the group.")))
        guard case .textField(let field) = items[1] else { Issue.record("not a text field"); return }
        #expect(field.title == "Name" && field.key == "name" && field.defaultValue == "Alice" && field.isSecure)
        #expect(field.keyboardType == .emailAddress && field.autocapitalizationType == .words && field.autocorrectionType == .no)
        guard case .toggleSwitch(let toggle) = items[2] else { Issue.record("not a toggle"); return }
        #expect(toggle.trueValue == "engaged" && toggle.falseValue == "idle" && toggle.defaultValue == "engaged")
        #expect(toggle.isOn(nil) && toggle.isOn("engaged") && !toggle.isOn("idle"))
        #expect(toggle.value(for: false) == "idle")
        guard case .slider(let slider) = items[3] else { Issue.record("not a slider"); return }
        #expect(slider.minimumValue == 1 && slider.maximumValue == 10 && slider.defaultValue == 5 && slider.isIntegral)
        #expect(slider.minimumValueImage == "turtle" && slider.maximumValueImage == "rabbit")
        guard case .multiValue(let multi) = items[4] else { Issue.record("not a multi-value"); return }
        #expect(multi.choices.titles == ["Ensign", "Captain"] && multi.choices.values == ["ensign", "captain"])
        #expect(multi.shortTitle(for: "captain") == "Capt" && multi.defaultValue == "ensign")
        guard case .radioGroup(let radio) = items[5] else { Issue.record("not a radio group"); return }
        #expect(radio.title == "Units" && radio.footerText == "Distances." && radio.key == "units" && radio.choices.values == ["km", "mi"])
        guard case .titleValue(let titleValue) = items[6] else { Issue.record("not a title value"); return }
        #expect(titleValue.choices?.title(for: .integer(2)) == "Two" && titleValue.choices?.title(for: .real(1)) == "One")
        #expect(items[7] == .childPane(ChildPaneSpecifier(title: "More Settings", file: "More")))
        #expect(bundle.pane(named: "More")?.title == "More Settings")
        #expect(bundle.pane(named: "More")?.items.count == 1)
        #expect(bundle.allPanes.map(\.name) == ["Root", "More"])
        #expect(bundle.root.items.map(\.index) == Array(0...7))
    }

    /// One bad item at index 1 between good ones: the error names file and index, and the
    /// good items stay.
    @Test(arguments: [
        (.dictionary(["Title": "No type"]), "Root.plist item 1: has no Type", SettingsSchemaError.Kind.missingField),
        (.string("PSGroupSpecifier"), "Root.plist item 1: is a string, expected a dictionary", .wrongType),
        (specifier("PSToggleSwitchSpecifier", ["Title": "Warp", "DefaultValue": true]), "Root.plist item 1: PSToggleSwitchSpecifier has no Key", .missingField),
        (specifier("PSTextFieldSpecifier", ["Title": "Name"]), "Root.plist item 1: PSTextFieldSpecifier has no Key", .missingField),
        (specifier("PSSliderSpecifier", ["DefaultValue": 1, "MinimumValue": 0, "MaximumValue": 2]), "Root.plist item 1: PSSliderSpecifier has no Key", .missingField),
        (specifier("PSTitleValueSpecifier", ["Title": "Version", "Key": "v"]), "Root.plist item 1: PSTitleValueSpecifier has no DefaultValue", .missingField),
        (specifier("PSChildPaneSpecifier", ["Title": "More"]), "Root.plist item 1: PSChildPaneSpecifier has no File", .missingField),
        (specifier("PSMultiValueSpecifier", ["Title": "Rank", "Key": "rank", "Titles": strings("A", "B", "C"), "Values": strings("a", "b"), "DefaultValue": "a"]),
         "Root.plist item 1: PSMultiValueSpecifier Titles has 3 entries but Values has 2", .lengthMismatch),
        (specifier("PSRadioGroupSpecifier", ["Key": "u", "Titles": strings("A"), "Values": strings("a", "b"), "DefaultValue": "a"]),
         "Root.plist item 1: PSRadioGroupSpecifier Titles has 1 entries but Values has 2", .lengthMismatch),
        (specifier("PSMultiValueSpecifier", ["Title": "Rank", "Key": "rank", "Titles": strings("A", "B"), "ShortTitles": strings("A"), "Values": strings("a", "b"), "DefaultValue": "a"]),
         "Root.plist item 1: PSMultiValueSpecifier ShortTitles has 1 entries but Values has 2", .lengthMismatch),
        (specifier("PSMultiValueSpecifier", ["Title": "Rank", "Key": "rank", "Titles": strings("A", "B"), "Values": strings("a", "b"), "DefaultValue": "z"]),
         "Root.plist item 1: PSMultiValueSpecifier DefaultValue z is not one of the Values", .outOfRange),
        (specifier("PSSliderSpecifier", ["Key": "w", "DefaultValue": 200, "MinimumValue": 40, "MaximumValue": 120]),
         "Root.plist item 1: PSSliderSpecifier DefaultValue 200 is outside 40…120", .outOfRange),
        (specifier("PSSliderSpecifier", ["Key": "w", "DefaultValue": 0.5, "MinimumValue": 1.5, "MaximumValue": 0.5]),
         "Root.plist item 1: PSSliderSpecifier MinimumValue 1.5 is not below MaximumValue 0.5", .outOfRange),
        (specifier("PSSliderSpecifier", ["Key": "w", "DefaultValue": 5, "MinimumValue": "low", "MaximumValue": 10]),
         "Root.plist item 1: PSSliderSpecifier MinimumValue is a string, expected a number", .wrongType),
        (specifier("PSToggleSwitchSpecifier", ["Title": 7, "Key": "warp", "DefaultValue": true]),
         "Root.plist item 1: PSToggleSwitchSpecifier Title is an integer, expected a string", .wrongType),
        (specifier("PSToggleSwitchSpecifier", ["Title": "Warp", "Key": "warp", "DefaultValue": "maybe"]),
         "Root.plist item 1: PSToggleSwitchSpecifier DefaultValue is a string maybe, expected a boolean", .wrongType),
        (specifier("PSTextFieldSpecifier", ["Key": "name", "DefaultValue": 3]),
         "Root.plist item 1: PSTextFieldSpecifier DefaultValue is an integer, expected a string", .wrongType),
        (specifier("PSTextFieldSpecifier", ["Key": "name", "IsSecure": "YES"]),
         "Root.plist item 1: PSTextFieldSpecifier IsSecure is a string, expected a boolean", .wrongType),
        (specifier("PSTextFieldSpecifier", ["Key": "name", "KeyboardType": "Emoji"]),
         "Root.plist item 1: PSTextFieldSpecifier KeyboardType \"Emoji\" is not one of Alphabet, NumbersAndPunctuation, NumberPad, URL, EmailAddress", .wrongType),
        (specifier("PSMultiValueSpecifier", ["Title": "Rank", "Key": "rank", "Titles": .array(["A", 2]), "Values": strings("a", "b"), "DefaultValue": "a"]),
         "Root.plist item 1: PSMultiValueSpecifier Titles[1] is an integer, expected a string", .wrongType),
        (specifier("PSMultiValueSpecifier", ["Title": "Rank", "Key": "rank", "Titles": strings("A"), "Values": .array([.array([])]), "DefaultValue": "a"]),
         "Root.plist item 1: PSMultiValueSpecifier Values[0] is an array, expected a string, number or boolean", .wrongType),
        (specifier("PSChildPaneSpecifier", ["Title": "More", "File": "Nowhere"]),
         "Root.plist item 1: PSChildPaneSpecifier File \"Nowhere\": Nowhere.plist not found", .missingChildPane),
        (specifier("PSChildPaneSpecifier", ["Title": "Again", "File": "Root"]),
         "Root.plist item 1: PSChildPaneSpecifier File \"Root\" makes a cycle: Root.plist → Root.plist", .cyclicChildPane),
    ] as [(PropertyListValue, String, SettingsSchemaError.Kind)])
    func schemaErrorsNameFileAndIndexAndKeepTheRest(bad: PropertyListValue, message: String, kind: SettingsSchemaError.Kind) {
        let good = specifier("PSToggleSwitchSpecifier", ["Title": "Sync", "Key": "sync", "DefaultValue": false])
        let bundle = load([group, bad, good])
        #expect(bundle.errors.map(\.description) == [message])
        #expect(bundle.errors.first?.kind == kind)
        #expect(bundle.errors.first?.index == 1)
        #expect(bundle.root.errors == bundle.errors)
        #expect(bundle.root.items.map(\.index) == [0, 2])
        #expect(bundle.registrationDefaults == ["sync": false])
    }

    @Test func anItemWithSeveralProblemsReportsEach() {
        let bundle = load([specifier("PSMultiValueSpecifier", ["Title": 1, "Values": strings("a")])])
        #expect(bundle.errors.map(\.description) == [
            "Root.plist item 0: PSMultiValueSpecifier Title is an integer, expected a string",
            "Root.plist item 0: PSMultiValueSpecifier has no Key",
            "Root.plist item 0: PSMultiValueSpecifier has no Titles",
            "Root.plist item 0: PSMultiValueSpecifier has no DefaultValue",
        ])
        #expect(bundle.root.items.isEmpty)
    }

    @Test func aCycleThroughAChildPaneIsReportedInTheFileThatCloses() {
        let bundle = load(
            [specifier("PSChildPaneSpecifier", ["Title": "A", "File": "A"])],
            ["A": [group, specifier("PSChildPaneSpecifier", ["Title": "B", "File": "B"])],
             "B": [specifier("PSChildPaneSpecifier", ["Title": "Back", "File": "A"]),
                   specifier("PSToggleSwitchSpecifier", ["Title": "Deep", "Key": "deep", "DefaultValue": true])]])
        #expect(bundle.errors.map(\.description) == ["B.plist item 0: PSChildPaneSpecifier File \"A\" makes a cycle: A.plist → B.plist → A.plist"])
        #expect(bundle.pane(named: "B")?.errors == bundle.errors)
        #expect(bundle.root.errors == [])
        #expect(bundle.allPanes.map(\.name) == ["Root", "A", "B"])
        #expect(bundle.registrationDefaults == ["deep": true])
    }

    @Test func aPaneLinkedTwiceIsLoadedOnce() {
        let bundle = load(
            [specifier("PSChildPaneSpecifier", ["Title": "Shared", "File": "S"]), specifier("PSChildPaneSpecifier", ["Title": "Again", "File": "S"])],
            ["S": [specifier("PSTextFieldSpecifier", ["Key": "s", "DefaultValue": "x"])]])
        #expect(bundle.errors == [])
        #expect(bundle.root.items.count == 2)
        #expect(bundle.panes.keys.sorted() == ["S"])
    }

    @Test func fileLevelErrors() {
        #expect(SettingsBundle.load(files: [:]).errors.map(\.description) == ["Root.plist: not found"])
        let notAPlist = SettingsBundle.load(files: ["Root.plist": Data("hello".utf8)])
        #expect(notAPlist.errors.first?.kind == .unreadableFile)
        #expect(notAPlist.errors.first?.description.hasPrefix("Root.plist: not a property list: ") == true)
        let noSpecifiers = SettingsBundle.load(files: ["Root.plist": try! PropertyListSerializer.data(from: .dictionary([:]), format: .xml)])
        #expect(noSpecifiers.errors.map(\.description) == ["Root.plist: PreferenceSpecifiers is missing, expected an array"])
        let arrayTop = SettingsBundle.load(files: ["Root.plist": try! PropertyListSerializer.data(from: .array([]), format: .binary)])
        #expect(arrayTop.errors.map(\.description) == ["Root.plist: the top level is an array, expected a dictionary"])
        // A broken child file: the link is the error, in the parent, with the reason.
        let brokenChild = SettingsBundle.load(files: ["Root.plist": paneData([specifier("PSChildPaneSpecifier", ["Title": "P", "File": "P"])]),
                                                      "P.plist": Data("<plist><dict>".utf8)])
        #expect(brokenChild.errors.map(\.description).contains("Root.plist item 0: PSChildPaneSpecifier File \"P\": P.plist is not a property list"))
        #expect(brokenChild.root.items.isEmpty)
    }

    @Test func registrationDefaultsCollectEveryPane() {
        let bundle = load([
            specifier("PSToggleSwitchSpecifier", ["Title": "A", "Key": "a", "DefaultValue": true]),
            specifier("PSTextFieldSpecifier", ["Key": "noDefault"]),
            specifier("PSChildPaneSpecifier", ["Title": "More", "File": "More"]),
            specifier("PSSliderSpecifier", ["Key": "r", "DefaultValue": 0.5, "MinimumValue": 0, "MaximumValue": 1]),
        ], ["More": [
            specifier("PSRadioGroupSpecifier", ["Key": "units", "Titles": strings("km", "mi"), "Values": strings("km", "mi"), "DefaultValue": "mi"]),
            specifier("PSTitleValueSpecifier", ["Title": "V", "Key": "v", "DefaultValue": "1.0"]),
            specifier("PSToggleSwitchSpecifier", ["Title": "A again", "Key": "a", "DefaultValue": false]),
        ]])
        #expect(bundle.errors == [])
        #expect(bundle.registrationDefaults == ["a": true, "r": .real(0.5), "units": "mi", "v": "1.0"])
        let store = InMemoryPreferenceStore()
        bundle.registerDefaults(in: store)
        #expect(store.object(forKey: "units") == "mi")
        #expect(store.values.isEmpty)
    }

    @Test func sliderValuesClampAndStep() {
        let integral = SliderSpecifier(key: "w", defaultValue: 72, minimumValue: 40, maximumValue: 120, isIntegral: true)
        #expect(integral.step == 4 && integral.bigStep == 16)
        #expect(integral.value(for: 500) == .integer(120))
        #expect(integral.value(for: 71.6) == .integer(72))
        #expect(integral.number(nil) == 72 && integral.number("junk") == 72 && integral.number(.integer(10)) == 40)
        let real = SliderSpecifier(key: "r", defaultValue: .real(0.5), minimumValue: 0, maximumValue: 1, isIntegral: false)
        #expect(real.step == 0.05)
        #expect(real.value(for: -1) == .real(0))
    }

    @Test func keyboardsAndCapitalisation() {
        #expect(KeyboardType.numberPad.accepts("7") && !KeyboardType.numberPad.accepts("a") && !KeyboardType.numberPad.accepts("٣"))
        #expect(!KeyboardType.emailAddress.accepts(" ") && KeyboardType.emailAddress.accepts("@"))
        #expect(KeyboardType.alphabet.accepts(" "))
        #expect(AutocapitalizationType.words.apply(to: "alice liddell") == "Alice Liddell")
        #expect(AutocapitalizationType.sentences.apply(to: "down we go. and down! again") == "Down we go. And down! Again")
        #expect(AutocapitalizationType.allCharacters.apply(to: "eat me") == "EAT ME")
        #expect(AutocapitalizationType.none.apply(to: "eat me") == "eat me")
    }
}

@Suite("The app's Settings.bundle")
struct RealSettingsBundleTests {
    @Test func loadsWithoutErrorsAndUsesEveryType() throws {
        let bundle = SettingsBundle.load(directory: repositoryBundle)
        #expect(bundle.errors == [])
        let types = Set(bundle.allPanes.flatMap { $0.items.map(\.specifier.typeName) })
        #expect(types == Set(SettingsSpecifier.allTypeNames))
        #expect(bundle.allPanes.map(\.name) == ["Root", "Profile"])
        let defaults = bundle.registrationDefaults
        #expect(defaults["HPSyncLocations"] == false)
        #expect(defaults["WLSyncReadingPosition"] == false)
        #expect(defaults["HPMapType"] == 0)
        #expect(defaults["HPFollowHeading"] == 1)
        #expect(defaults["WLUnits"] == "km")
        #expect(defaults["WLTextWidth"] == 72)
        #expect(defaults["WLVersion"] != nil)
        let profile = try #require(bundle.pane(named: "Profile"))
        let fields = profile.items.compactMap { item -> TextFieldSpecifier? in
            if case .textField(let field) = item.specifier { return field } else { return nil }
        }
        #expect(fields.contains { $0.keyboardType == .emailAddress })
        #expect(fields.contains { $0.isSecure })
    }

    @Test func theCompiledInCopyMatchesTheFiles() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: repositoryBundle.path).filter { $0.hasSuffix(".plist") }.sorted()
        #expect(SettingsBundle.embeddedFiles.keys.sorted() == names, "run scripts/embed-settings")
        for name in names {
            let onDisk = try String(contentsOf: repositoryBundle.appendingPathComponent(name), encoding: .utf8)
            #expect(SettingsBundle.embeddedFiles[name] == onDisk, "\(name) changed: run scripts/embed-settings")
        }
        var embedded = SettingsBundle.embedded
        #expect(embedded.source == .embedded)
        embedded.source = .directory(repositoryBundle.path)
        #expect(embedded == SettingsBundle.load(directory: repositoryBundle))
    }

    @Test func locatingTheBundle() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("wl-settings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let checkout = temporary.appendingPathComponent("repo")
        let install = temporary.appendingPathComponent("prefix")
        for bundle in [checkout.appendingPathComponent("Resources/Settings.bundle"), install.appendingPathComponent("share/wonderland/Settings.bundle")] {
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            try paneData([]).write(to: bundle.appendingPathComponent("Root.plist"))
        }
        let debugBinary = checkout.appendingPathComponent(".build/debug/wonderland").path
        #expect(SettingsBundle.locateDirectory(environment: [:], executablePath: debugBinary)?.standardizedFileURL.path
                == checkout.appendingPathComponent("Resources/Settings.bundle").standardizedFileURL.path)
        let installed = install.appendingPathComponent("bin/wonderland").path
        #expect(SettingsBundle.locateDirectory(environment: [:], executablePath: installed)?.standardizedFileURL.path
                == install.appendingPathComponent("share/wonderland/Settings.bundle").standardizedFileURL.path)
        // The variable wins, even over a bundle next to the binary.
        let elsewhere = temporary.appendingPathComponent("elsewhere")
        #expect(SettingsBundle.locateDirectory(environment: ["WONDERLAND_RESOURCES": elsewhere.path], executablePath: debugBinary)?.path
                == elsewhere.appendingPathComponent("Settings.bundle").path)
        #expect(SettingsBundle.standard(environment: ["WONDERLAND_RESOURCES": elsewhere.path]).errors.map(\.description) == ["Root.plist: not found"])
        // Nothing on disk: the compiled-in copy.
        let lonely = temporary.appendingPathComponent("bin/wonderland").path
        #expect(SettingsBundle.locateDirectory(environment: [:], executablePath: lonely) == nil)
        #expect(SettingsBundle.standard(environment: [:], executablePath: lonely).source == .embedded)
        #expect(SettingsBundle.standard(environment: [:], executablePath: lonely).errors == [])
    }
}

@Suite("In-memory preference store")
struct InMemoryPreferenceStoreTests {
    @Test func readsValuesThenRegistration() {
        let store = InMemoryPreferenceStore(registration: ["a": 1])
        #expect(store.object(forKey: "a") == 1)
        #expect(store.object(forKey: "b") == nil)
        store.set(2, forKey: "a")
        #expect(store.object(forKey: "a") == 2)
        store.set(nil, forKey: "a")
        #expect(store.object(forKey: "a") == 1)
        #expect(store.writes.map(\.key) == ["a", "a"])
    }

    @Test func notifiesTheKeysWhoseMergedValueChanged() {
        let store = InMemoryPreferenceStore(values: ["set": "mine"])
        var heard: [Set<String>] = []
        let token = store.addChangeObserver { heard.append($0) }
        store.register(defaults: ["set": "default", "new": true])
        store.set("mine", forKey: "set")  // no change
        store.set(false, forKey: "new")
        store.simulateExternalChange(["set": "theirs", "gone": nil])
        #expect(heard == [["new"], ["new"], ["set"]])
        #expect(store.observerCount == 1)
        token.cancel()
        store.set(true, forKey: "new")
        #expect(heard.count == 3)
        #expect(store.observerCount == 0)
    }

    @Test func releasingTheTokenUnsubscribes() {
        let store = InMemoryPreferenceStore()
        var count = 0
        do {
            let token = store.addChangeObserver { _ in count += 1 }
            store.set(1, forKey: "k")
            _ = token
        }
        store.set(2, forKey: "k")
        #expect(count == 1)
    }
}
