import Defaults
import Platform
import PropertyList

// The settings bundle schema: the PreferenceSpecifiers of iOS's Settings.bundle, as values.
// A bundle is a folder with Root.plist and one plist per child pane; each plist holds an array
// of specifier dictionaries under PreferenceSpecifiers, told apart by their Type.

/// A loaded settings bundle: the root pane, every child pane reachable from it, and every schema
/// error found on the way. Items with errors are left out; everything valid is kept.
public struct SettingsBundle: Hashable, Sendable {
    /// Where a bundle was read from.
    public enum Source: Hashable, Sendable {
        /// A Settings.bundle folder on disk, by its path.
        case directory(String)
        /// The copy compiled into the binary (SettingsBundle+Embedded.swift).
        case embedded
        /// Files handed in by the caller (tests).
        case files
    }

    /// The pane of Root.plist, the first one shown.
    public var root: SettingsPane
    /// Child panes by their File name ("Profile"), each loaded once however often it is linked.
    public var panes: [String: SettingsPane]
    /// Every error of every file, in the order found.
    public var errors: [SettingsSchemaError]
    /// What was accepted as iOS accepts it though the schema says otherwise (an unknown Type
    /// skipped, "YES" for a boolean): never shown as an error, listed by `settings lint`.
    public var notes: [SettingsSchemaError] = []
    /// Where the bundle was read from: a folder, the compiled-in copy, or files handed in.
    public var source: Source

    /// A bundle built in code (or by the loader): the root pane, its child panes by File name,
    /// and the errors found while reading them.
    public init(root: SettingsPane, panes: [String: SettingsPane] = [:], errors: [SettingsSchemaError] = [], source: Source = .files) {
        self.root = root
        self.panes = panes
        self.errors = errors
        self.source = source
    }

    /// The root pane for "Root", a child pane for its File name.
    public func pane(named name: String) -> SettingsPane? {
        name == root.name ? root : panes[name]
    }

    /// The root, then the child panes in the order they are first linked.
    public var allPanes: [SettingsPane] {
        var result = [root]
        var seen: Set<String> = [root.name]
        var queue = [root]
        while !queue.isEmpty {
            let pane = queue.removeFirst()
            for item in pane.items {
                guard case .childPane(let child) = item.specifier, seen.insert(child.file).inserted,
                      let childPane = panes[child.file] else { continue }
                result.append(childPane)
                queue.append(childPane)
            }
        }
        return result
    }

    /// Every DefaultValue of every pane, by key: what the app registers at launch so that a key
    /// nobody has set reads the same in the app as on the settings screen. When two items share
    /// a key, the first one (root first) wins.
    public var registrationDefaults: [String: PropertyListValue] {
        var defaults: [String: PropertyListValue] = [:]
        for pane in allPanes {
            for item in pane.items {
                guard let key = item.specifier.key, let value = item.specifier.defaultValue, defaults[key] == nil else { continue }
                defaults[key] = value
            }
        }
        return defaults
    }

    /// Registers `registrationDefaults` in `store`.
    public func registerDefaults(in store: PreferenceStore) {
        store.register(defaults: registrationDefaults)
    }
}

/// One plist of the bundle: its items in file order.
public struct SettingsPane: Hashable, Sendable {
    /// The File name without ".plist": "Root", "Profile".
    public var name: String
    /// The pane's title: the child pane specifier's Title, or the plist's own Title.
    public var title: String
    /// The valid specifiers of the file, in file order; items with errors are left out.
    public var items: [SettingsItem]
    /// The errors found in this file (its own items, its child-pane links).
    public var errors: [SettingsSchemaError]

    /// A pane named by its File name (without ".plist"), with its title, items and errors.
    public init(name: String, title: String, items: [SettingsItem], errors: [SettingsSchemaError] = []) {
        self.name = name
        self.title = title
        self.items = items
        self.errors = errors
    }

    /// The pane's file in the bundle: "Root.plist", "Profile.plist".
    public var fileName: String { name + ".plist" }
    /// The keys this pane shows (what a change observer has to look for).
    public var keys: Set<String> { Set(items.compactMap(\.specifier.key)) }
}

