import FoundationEssentials
import Platform

extension SettingsBundle {
    /// The environment variable naming the resources folder (the one holding Settings.bundle).
    public static let resourcesEnvironmentVariable = AppResources.environmentVariable

    /// Where the settings bundle folder is, if there is one on disk (see `AppResources`; a
    /// folder counts when it holds Root.plist). Nil when none is found; `standard` then uses
    /// the copy compiled into the binary.
    public static func locateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment,
                                       executablePath: String? = currentExecutablePath()) -> URL? {
        locatePath(environment: environment, executablePath: executablePath).map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// `locateDirectory` as a path, which is all a launch needs.
    private static func locatePath(environment: [String: String], executablePath: String?) -> String? {
        AppResources.locate("Settings.bundle", proof: "Root.plist", environment: environment, executablePath: executablePath)
    }

    /// The running binary's path (through /proc on Linux, else argv[0]).
    public static func currentExecutablePath() -> String? { AppResources.currentExecutablePath }

    /// The app's settings bundle: the folder `locateDirectory` finds, else the compiled-in copy.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment,
                                executablePath: String? = currentExecutablePath()) -> SettingsBundle {
        // The languages come from the environment given, not the process's: ProcessInfo's
        // first use is time a launch waits for.
        let languages = SettingsLanguages.preferred(environment: environment)
        if let directory = locatePath(environment: environment, executablePath: executablePath) {
            return load(directoryPath: directory, languages: languages)
        }
        return embedded(languages: languages)
    }

    /// The copy of Resources/Settings.bundle compiled into the binary.
    public static var embedded: SettingsBundle { embedded(languages: nil) }

    private static func embedded(languages: [String]?) -> SettingsBundle {
        load(source: .embedded, languages: languages) { name in
            embeddedFiles[name].map { text in
                var text = text
                return text.withUTF8 { Data(buffer: $0) }
            }
        }
    }
}
