import ArgumentParser
import Screens
import Terminal
import WonderlandApp

/// `wonderland settings`: the settings screens on their own, like the Settings app outside the
/// app. Changes are written at once (coalesced) and a running `wonderland` shows them within a
/// second.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Change the app's settings in a settings screen (a running app sees changes within a second).",
        subcommands: [SettingsLintCommand.self])

    func run() throws {
        let environment = ProcessEnvironment.current()
        let options = AppRunner.Options(defaults: AppDefaults.controller(environment: environment))
        let status = AppRunner.run(options, environment: environment, makeTerminal: { try NcursesTerminal(environment: $0) },
                                   makeRoot: { services in
                                       // A Sync Server address with a password is refused, and the user told why.
                                       let guarded = CloudServerSettingGuard(store: services.store)
                                       let root = SettingsScreen.makeRoot(bundle: services.bundle, store: guarded)
                                       guarded.onRefusal = { [weak root] message in root?.present(Alert(title: "Sync Server", message: message)) }
                                       return root
                                   })
        if status != 0 { throw ExitCode(status) }
    }
}
