import FoundationEssentials
import PropertyList

/// What the defaults may hold: what their file's writer writes. `PropertyListValue.storageProblem`
/// names what it does not (a NaN or infinite date, a date outside years 0...9999, a UID past
/// Int64, containers nested too deep). Such a value is refused where it comes in, and left out
/// when an existing file holds one: otherwise every later save of the whole file would fail.
public enum DefaultsStorability {
    /// What in `value`, saved under `key`, cannot be saved ("the date is not a number (nan) at
    /// WLWhen"), or nil when all of it can.
    public static func problem(forKey key: String, value: PropertyListValue) -> String? {
        PropertyListValue.dictionary([key: value]).storageProblem
    }

    /// The message refusing `value` for `key`, or nil when it can be saved.
    public static func refusal(forKey key: String, value: PropertyListValue) -> String? {
        problem(forKey: key, value: value).map(refusal(for:))
    }

    public static func refusal(for problem: String) -> String {
        "Not saved: \(problem), which the settings file cannot hold."
    }

    /// `values` without the keys whose values cannot be saved, and what is wrong with each one
    /// left out, sorted by key.
    public static func partition(_ values: [String: PropertyListValue]) -> (kept: [String: PropertyListValue], problems: [String]) {
        // The common case is one walk of the whole dictionary, not one per key.
        if PropertyListValue.dictionary(values).storageProblem == nil { return (values, []) }
        var kept = values
        var problems: [String] = []
        for key in values.keys.sorted() {
            guard let problem = problem(forKey: key, value: values[key]!) else { continue }
            kept[key] = nil
            problems.append(problem)
        }
        return (kept, problems)
    }
}