/// A specifier and where it was in its file.
public struct SettingsItem: Hashable, Sendable {
    /// Its index in the file's PreferenceSpecifiers array (what error messages name).
    public var index: Int
    /// What the item is: a group, a text field, a toggle, ….
    public var specifier: SettingsSpecifier

    /// A specifier found at `index` of its file's PreferenceSpecifiers.
    public init(index: Int, specifier: SettingsSpecifier) {
        self.index = index
        self.specifier = specifier
    }
}

/// One entry of PreferenceSpecifiers, by its Type: one case per PS*Specifier of Apple's schema.
public enum SettingsSpecifier: Hashable, Sendable {
    /// PSGroupSpecifier: a section title and footer.
    case group(GroupSpecifier)
    /// PSTextFieldSpecifier: a line of text, edited in place.
    case textField(TextFieldSpecifier)
    /// PSToggleSwitchSpecifier: on or off.
    case toggleSwitch(ToggleSwitchSpecifier)
    /// PSSliderSpecifier: a number in a range.
    case slider(SliderSpecifier)
    /// PSMultiValueSpecifier: one value of a list, chosen in a picker.
    case multiValue(MultiValueSpecifier)
    /// PSRadioGroupSpecifier: one value of a list, each a row of its own.
    case radioGroup(RadioGroupSpecifier)
    /// PSTitleValueSpecifier: a value shown, never edited.
    case titleValue(TitleValueSpecifier)
    /// PSChildPaneSpecifier: a row that opens another pane of the bundle.
    case childPane(ChildPaneSpecifier)

    /// The Type string of the plist: "PSToggleSwitchSpecifier".
    public var typeName: String {
        switch self {
        case .group: GroupSpecifier.typeName
        case .textField: TextFieldSpecifier.typeName
        case .toggleSwitch: ToggleSwitchSpecifier.typeName
        case .slider: SliderSpecifier.typeName
        case .multiValue: MultiValueSpecifier.typeName
        case .radioGroup: RadioGroupSpecifier.typeName
        case .titleValue: TitleValueSpecifier.typeName
        case .childPane: ChildPaneSpecifier.typeName
        }
    }

    /// Every Type the loader knows, in the order of the cases.
    public static let allTypeNames = [
        GroupSpecifier.typeName, TextFieldSpecifier.typeName, ToggleSwitchSpecifier.typeName, SliderSpecifier.typeName,
        MultiValueSpecifier.typeName, RadioGroupSpecifier.typeName, TitleValueSpecifier.typeName, ChildPaneSpecifier.typeName,
    ]

    /// The defaults key it reads and writes; nil for groups and child panes.
    public var key: String? {
        switch self {
        case .group, .childPane: nil
        case .textField(let s): s.key
        case .toggleSwitch(let s): s.key
        case .slider(let s): s.key
        case .multiValue(let s): s.key
        case .radioGroup(let s): s.key
        case .titleValue(let s): s.key
        }
    }

    /// The title the row or section shows; nil when the plist gives none.
    public var title: String? {
        switch self {
        case .group(let s): s.title
        case .textField(let s): s.title
        case .toggleSwitch(let s): s.title
        case .slider(let s): s.title
        case .multiValue(let s): s.title
        case .radioGroup(let s): s.title
        case .titleValue(let s): s.title
        case .childPane(let s): s.title
        }
    }

    /// The DefaultValue a key nobody has set reads as; nil for groups and child panes.
    public var defaultValue: PropertyListValue? {
        switch self {
        case .group, .childPane: nil
        case .textField(let s): s.defaultValue.map(PropertyListValue.string)
        case .toggleSwitch(let s): s.defaultValue
        case .slider(let s): s.defaultValue
        case .multiValue(let s): s.defaultValue
        case .radioGroup(let s): s.defaultValue
        case .titleValue(let s): s.defaultValue
        }
    }
}

/// Starts a group; the items after it belong to it until the next group.
public struct GroupSpecifier: Hashable, Sendable {
    /// The Type string of this specifier in a plist.
    public static let typeName = "PSGroupSpecifier"
    /// The section title; nil for a group that only separates.
    public var title: String?
    /// The text under the group's last row.
    public var footerText: String?
    /// A group with an optional title and footer.
    public init(title: String? = nil, footerText: String? = nil) {
        self.title = title
        self.footerText = footerText
    }
}

