import FoundationEssentials

extension SettingsBundle {
    /// The environment variable naming the resources folder (the one holding Settings.bundle).
    public static let resourcesEnvironmentVariable = "WONDERLAND_RESOURCES"

    /// Where the settings bundle folder is, if there is one on disk:
    /// 1. `$WONDERLAND_RESOURCES/Settings.bundle` when the variable is set (returned even when
    ///    missing, so the loader reports it rather than quietly using another copy);
    /// 2. walking up from the executable's folder: `<dir>/Resources/Settings.bundle` (a checkout:
    ///    `.build/debug/wonderland` finds the repository's Resources) or
    ///    `<dir>/share/wonderland/Settings.bundle` (an install under a prefix, `bin/` beside `share/`).
    /// Nil when neither is found; `standard` then uses the copy compiled into the binary.
    public static func locateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment,
                                       executablePath: String? = currentExecutablePath()) -> URL? {
        if let resources = environment[resourcesEnvironmentVariable], !resources.isEmpty {
            return URL(fileURLWithPath: resources).appendingPathComponent("Settings.bundle")
        }
        guard let executablePath else { return nil }
        var folder = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while true {
            for candidate in ["Resources/Settings.bundle", "share/wonderland/Settings.bundle"] {
                let bundle = folder.appendingPathComponent(candidate)
                if FileManager.default.fileExists(atPath: bundle.appendingPathComponent("Root.plist").path) { return bundle }
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path || folder.path == "/" { return nil }
            folder = parent
        }
    }

    /// The running binary's path (through /proc on Linux, else argv[0]).
    public static func currentExecutablePath() -> String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return CommandLine.arguments.first.map { URL(fileURLWithPath: $0).path }
    }

    /// The app's settings bundle: the folder `locateDirectory` finds, else the compiled-in copy.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment,
                                executablePath: String? = currentExecutablePath()) -> SettingsBundle {
        if let directory = locateDirectory(environment: environment, executablePath: executablePath) {
            return load(directory: directory)
        }
        return embedded
    }

    /// The copy of Resources/Settings.bundle compiled into the binary.
    public static var embedded: SettingsBundle {
        load(source: .embedded, languages: nil) { embeddedFiles[$0].map { Data($0.utf8) } }
    }
}
