import FileSafety
import FoundationEssentials
import Platform
import PropertyList

extension SettingsBundle {
    /// Loads `directory` (a Settings.bundle folder): Root.plist and every child pane it links.
    /// Never throws: a missing or broken file is an error in the list, and every valid item of
    /// every readable file is kept.
    /// Titles are localized through `languages` (see `SettingsLanguages`), by default the
    /// process's own.
    public static func load(directory: URL, languages: [String]? = nil) -> SettingsBundle {
        load(directoryPath: directory.path, languages: languages)
    }

    /// `load(directory:languages:)` for a folder given by its path.
    public static func load(directoryPath: String, languages: [String]? = nil) -> SettingsBundle {
        load(source: .directory(directoryPath), languages: languages) { fileName in
            try readFile(FilePaths.join(directoryPath, fileName))
        }
    }

    /// Nil when the file is not there; throws when it is there but cannot be read.
    private static func readFile(_ path: String) throws -> Data? {
        do { return try BoundedFile.read(path: path, limit: .settingsBundleFile) } catch {
            if case .missing = error { return nil }
            throw UnreadableBundleFile(predicate: error.predicate)
        }
    }

    /// Loads a bundle from file contents by name ("Root.plist" → data, "de.lproj/Root.strings" → data).
    public static func load(files: [String: Data], languages: [String]? = nil) -> SettingsBundle {
        load(source: .files, languages: languages) { files[$0] }
    }

    /// `read` gives nil for a file that is not there, and throws for one that cannot be read; a
    /// strings table that cannot be read is treated as missing (the keys show as they are).
    static func load(source: Source, languages: [String]?, read: @escaping (String) throws -> Data?) -> SettingsBundle {
        let languages = languages ?? SettingsLanguages.preferred(environment: ProcessInfo.processInfo.environment)
        var loader = SettingsSchemaLoader(read: read, strings: SettingsStrings(languages: languages, read: { (try? read($0)) ?? nil }))
        let root = loader.loadPane(name: "Root", title: "Settings", path: []).pane
            ?? SettingsPane(name: "Root", title: "Settings", items: [])
        var panes = loader.panes
        panes[root.name] = nil
        var result = SettingsBundle(root: root, panes: panes, errors: loader.errors, source: source)
        result.notes = loader.notes + loader.strings.problems
        // Each pane carries the errors of its own file.
        result.root.errors = loader.errors.filter { $0.file == root.fileName }
        for name in result.panes.keys {
            result.panes[name]?.errors = loader.errors.filter { $0.file == name + ".plist" }
        }
        return result
    }
}

/// A bundle file that is there but cannot be read; `predicate` says why ("is a FIFO (named
/// pipe), not a regular file").
struct UnreadableBundleFile: Error {
    let predicate: String
}

/// Reads bundle files one pane at a time, depth first, following child panes and noticing cycles.
struct SettingsSchemaLoader {
    let read: (String) throws -> Data?
    var strings: SettingsStrings
    var panes: [String: SettingsPane] = [:]
    var errors: [SettingsSchemaError] = []
    /// What iOS accepts but is not quite the schema: shown as well as can be, listed by `settings lint`.
    var notes: [SettingsSchemaError] = []