/// A text field's KeyboardType: which characters it takes while typed.
public enum KeyboardType: String, Hashable, Sendable, CaseIterable {
    /// Any text.
    case alphabet = "Alphabet"
    /// Any text (a keyboard opened on its numbers on iOS).
    case numbersAndPunctuation = "NumbersAndPunctuation"
    /// Digits only.
    case numberPad = "NumberPad"
    /// An address: no spaces.
    case url = "URL"
    /// An e-mail address: no spaces.
    case emailAddress = "EmailAddress"

    /// Whether a typed character is taken: a number pad takes digits only, URL and e-mail
    /// fields no spaces.
    public func accepts(_ character: Character) -> Bool {
        switch self {
        case .alphabet, .numbersAndPunctuation: true
        case .numberPad: character.isASCII && character.isNumber
        case .url, .emailAddress: !character.isWhitespace
        }
    }
}

/// A text field's AutocapitalizationType: how its text is capitalised when it is saved.
public enum AutocapitalizationType: String, Hashable, Sendable, CaseIterable {
    /// As typed.
    case none = "None"
    /// The first letter of each sentence.
    case sentences = "Sentences"
    /// The first letter of each word.
    case words = "Words"
    /// Every letter.
    case allCharacters = "AllCharacters"

    /// The text as a keyboard with this setting would have capitalised it.
    public func apply(to text: String) -> String {
        switch self {
        case .none: return text
        case .allCharacters: return text.uppercased()
        case .words, .sentences:
            var result = ""
            var capitaliseNext = true
            for character in text {
                if capitaliseNext && character.isLetter {
                    result += character.uppercased()
                    capitaliseNext = false
                } else {
                    result.append(character)
                    if self == .words && character.isWhitespace { capitaliseNext = true }
                    if self == .sentences && (character == "." || character == "!" || character == "?") { capitaliseNext = true }
                    if character.isLetter || character.isNumber { capitaliseNext = false }
                }
            }
            return result
        }
    }
}

/// A text field's AutocorrectionType: read and kept so a bundle round-trips, though a terminal
/// corrects nothing.
public enum AutocorrectionType: String, Hashable, Sendable, CaseIterable {
    /// The keyboard's own choice.
    case `default` = "Default"
    /// Never corrected.
    case no = "No"
    /// Corrected.
    case yes = "Yes"
}

/// A line of text stored as a string, edited in place on its row.
public struct TextFieldSpecifier: Hashable, Sendable {
    /// The Type string of this specifier in a plist.
    public static let typeName = "PSTextFieldSpecifier"
    /// The row's title.
    public var title: String?
    /// The defaults key the text is stored under.
    public var key: String
    /// The text a key nobody has set reads as.
    public var defaultValue: String?
    /// IsSecure: the text shows as dots and is never saved with the screen's state.
    public var isSecure = false
    /// Which characters the field takes.
    public var keyboardType = KeyboardType.alphabet
    /// How the text is capitalised when saved.
    public var autocapitalizationType = AutocapitalizationType.none
    /// Kept from the plist; a terminal corrects nothing.
    public var autocorrectionType = AutocorrectionType.default
    /// A plain text field; the keyboard, capitalisation and secure flags are set afterwards.
    public init(title: String?, key: String, defaultValue: String? = nil) {
        self.title = title
        self.key = key
        self.defaultValue = defaultValue
    }
}

/// An on/off switch. With TrueValue and FalseValue it writes those; otherwise booleans.
public struct ToggleSwitchSpecifier: Hashable, Sendable {
    /// The Type string of this specifier in a plist.
    public static let typeName = "PSToggleSwitchSpecifier"
    /// The row's title.
    public var title: String
    /// The defaults key the switch is stored under.
    public var key: String
    /// What a key nobody has set reads as.
    public var defaultValue: PropertyListValue
    /// TrueValue: what is written for on, instead of a boolean.
    public var trueValue: PropertyListValue?
    /// FalseValue: what is written for off, instead of a boolean.
    public var falseValue: PropertyListValue?
    /// A switch; without true and false values it writes booleans.
    public init(title: String, key: String, defaultValue: PropertyListValue, trueValue: PropertyListValue? = nil, falseValue: PropertyListValue? = nil) {
        self.title = title
        self.key = key
        self.defaultValue = defaultValue
        self.trueValue = trueValue
        self.falseValue = falseValue
    }

