import FoundationEssentials
import PropertyList

/// NSUserDefaults' typed getters and setters. A getter takes the value a lookup finds and
/// converts it (see `DefaultsConversion`); when there is none, or it cannot be converted, it
/// falls back to the registered default, and then to 0, false or empty.
extension DefaultsStore {
    public func bool(forKey key: String) -> Bool { typed(key, DefaultsConversion.bool) ?? false }
    public func integer(forKey key: String) -> Int { typed(key, DefaultsConversion.integer) ?? 0 }
    public func double(forKey key: String) -> Double { typed(key, DefaultsConversion.double) ?? 0 }
    public func string(forKey key: String) -> String { typed(key, DefaultsConversion.string) ?? "" }
    public func data(forKey key: String) -> Data { typed(key, DefaultsConversion.data) ?? Data() }
    /// Dates have no empty value: nil when neither the value nor the registered default is one.
    public func date(forKey key: String) -> Date? { typed(key, DefaultsConversion.date) }
    public func array(forKey key: String) -> [PropertyListValue] { typed(key, DefaultsConversion.array) ?? [] }
    public func dictionary(forKey key: String) -> [String: PropertyListValue] {
        typed(key, DefaultsConversion.dictionary) ?? [:]
    }

    public func set(_ value: Bool, forKey key: String) { set(.boolean(value), forKey: key) }
    public func set(_ value: Int, forKey key: String) { set(.integer(Int64(value)), forKey: key) }
    public func set(_ value: Double, forKey key: String) { set(.real(value), forKey: key) }
    public func set(_ value: String, forKey key: String) { set(.string(value), forKey: key) }
    public func set(_ value: Data, forKey key: String) { set(.data(value), forKey: key) }
    public func set(_ value: Date, forKey key: String) { set(.date(value), forKey: key) }
    public func set(_ value: [PropertyListValue], forKey key: String) { set(.array(value), forKey: key) }
    public func set(_ value: [String: PropertyListValue], forKey key: String) { set(.dictionary(value), forKey: key) }

    private func typed<T>(_ key: String, _ convert: (PropertyListValue) -> T?) -> T? {
        if let value = object(forKey: key), let converted = convert(value) { return converted }
        if let fallback = registeredDefaults[key], let converted = convert(fallback) { return converted }
        return nil
    }
}