    /// Loads `name`.plist, or returns why it could not (the caller decides where that is reported;
    /// for the root it is the file's own error).
    mutating func loadPane(name: String, title: String, path: [String]) -> (pane: SettingsPane?, failure: String?) {
        if let loaded = panes[name] { return (loaded, nil) }
        let fileName = name + ".plist"
        let found: Data?
        do { found = try read(fileName) } catch {
            let predicate = (error as? UnreadableBundleFile)?.predicate ?? "cannot be read: \(error)"
            if path.isEmpty { errors.append(SettingsSchemaError(.unreadableFile, file: fileName, index: nil, predicate)) }
            return (nil, "\(fileName) \(predicate)")
        }
        guard let data = found else {
            if path.isEmpty { errors.append(SettingsSchemaError(.unreadableFile, file: fileName, index: nil, "not found")) }
            return (nil, "\(fileName) not found")
        }
        let plist: PropertyListValue
        do {
            plist = try PropertyListReader.value(from: data)
        } catch {
            errors.append(SettingsSchemaError(.unreadableFile, file: fileName, index: nil, "not a property list: \(error)"))
            return (nil, "\(fileName) is not a property list")
        }
        guard case .dictionary(let top) = plist else {
            errors.append(SettingsSchemaError(.malformedFile, file: fileName, index: nil, "the top level is \(plist.kindDescription), expected a dictionary"))
            return (nil, "\(fileName) is malformed")
        }
        guard case .array(let specifiers)? = top["PreferenceSpecifiers"] else {
            let found = top["PreferenceSpecifiers"].map { "is " + $0.kindDescription } ?? "is missing"
            errors.append(SettingsSchemaError(.malformedFile, file: fileName, index: nil, "PreferenceSpecifiers \(found), expected an array"))
            return (nil, "\(fileName) is malformed")
        }
        var table = "Root"
        if case .string(let named)? = top["StringsTable"] { table = named }
        var paneTitle = title
        if path.isEmpty, case .string(let own)? = top["Title"] { paneTitle = strings.localize(own, table: table) }

        var items: [SettingsItem] = []
        for (index, entry) in specifiers.enumerated() {
            var reader = ItemReader(file: fileName, index: index)
            let read = reader.specifier(from: entry)
            notes += reader.notes
            guard var specifier = read?.localized({ strings.localize($0, table: table) }) else {
                errors += reader.errors
                continue
            }
            if case .childPane(let child) = specifier {
                if let cycleStart = path.firstIndex(of: child.file) ?? (child.file == name ? path.count : nil) {
                    let loop = (Array(path[cycleStart...]) + [name, child.file]).map { $0 + ".plist" }.joined(separator: " → ")
                    reader.fail(.cyclicChildPane, "PSChildPaneSpecifier File \"\(child.file)\" makes a cycle: \(loop)")
                } else {
                    let (childPane, failure) = loadPane(name: child.file, title: child.title, path: path + [name])
                    if childPane == nil {
                        reader.fail(.missingChildPane, "PSChildPaneSpecifier File \"\(child.file)\": \(failure ?? "cannot be loaded")")
                    }
                }
                specifier = .childPane(child)
            }
            if reader.errors.isEmpty {
                items.append(SettingsItem(index: index, specifier: specifier))
            } else {
                errors += reader.errors
            }
        }
        let pane = SettingsPane(name: name, title: paneTitle, items: items)
        panes[name] = pane
        return (pane, nil)
    }
}

/// Reads one PreferenceSpecifiers entry, collecting every problem it has.
struct ItemReader {
    let file: String
    let index: Int
    private(set) var errors: [SettingsSchemaError] = []
    /// Departures from the schema iOS lets pass; the entry is still read (or, for a type iOS
    /// does not know, skipped as iOS skips it).
    private(set) var notes: [SettingsSchemaError] = []
    private var dictionary: [String: PropertyListValue] = [:]
    private var type = ""

    init(file: String, index: Int) {
        self.file = file
        self.index = index
    }

    mutating func fail(_ kind: SettingsSchemaError.Kind, _ message: String) {
        errors.append(SettingsSchemaError(kind, file: file, index: index, message))
    }

    mutating func note(_ kind: SettingsSchemaError.Kind, _ message: String) {
        notes.append(SettingsSchemaError(kind, file: file, index: index, message))
    }

    /// The specifier, or nil when the entry has any error.
    mutating func specifier(from entry: PropertyListValue) -> SettingsSpecifier? {
        guard case .dictionary(let dictionary) = entry else {
            fail(.wrongType, "is \(entry.kindDescription), expected a dictionary")
            return nil
        }
        self.dictionary = dictionary
        guard let typeValue = dictionary["Type"] else {
            fail(.missingField, "has no Type")
            return nil
        }
        guard case .string(let type) = typeValue else {
            fail(.wrongType, "Type is \(typeValue.kindDescription), expected a string")
            return nil
        }
        self.type = type
        let specifier: SettingsSpecifier?
        switch type {
        case GroupSpecifier.typeName:
            specifier = .group(GroupSpecifier(title: string("Title"), footerText: string("FooterText")))
        case TextFieldSpecifier.typeName: specifier = textField()
        case ToggleSwitchSpecifier.typeName: specifier = toggleSwitch()
        case SliderSpecifier.typeName: specifier = slider()
        case MultiValueSpecifier.typeName: specifier = multiValue()
        case RadioGroupSpecifier.typeName: specifier = radioGroup()
        case TitleValueSpecifier.typeName: specifier = titleValue()
        case ChildPaneSpecifier.typeName: specifier = childPane()
        default:
            // Types of other renderers (InAppSettingsKit's IASK…) are skipped, as iOS skips them.
            note(.unknownType, "unknown Type \"\(type)\" is skipped")
            return nil
        }
        return errors.isEmpty ? specifier : nil
    }

    // MARK: specifiers

    private mutating func textField() -> SettingsSpecifier? {
        let title = string("Title")
        let key = self.key()
        let defaultValue = string("DefaultValue")
        var field = TextFieldSpecifier(title: title, key: key ?? "", defaultValue: defaultValue)
        field.isSecure = bool("IsSecure") ?? false
        field.keyboardType = enumeration("KeyboardType") ?? .alphabet
        field.autocapitalizationType = enumeration("AutocapitalizationType") ?? .none
        field.autocorrectionType = enumeration("AutocorrectionType") ?? .default
        return key == nil ? nil : .textField(field)
    }

