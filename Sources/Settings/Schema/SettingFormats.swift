import PropertyList

/// The settings whose text has a form (a place, an address, a path): for each key, the check
/// that says in a few words what is wrong with a text, or nil when it may be saved. A check is
/// made from the very parser that later reads the value, so the settings screens, `defaults
/// write` and `defaults import` refuse exactly what the app could not use, and nothing it
/// could. Empty (or blank) text always passes: it means "not set".
public struct SettingFormats: Sendable {
    /// A key's check: what is wrong with a text in a few words, or nil when it may be saved.
    public typealias Check = @Sendable (String) -> String?

    private let checks: [String: Check]

    /// The checks by defaults key; a key with none takes any text.
    public init(_ checks: [String: Check] = [:]) { self.checks = checks }

    /// No formats: every text passes (another app's settings bundle).
    public static let none = SettingFormats()

    /// The keys that have a form.
    public var keys: Set<String> { Set(checks.keys) }

    /// What is wrong with `text` as the value of `key`, or nil when it may be saved.
    public func problem(forKey key: String, text: String) -> String? {
        guard let check = checks[key], !text.allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
        // Nothing with a form is this long (a path stops at PATH_MAX): said without parsing, so
        // a page pasted into a field costs each frame no parse of all of it.
        guard text.utf8.count <= Self.longestText else { return "longer than \(Self.longestText) bytes" }
        return check(text)
    }

    /// The longest text a form can have: PATH_MAX, longer than any address or place.
    public static let longestText = 4096

    /// The message refusing `value` for `key` on the command line, or nil when it may be
    /// saved. Only text is checked: the app reads these keys as text and nothing else. The
    /// problem names the part of the text at fault; the whole text is not repeated.
    public func refusal(forKey key: String, value: PropertyListValue) -> String? {
        guard case .string(let text) = value, let problem = problem(forKey: key, text: text) else { return nil }
        return "Not saved: \(key): \(problem)."
    }
}