    /// The value written for on or off.
    public func value(for isOn: Bool) -> PropertyListValue {
        (isOn ? trueValue : falseValue) ?? .boolean(isOn)
    }

    /// Whether a stored value means on: TrueValue or FalseValue when given, else any boolean,
    /// number or YES/true/1 string.
    public func isOn(_ value: PropertyListValue?) -> Bool {
        guard let value else { return isOn(defaultValue) }
        if let trueValue, SettingsValue.matches(value, trueValue) { return true }
        if let falseValue, SettingsValue.matches(value, falseValue) { return false }
        return SettingsValue.bool(value) ?? false
    }
}

/// A number between MinimumValue and MaximumValue, with optional images at both ends (shown
/// as glyphs in a terminal).
public struct SliderSpecifier: Hashable, Sendable {
    /// The Type string of this specifier in a plist.
    public static let typeName = "PSSliderSpecifier"
    /// Not part of Apple's schema (its sliders have no title), but accepted and shown.
    public var title: String?
    /// The defaults key the number is stored under.
    public var key: String
    /// What a key nobody has set reads as.
    public var defaultValue: PropertyListValue
    /// The low end of the range.
    public var minimumValue: Double
    /// The high end of the range.
    public var maximumValue: Double
    /// MinimumValueImage: the picture at the low end, shown as a glyph.
    public var minimumValueImage: String?
    /// MaximumValueImage: the picture at the high end, shown as a glyph.
    public var maximumValueImage: String?
    /// True when DefaultValue, MinimumValue and MaximumValue are all integers: the slider then
    /// steps and writes whole numbers.
    public var isIntegral: Bool

    /// A slider over `minimumValue`…`maximumValue`; `isIntegral` when every number of the
    /// schema is whole.
    public init(title: String? = nil, key: String, defaultValue: PropertyListValue, minimumValue: Double, maximumValue: Double,
                minimumValueImage: String? = nil, maximumValueImage: String? = nil, isIntegral: Bool) {
        self.title = title
        self.key = key
        self.defaultValue = defaultValue
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        self.minimumValueImage = minimumValueImage
        self.maximumValueImage = maximumValueImage
        self.isIntegral = isIntegral
    }

    /// A stored value as a number in range (the default for a missing or non-number value).
    public func number(_ value: PropertyListValue?) -> Double {
        let number = value.flatMap(SettingsValue.number) ?? SettingsValue.number(defaultValue) ?? minimumValue
        return clamp(number)
    }

    /// In range; NaN (a stored `nan`) counts as the minimum.
    public func clamp(_ number: Double) -> Double {
        number.isNaN ? minimumValue : min(max(number, minimumValue), maximumValue)
    }

    /// The value to store for a number: clamped, and whole for an integral slider.
    public func value(for number: Double) -> PropertyListValue {
        let clamped = clamp(number)
        guard isIntegral else { return .real(clamped) }
        // An end at Int64.max is 2^63 as a Double, one past it: Int64(_:) would trap there.
        return .integer(Int64(exactly: clamped.rounded()) ?? (clamped < 0 ? .min : .max))
    }

    /// A fine step, 1/20 of the range (at least 1 for an integral slider).
    public var step: Double {
        let raw = (maximumValue - minimumValue) / 20
        return isIntegral ? max(1, raw.rounded()) : raw
    }

    /// A coarse step, 1/5 of the range.
    public var bigStep: Double {
        let raw = (maximumValue - minimumValue) / 5
        return isIntegral ? max(1, raw.rounded()) : raw
    }
}

/// Titles and Values of the same length: what a multi-value, radio group or title-value shows.
public struct SettingsChoices: Hashable, Sendable {
    /// What each choice is called on screen.
    public var titles: [String]
    /// What each choice stores, in the order of `titles`.
    public var values: [PropertyListValue]
    /// Choices from Titles and Values; the loader makes sure they have the same length.
    public init(titles: [String], values: [PropertyListValue]) {
        self.titles = titles
        self.values = values
    }

