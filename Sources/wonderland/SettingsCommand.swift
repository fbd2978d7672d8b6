import ArgumentParser
import Defaults
import FoundationEssentials
import Platform
import Screens
import Settings
import Terminal
import WonderlandApp

/// `wonderland settings`: the settings screens on their own, like the Settings app outside the
/// app. Changes are written at once (coalesced) and a running `wonderland` shows them within a
/// second.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Change the app's settings in a settings screen (a running app sees changes within a second).",
        discussion: """
            The screen is built from wonderland's Settings.bundle schema and writes the same \
            defaults file as `wonderland defaults`. With --bundle, another app's \
            Settings.bundle is shown, on a defaults file of its own.
            """,
        subcommands: [SettingsLintCommand.self])

    @Option(help: "Show this Settings.bundle instead of wonderland's own, with its own defaults (bundle-NAME.plist beside defaults.plist).")
    var bundle: String?

    @Option(help: "Show titles in this language (default: from LANGUAGE, LC_ALL, LC_MESSAGES, LANG).")
    var language: String?

    func run() throws {
        let environment = ProcessEnvironment.current()
        if let bundle { return try runForeign(bundle: bundle, environment: environment) }
        let options = AppRunner.Options(defaults: AppDefaults.controller(environment: environment) { SettingsBundle.standard(environment: environment) })
        let status = AppRunner.run(options, environment: environment, makeTerminal: { try NcursesTerminal(environment: $0) },
                                   makeRoot: { services in
                                       // A Sync Server address with a password is refused, and the user told why.
                                       let guarded = CloudServerSettingGuard(store: services.store)
                                       let root = SettingsScreen.makeRoot(bundle: services.bundle, store: guarded, formats: .wonderland,
                                                                          rowKeys: SyncFolderCreation.rowKeys(launch: services.launch))
                                       guarded.onRefusal = { [weak root] message in root?.present(Alert(title: "Sync Server", message: message)) }
                                       return root
                                   })
        if status != 0 { throw ExitCode(status) }
    }

    /// Another app's Settings.bundle, every child pane with it, on a defaults file of its own.
    private func runForeign(bundle path: String, environment: [String: String]) throws {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder else {
            StandardStream.error.write(Data("wonderland settings: \(path): not a folder\n".utf8))
            throw ExitCode.failure
        }
        let directory = URL(fileURLWithPath: path)
        let languages = language.map { SettingsLanguages.preferred(environment: ["LANGUAGE": $0]) }
            ?? SettingsLanguages.preferred(environment: environment)
        var schema = SettingsBundle.load(directory: directory, languages: languages)
        // Each pane shows its own file's errors above its rows, and `settings lint` lists them
        // all; another app's mistakes are no reason for a start-up alert in front of the screen.
        schema.errors = []
        let store = DefaultsStore(fileURL: SettingsBundleDomain.fileURL(for: directory, environment: environment))
        let options = AppRunner.Options(defaults: DefaultsController(store: store, bundle: schema))
        let status = AppRunner.run(options, environment: environment, makeTerminal: { try NcursesTerminal(environment: $0) },
                                   makeRoot: { services in SettingsScreen.makeRoot(bundle: services.bundle, store: services.store) })
        if status != 0 { throw ExitCode(status) }
    }
}
