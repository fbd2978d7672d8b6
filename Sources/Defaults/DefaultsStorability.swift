import Foundation
import PropertyList

/// What the defaults may hold: exactly what their file's XML form can write. A value it cannot
/// write (a NaN or infinite date, a date outside years 0...9999, containers nested too deep) is
/// refused where it comes in, and left out when an existing file holds one: otherwise every
/// later save of the whole file would fail.
public enum DefaultsStorability {
    /// What in `value` cannot be saved in the defaults ("a date that is not a number (NaN)"),
    /// or nil when all of it can.
    public static func problem(with value: PropertyListValue) -> String? {
        if let problem = unwritableDate(in: value) { return problem }
        do {
            _ = try PropertyListSerializer.data(from: value, format: .xml)
            return nil
        } catch let error as PropertyListError {
            return "a value the XML form cannot write (\(error.message))"
        } catch {
            return "a value the XML form cannot write (\(error))"
        }
    }

    /// The message refusing `value` for `key`, or nil when it can be saved.
    public static func refusal(forKey key: String, value: PropertyListValue) -> String? {
        problem(with: value).map { "\(key) was not saved: it holds \($0), which the settings file cannot hold." }
    }

    /// `values` without the keys whose values cannot be saved, and a line per key left out
    /// ("WLWhen: a date that is not a number (NaN)"), sorted by key.
    public static func partition(_ values: [String: PropertyListValue]) -> (kept: [String: PropertyListValue], problems: [String]) {
        // The common case costs one serialization of the whole dictionary, not one per key.
        if problem(with: .dictionary(values)) == nil { return (values, []) }
        var kept = values
        var problems: [String] = []
        for key in values.keys.sorted() {
            guard let problem = problem(with: values[key]!) else { continue }
            kept[key] = nil
            problems.append("\(key): \(problem)")
        }
        return (kept, problems)
    }

    /// A date no format can hold says so in words rather than as the writer's arithmetic.
    private static func unwritableDate(in value: PropertyListValue, depth: Int = 0) -> String? {
        // Deeper than this the writer refuses anyway, and says so.
        guard depth < PropertyListLimits.maxDepth else { return nil }
        switch value {
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            if seconds.isNaN { return "a date that is not a number (NaN)" }
            if seconds.isInfinite { return "an infinite date" }
            if (try? PropertyListSerializer.data(from: value, format: .xml)) == nil { return "a date outside years 0...9999" }
            return nil
        case .array(let items):
            return items.lazy.compactMap { unwritableDate(in: $0, depth: depth + 1) }.first
        case .dictionary(let entries):
            return entries.keys.sorted().lazy.compactMap { unwritableDate(in: entries[$0]!, depth: depth + 1) }.first
        default:
            return nil
        }
    }
}