    /// Which choice a stored value is, numbers matching whatever their plist type; nil for a
    /// value none of them stores.
    public func index(of value: PropertyListValue?) -> Int? {
        guard let value else { return nil }
        return values.firstIndex { SettingsValue.matches($0, value) }
    }

    /// The title of the choice a stored value is; nil when it is none of them.
    public func title(for value: PropertyListValue?) -> String? {
        index(of: value).map { titles[$0] }
    }
}

/// One value out of a list, chosen on a separate list (a picker).
public struct MultiValueSpecifier: Hashable, Sendable {
    /// The Type string of this specifier in a plist.
    public static let typeName = "PSMultiValueSpecifier"
    /// The row's title, and the picker's.
    public var title: String
    /// The defaults key the chosen value is stored under.
    public var key: String
    /// The titles and values to choose from.
    public var choices: SettingsChoices
    /// Shorter titles for the row itself; the picker shows the full Titles.
    public var shortTitles: [String]?
    /// What a key nobody has set reads as.
    public var defaultValue: PropertyListValue
    /// A multi-value; `shortTitles`, when given, has one title per choice.
    public init(title: String, key: String, choices: SettingsChoices, shortTitles: [String]? = nil, defaultValue: PropertyListValue) {
        self.title = title
        self.key = key
        self.choices = choices
        self.shortTitles = shortTitles
        self.defaultValue = defaultValue
    }

    /// What the row shows for a value: its short title, else its title.
    public func shortTitle(for value: PropertyListValue?) -> String? {
        guard let index = choices.index(of: value) else { return nil }
        return shortTitles?[index] ?? choices.titles[index]
    }
}

/// A group of its own whose rows are the choices, one of them checked.
public struct RadioGroupSpecifier: Hashable, Sendable {
    /// The Type string of this specifier in a plist.
    public static let typeName = "PSRadioGroupSpecifier"
    /// The group's section title.
    public var title: String?
    /// The text under its last choice.
    public var footerText: String?
    /// The defaults key the checked value is stored under.
    public var key: String
    /// The titles and values, one row each.
    public var choices: SettingsChoices
    /// What a key nobody has set reads as.
    public var defaultValue: PropertyListValue
    /// A radio group: a section of its own, a row per choice.
    public init(title: String? = nil, footerText: String? = nil, key: String, choices: SettingsChoices, defaultValue: PropertyListValue) {
        self.title = title
        self.footerText = footerText
        self.key = key
        self.choices = choices
        self.defaultValue = defaultValue
    }
}

/// A read-only row: the stored value, or its title when Titles and Values are given.
public struct TitleValueSpecifier: Hashable, Sendable {
    /// The Type string of this specifier in a plist.
    public static let typeName = "PSTitleValueSpecifier"
    /// The row's title.
    public var title: String
    /// The defaults key whose value is shown.
    public var key: String
    /// What a key nobody has set reads as.
    public var defaultValue: PropertyListValue
    /// Titles for known values, when the plist gives Titles and Values.
    public var choices: SettingsChoices?
    /// A read-only row, showing a choice's title when `choices` names the value.
    public init(title: String, key: String, defaultValue: PropertyListValue, choices: SettingsChoices? = nil) {
        self.title = title
        self.key = key
        self.defaultValue = defaultValue
        self.choices = choices
    }
}

/// A row that opens another pane, read from File.plist in the same bundle.
public struct ChildPaneSpecifier: Hashable, Sendable {
    /// The Type string of this specifier in a plist.
    public static let typeName = "PSChildPaneSpecifier"
    /// The row's title, and the title of the pane it opens.
    public var title: String
    /// The file name without ".plist".
    public var file: String
    /// A row opening the pane of `file`.plist.
    public init(title: String, file: String) {
        self.title = title
        self.file = file
    }
}

