import FoundationEssentials
import PropertyList

/// The languages a Settings.bundle's strings are looked up in, best first, as gettext and iOS
/// would pick them: LANGUAGE (a colon-separated list), else LC_ALL, LC_MESSAGES, LANG; each as
/// given ("pt-BR") and as its bare language ("pt"); then Base, en and the development region.
public enum SettingsLanguages {
    /// The languages for this environment, best first, ending with Base, en and the bundle's
    /// development region when it has one.
    public static func preferred(environment: [String: String], developmentRegion: String? = nil) -> [String] {
        var wanted: [String] = []
        if let list = environment["LANGUAGE"], !list.isEmpty {
            wanted = list.split(separator: ":").map(String.init)
        } else if let single = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) {
            wanted = [single]
        }
        var result: [String] = []
        func add(_ code: String) { if !code.isEmpty, !result.contains(code) { result.append(code) } }
        for raw in wanted {
            // "de_DE.UTF-8@euro" → "de-DE"; C and POSIX name no language.
            let code = String(raw.prefix { $0 != "." && $0 != "@" }.map { $0 == "_" ? "-" : $0 })
            guard code != "C", code != "POSIX" else { continue }
            add(code)
            add(String(code.prefix { $0 != "-" }))
        }
        for code in ["Base", "en"] + (developmentRegion.map { [$0] } ?? []) { add(code) }
        return result
    }
}

/// The strings tables of one bundle, loaded once each, looked up through the preferred
/// languages; a key found in none is shown as itself, as iOS does.
struct SettingsStrings {
    let languages: [String]
    let read: (String) -> Data?
    private var tables: [String: [[String: String]]] = [:]
    private(set) var problems: [SettingsSchemaError] = []

    init(languages: [String], read: @escaping (String) -> Data?) {
        self.languages = languages
        self.read = read
    }

    mutating func localize(_ text: String, table: String) -> String {
        for strings in tablesInOrder(table) { if let found = strings[text] { return found } }
        return text
    }

    /// Each language's `<code>.lproj/<table>.strings`, trying "pt-BR" also as "pt_BR".
    private mutating func tablesInOrder(_ table: String) -> [[String: String]] {
        if let loaded = tables[table] { return loaded }
        var found: [[String: String]] = []
        for code in languages {
            let underscored = String(code.map { $0 == "-" ? "_" : $0 })
            for folder in underscored == code ? [code] : [code, underscored].sorted() {
                let path = "\(folder).lproj/\(table).strings"
                guard let data = read(path) else { continue }
                do { found.append(try StringsFileReader.read(data)) } catch {
                    problems.append(SettingsSchemaError(.unreadableFile, file: path, index: nil, "not a strings table: \(error)"))
                }
            }
        }
        tables[table] = found
        return found
    }
}

extension SettingsSpecifier {
    /// The same specifier with its Title, Titles, ShortTitles and FooterText put through `localize`.
    func localized(_ localize: (String) -> String) -> SettingsSpecifier {
        func choices(_ c: SettingsChoices) -> SettingsChoices { SettingsChoices(titles: c.titles.map(localize), values: c.values) }
        switch self {
        case .group(var s):
            s.title = s.title.map(localize)
            s.footerText = s.footerText.map(localize)
            return .group(s)
        case .textField(var s):
            s.title = s.title.map(localize)
            return .textField(s)
        case .toggleSwitch(var s):
            s.title = localize(s.title)
            return .toggleSwitch(s)
        case .slider(var s):
            s.title = s.title.map(localize)
            return .slider(s)
        case .multiValue(var s):
            s.title = localize(s.title)
            s.choices = choices(s.choices)
            s.shortTitles = s.shortTitles?.map(localize)
            return .multiValue(s)
        case .radioGroup(var s):
            s.title = s.title.map(localize)
            s.footerText = s.footerText.map(localize)
            s.choices = choices(s.choices)
            return .radioGroup(s)
        case .titleValue(var s):
            s.title = localize(s.title)
            s.choices = s.choices.map(choices)
            return .titleValue(s)
        case .childPane(var s):
            s.title = localize(s.title)
            return .childPane(s)
        }
    }
}