    private mutating func toggleSwitch() -> SettingsSpecifier? {
        let title = string("Title", required: true)
        let key = self.key()
        let trueValue = scalar("TrueValue"), falseValue = scalar("FalseValue")
        var defaultValue = scalar("DefaultValue", required: true)
        // iOS reads a DefaultValue written as the string YES or NO (any case) as the boolean.
        if case .string(let text)? = defaultValue, trueValue == nil, falseValue == nil,
           let flag = ["yes": true, "no": false, "true": true, "false": false][text.lowercased()] {
            note(.wrongType, "\(type) DefaultValue is the string \"\(text)\", read as the boolean \(flag ? "YES" : "NO")")
            defaultValue = .boolean(flag)
        }
        if let defaultValue {
            let isOnOrOff = [trueValue, falseValue].contains { $0.map { SettingsValue.matches($0, defaultValue) } ?? false }
            var isBoolean = false
            if case .boolean = defaultValue { isBoolean = true }
            if !isOnOrOff && !isBoolean {
                let expected = trueValue != nil || falseValue != nil ? "TrueValue, FalseValue or a boolean" : "a boolean"
                fail(.wrongType, "\(type) DefaultValue is \(defaultValue.kindDescription) \(SettingsValue.display(defaultValue)), expected \(expected)")
            }
        }
        guard let title, let key, let defaultValue else { return nil }
        return .toggleSwitch(ToggleSwitchSpecifier(title: title, key: key, defaultValue: defaultValue, trueValue: trueValue, falseValue: falseValue))
    }

    private mutating func slider() -> SettingsSpecifier? {
        let title = string("Title")
        let key = self.key()
        let defaultValue = number("DefaultValue"), minimum = number("MinimumValue"), maximum = number("MaximumValue")
        let minimumImage = string("MinimumValueImage"), maximumImage = string("MaximumValueImage")
        guard let key, let defaultValue, let minimum, let maximum,
              let low = SettingsValue.number(minimum), let high = SettingsValue.number(maximum),
              let start = SettingsValue.number(defaultValue) else { return nil }
        guard low < high else {
            fail(.outOfRange, "\(type) MinimumValue \(SettingsValue.format(low)) is not below MaximumValue \(SettingsValue.format(high))")
            return nil
        }
        guard start >= low && start <= high else {
            fail(.outOfRange, "\(type) DefaultValue \(SettingsValue.format(start)) is outside \(SettingsValue.format(low))…\(SettingsValue.format(high))")
            return nil
        }
        let integral = [defaultValue, minimum, maximum].allSatisfy { if case .integer = $0 { true } else { false } }
        return .slider(SliderSpecifier(title: title, key: key, defaultValue: defaultValue, minimumValue: low, maximumValue: high,
                                       minimumValueImage: minimumImage, maximumValueImage: maximumImage, isIntegral: integral))
    }

    private mutating func multiValue() -> SettingsSpecifier? {
        let title = string("Title", required: true)
        let key = self.key()
        let choices = self.choices(required: true)
        let shortTitles = stringArray("ShortTitles")
        if let shortTitles, let choices, shortTitles.count != choices.values.count {
            fail(.lengthMismatch, "\(type) ShortTitles has \(shortTitles.count) entries but Values has \(choices.values.count)")
        }
        let defaultValue = choiceDefault(in: choices)
        guard let title, let key, let choices, let defaultValue else { return nil }
        return .multiValue(MultiValueSpecifier(title: title, key: key, choices: choices, shortTitles: shortTitles, defaultValue: defaultValue))
    }

    private mutating func radioGroup() -> SettingsSpecifier? {
        let title = string("Title"), footer = string("FooterText")
        let key = self.key()
        let choices = self.choices(required: true)
        let defaultValue = choiceDefault(in: choices)
        guard let key, let choices, let defaultValue else { return nil }
        return .radioGroup(RadioGroupSpecifier(title: title, footerText: footer, key: key, choices: choices, defaultValue: defaultValue))
    }

    private mutating func titleValue() -> SettingsSpecifier? {
        let title = string("Title", required: true)
        let key = self.key()
        let defaultValue = scalar("DefaultValue", required: true)
        let choices = self.choices(required: false)
        guard let title, let key, let defaultValue else { return nil }
        return .titleValue(TitleValueSpecifier(title: title, key: key, defaultValue: defaultValue, choices: choices))
    }

    private mutating func childPane() -> SettingsSpecifier? {
        let title = string("Title", required: true)
        var file = string("File", required: true)
        if let name = file, name.hasSuffix(".plist") { file = String(name.dropLast(6)) }
        if let name = file, name.isEmpty || name.contains("/") {
            fail(.wrongType, "\(type) File \"\(name)\" must be a file name in the bundle")
            return nil
        }
        guard let title, let file else { return nil }
        return .childPane(ChildPaneSpecifier(title: title, file: file))
    }