/// A problem in a bundle file, named by file and item index:
/// `Root.plist item 4: PSSliderSpecifier DefaultValue 200 is outside 40…120`.
public struct SettingsSchemaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What sort of problem it is, for tests and tools that sort them.
    public enum Kind: String, Hashable, Sendable {
        /// The file is missing or is not a property list.
        case unreadableFile
        /// The file is a plist but not a dictionary with a PreferenceSpecifiers array.
        case malformedFile
        /// A Type the schema does not have.
        case unknownType
        /// A field the specifier needs is missing (Type, Key, Title, File, Values, …).
        case missingField
        /// A field has the wrong plist type, or a value that is not allowed.
        case wrongType
        /// Titles and Values (or ShortTitles) of different lengths.
        case lengthMismatch
        /// A child pane's File that the bundle does not hold.
        case missingChildPane
        /// A child pane linking back onto the panes that lead to it.
        case cyclicChildPane
        /// A number outside the slider's range, an empty range, or a DefaultValue none of the
        /// Values holds.
        case outOfRange
    }

    /// What sort of problem it is.
    public var kind: Kind
    /// The file name: "Root.plist".
    public var file: String
    /// The index in PreferenceSpecifiers; nil for an error about the whole file.
    public var index: Int?
    /// The problem in words, without the file and index.
    public var message: String

    /// An error of `file`, at item `index` (nil: the whole file).
    public init(_ kind: Kind, file: String, index: Int?, _ message: String) {
        self.kind = kind
        self.file = file
        self.index = index
        self.message = message
    }

    /// "Root.plist item 4: …", or "Root.plist: …" for the whole file.
    public var description: String {
        if let index { return "\(file) item \(index): \(message)" }
        return "\(file): \(message)"
    }
}

/// How settings compare and show plist values.
public enum SettingsValue {
    /// Equal, or the same number whatever its plist type (1 and 1.0; a Values entry written
    /// as an integer matches a real read back from elsewhere).
    public static func matches(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
        if a == b { return true }
        switch (a, b) {
        case (.integer, .real), (.real, .integer), (.unsignedInteger, .real), (.real, .unsignedInteger):
            return number(a) == number(b)
        // The argument domain (`-HPMapType 2`) and `defaults write` without a type flag give
        // strings; NSUserDefaults reads "2" as the number 2, and so do we.
        case (.string(let text), .integer), (.string(let text), .unsignedInteger), (.string(let text), .real):
            return Double(text) == number(b)
        case (.integer, .string(let text)), (.unsignedInteger, .string(let text)), (.real, .string(let text)):
            return Double(text) == number(a)
        default: return false
        }
    }

    /// A value as a number: any plist number, or a string that reads as one; nil otherwise.
    public static func number(_ value: PropertyListValue) -> Double? {
        switch value {
        case .integer(let i): Double(i)
        case .unsignedInteger(let u): Double(u)
        case .real(let d): d
        case .string(let text): Double(text.trimmingSpaces())
        default: nil
        }
    }

    /// A value as a boolean, as NSUserDefaults reads one: booleans, numbers (non-zero is true),
    /// and "yes", "true", "1" or "on" in any case; nil for other kinds of value.
    public static func bool(_ value: PropertyListValue) -> Bool? {
        switch value {
        case .boolean(let b): return b
        case .integer(let i): return i != 0
        case .unsignedInteger: return true
        case .real(let d): return d != 0
        case .string(let s): return ["yes", "true", "1", "on"].contains(s.lowercased())
        default: return nil
        }
    }

    /// A number without a needless ".0": 40, 0.5.
    public static func format(_ number: Double) -> String {
        if number.isFinite && number == number.rounded() && abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }

    /// A value as a short text: numbers plainly, strings as they are, YES/NO for booleans.
    public static func display(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let s): return s
        case .integer(let i): return String(i)
        case .unsignedInteger(let u): return String(u)
        case .real(let d): return format(d)
        case .boolean(let b): return b ? "YES" : "NO"
        case .date(let d): return d.timeIntervalSinceReferenceDate.isFinite ? "\(d)" : PropertyListValue.describe(d)
        case .data(let d): return "<\(d.count) bytes>"
        case .array(let a): return "(\(a.count) items)"
        case .dictionary(let d): return "{\(d.count) keys}"
        case .uid(let u): return "UID \(u)"
        }
    }
}
