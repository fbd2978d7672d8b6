import Foundation

/// Where the app keeps its files, by the XDG base directory rules: the saved screens under
/// `$XDG_STATE_HOME/stateapp`, the settings under `$XDG_CONFIG_HOME/stateapp`. A relative
/// value is ignored, as the specification asks.
public struct StateFolders: Sendable {
    public let state: URL
    public let config: URL

    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func folder(_ variable: String, else fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            return URL(fileURLWithPath: home).appendingPathComponent(fallback)
        }
        state = folder("XDG_STATE_HOME", else: ".local/state").appendingPathComponent("stateapp")
        config = folder("XDG_CONFIG_HOME", else: ".config").appendingPathComponent("stateapp")
    }

    public var settingsFile: URL { config.appendingPathComponent("settings.plist") }
}
