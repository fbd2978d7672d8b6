import FoundationEssentials
import Platform
import Defaults
import PropertyList

/// Where the current location was taken from.
public enum LocationOrigin: Equatable, Sendable {
    case commandLine(GeoPoint)
    case setting(GeoPoint)
    case gpsd(GPSDAddress)
}

/// The outcome of choosing a location source: where from, and what was wrong with the inputs
/// passed over on the way (each a short sentence for the status line).
public struct LocationChoice: Equatable, Sendable {
    public let origin: LocationOrigin
    public let problems: [String]
}

/// Chooses the current location's source: `--location LAT,LON` wins, then the Manual Location
/// setting, else gpsd at WONDERLAND_GPSD, else the gpsd Address setting, else localhost:2947.
/// Bad text at any step is reported and passed over, never fatal.
public enum LocationSourceFactory {
    /// Settings.bundle: "lat,lon", empty for none.
    public static let manualLocationKey = MapDefaultsKey.manualLocation
    /// Settings.bundle: "host:port", empty for localhost:2947.
    public static let gpsdAddressKey = MapDefaultsKey.gpsdAddress
    public static let gpsdEnvironmentVariable = "WONDERLAND_GPSD"
    /// The defaults keys whose change means choosing again.
    public static let settingKeys: Set<String> = [manualLocationKey, gpsdAddressKey]

    public static func choose(commandLine: String?, store: PreferenceStore, environment: [String: String]) -> LocationChoice {
        var problems: [String] = []
        if let commandLine {
            switch LocationText.parse(commandLine) {
            case .success(let point): return LocationChoice(origin: .commandLine(point), problems: problems)
            case .failure(let error): problems.append("--location “\(commandLine)”: \(error)")
            }
        }
        if let manual = text(store, manualLocationKey) {
            switch LocationText.parse(manual) {
            case .success(let point): return LocationChoice(origin: .setting(point), problems: problems)
            case .failure(let error): problems.append("Manual Location “\(manual)”: \(error)")
            }
        }
        var address = GPSDAddress.standard
        let candidates = [(environment[gpsdEnvironmentVariable], gpsdEnvironmentVariable),
                          (text(store, gpsdAddressKey), "gpsd Address")]
        for case let (given?, name) in candidates where !given.trimmingSpaces().isEmpty {
            switch GPSDAddress.parse(given) {
            case .success(let parsed):
                address = parsed
            case .failure(let error):
                problems.append("\(name) “\(given)”: \(error)")
                continue
            }
            break
        }
        return LocationChoice(origin: .gpsd(address), problems: problems)
    }

    /// The source for a choice, not yet started.
    public static func makeSource(for origin: LocationOrigin, gpsd: GPSDConfiguration = GPSDConfiguration()) -> LocationSource {
        switch origin {
        case .commandLine(let point): return FixedLocationSource(point, origin: "set by --location")
        case .setting(let point): return FixedLocationSource(point, origin: "set in Settings (Manual Location)")
        case .gpsd(let address):
            var configuration = gpsd
            configuration.address = address
            return GPSDLocationSource(configuration: configuration)
        }
    }

    private static func text(_ store: PreferenceStore, _ key: String) -> String? {
        guard case .string(let value)? = store.object(forKey: key) else { return nil }
        let trimmed = value.trimmingSpaces()
        return trimmed.isEmpty ? nil : trimmed
    }
}