    // MARK: fields

    private mutating func missing(_ field: String) {
        fail(.missingField, "\(type) has no \(field)")
    }

    private mutating func wrongType(_ field: String, _ value: PropertyListValue, expected: String) {
        fail(.wrongType, "\(type) \(field) is \(value.kindDescription), expected \(expected)")
    }

    private mutating func key() -> String? {
        guard let key = string("Key", required: true) else { return nil }
        guard !key.isEmpty else {
            fail(.missingField, "\(type) has an empty Key")
            return nil
        }
        return key
    }

    private mutating func string(_ field: String, required: Bool = false) -> String? {
        guard let value = dictionary[field] else {
            if required { missing(field) }
            return nil
        }
        guard case .string(let text) = value else {
            wrongType(field, value, expected: "a string")
            return nil
        }
        return text
    }

    private mutating func bool(_ field: String) -> Bool? {
        guard let value = dictionary[field] else { return nil }
        guard case .boolean(let flag) = value else {
            wrongType(field, value, expected: "a boolean")
            return nil
        }
        return flag
    }

    /// An integer or a real, kept as it was written.
    private mutating func number(_ field: String) -> PropertyListValue? {
        guard let value = dictionary[field] else {
            missing(field)
            return nil
        }
        guard SettingsValue.number(value) != nil else {
            wrongType(field, value, expected: "a number")
            return nil
        }
        return value
    }

    /// A string, number or boolean (what a defaults value of a row can be).
    private mutating func scalar(_ field: String, required: Bool = false) -> PropertyListValue? {
        guard let value = dictionary[field] else {
            if required { missing(field) }
            return nil
        }
        switch value {
        case .string, .integer, .unsignedInteger, .real, .boolean: return value
        default:
            wrongType(field, value, expected: "a string, number or boolean")
            return nil
        }
    }

    private mutating func enumeration<E: RawRepresentable & CaseIterable>(_ field: String) -> E? where E.RawValue == String {
        guard let text = string(field) else { return nil }
        // iOS compares these words without regard to case ("no" for No).
        if E(rawValue: text) == nil, let relaxed = E.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) {
            note(.wrongType, "\(type) \(field) \"\(text)\" is read as \"\(relaxed.rawValue)\"")
            return relaxed
        }
        guard let value = E(rawValue: text) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            fail(.wrongType, "\(type) \(field) \"\(text)\" is not one of \(allowed)")
            return nil
        }
        return value
    }

    private mutating func stringArray(_ field: String, required: Bool = false) -> [String]? {
        guard let value = dictionary[field] else {
            if required { missing(field) }
            return nil
        }
        guard case .array(let entries) = value else {
            wrongType(field, value, expected: "an array of strings")
            return nil
        }
        var strings: [String] = []
        for (position, entry) in entries.enumerated() {
            guard case .string(let text) = entry else {
                fail(.wrongType, "\(type) \(field)[\(position)] is \(entry.kindDescription), expected a string")
                return nil
            }
            strings.append(text)
        }
        return strings
    }

    private mutating func choices(required: Bool) -> SettingsChoices? {
        let titles = stringArray("Titles", required: required)
        var values: [PropertyListValue]?
        if let value = dictionary["Values"] {
            if case .array(let entries) = value {
                values = entries
                if let position = entries.firstIndex(where: { !Self.isScalar($0) }) {
                    fail(.wrongType, "\(type) Values[\(position)] is \(entries[position].kindDescription), expected a string, number or boolean")
                    values = nil
                }
            } else {
                wrongType("Values", value, expected: "an array")
            }
        } else if required {
            missing("Values")
        }
        if !required && (titles == nil) != (values == nil) {
            missing(titles == nil ? "Titles (it has Values)" : "Values (it has Titles)")
            return nil
        }
        guard let titles, let values else { return nil }
        guard titles.count == values.count else {
            fail(.lengthMismatch, "\(type) Titles has \(titles.count) entries but Values has \(values.count)")
            return nil
        }
        if values.isEmpty && required {
            fail(.missingField, "\(type) has no Values")
            return nil
        }
        return SettingsChoices(titles: titles, values: values)
    }

    private static func isScalar(_ value: PropertyListValue) -> Bool {
        switch value {
        case .string, .integer, .unsignedInteger, .real, .boolean: true
        default: false
        }
    }

    /// The DefaultValue of a multi-value or radio group: required, and one of the Values.
    private mutating func choiceDefault(in choices: SettingsChoices?) -> PropertyListValue? {
        guard let value = scalar("DefaultValue", required: true) else { return nil }
        if let choices, choices.index(of: value) == nil {
            fail(.outOfRange, "\(type) DefaultValue \(SettingsValue.display(value)) is not one of the Values")
            return nil
        }
        return value
    }
}
