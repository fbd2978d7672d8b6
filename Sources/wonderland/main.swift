import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import TextSafety
import Defaults
import Platform
import Restoration
import Settings
import Terminal
import WonderlandApp

struct Wonderland: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wonderland",
        abstract: "A terminal app that resumes exactly where you left off.",
        discussion: """
            Without a subcommand, starts the app. Tabs: 1 Map, 2 Characters, 3 Book.
            In the app, ? lists every key, `,` opens the settings and q quits.
            `-Key value` pairs override a default for this run only: wonderland -HPMapType 2.

            Files: state (the saved place, book indexes) in $XDG_STATE_HOME/wonderland,
            settings in $XDG_CONFIG_HOME/wonderland, books, collections and sync copies in
            $XDG_DATA_HOME/wonderland, the map cache in $XDG_CACHE_HOME/wonderland.
            `wonderland state usage` shows what each takes; `wonderland state clean` frees
            what can go.
            """,
        version: AppVersion.current,
        subcommands: [SettingsCommand.self, DefaultsCommand.self, CollectionsCommand.self, StateCommand.self, PlistCommand.self, CloudCommand.self,
                      HandoffCommand.self]
    )

    @Flag(help: "Draw the first frame, then exit (for start-up benchmarks).")
    var exitAfterFirstFrame = false

    @Flag(help: "Start on the default screens instead of where you left off (the saved place is replaced at the next save).")
    var fresh = false

    // Unconditional, so a southern or western place (`--location -33.87,151.21`) is not
    // taken for an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Use this as the current location instead of gpsd.", valueName: "lat,lon"))
    var location: String?

    @Option(help: ArgumentHelp("Open this .txt, .md or .epub file in the Book tab.", valueName: "path"))
    var book: String?

    @Flag(name: .customLong("continue"), help: ArgumentHelp("Start at the newest place another machine offers (Handoff); --continue=DEVICE for that device's place."))
    var continueNewest = false

    // `--continue=DEVICE` comes here, spelt `--continue-from DEVICE` before parsing.
    @Option(name: .customLong("continue-from"), help: ArgumentHelp(visibility: .hidden))
    var continueFrom: String?

    @Flag(help: ArgumentHelp("Print the manual page (roff) and exit.", visibility: .hidden))
    var generateManual = false

    func run() throws {
        if generateManual {
            print(ManualPage.render(), terminator: "")
            return
        }
        if continueNewest, continueFrom != nil { throw UsageProblem(message: "--continue is given twice") }
        let request: HandoffController.ContinueRequest? = continueFrom.map { .device($0) } ?? (continueNewest ? .newest : nil)
        try Self.runApp(AppLaunchArguments(fresh: fresh, exitAfterFirstFrame: exitAfterFirstFrame, location: location, book: book,
                                           continueRequest: request))
    }

    /// The interactive app, for a command line parsed by ArgumentParser or recognised by
    /// `AppLaunchArguments` without it.
    static func runApp(_ arguments: AppLaunchArguments) throws {
        let exitAfterFirstFrame = arguments.exitAfterFirstFrame
        // The settings bundle is read on the other core while the saved place is looked for
        // and the defaults are read: the defaults' registration is its first use. Its thread
        // starts first and reads the environment itself, so the bundle is usually ready by then.
        let settings = Prefetch(name: "wonderland-settings") { SettingsBundle.standard(environment: ProcessEnvironment.current()) }
        let environment = ProcessEnvironment.current()
        let files = RestorationFiles.standard(environment: environment)
        let hasSavedPlace = !arguments.fresh && access(files.archivePath, F_OK) == 0
        let launch = LaunchOptions(location: arguments.location, bookPath: arguments.book, environment: environment, hasSavedPlace: hasSavedPlace)
        if let problem = launch.problem { throw UsageProblem(message: problem) }
        let restoration = RestorationController.Configuration(files: files, fresh: arguments.fresh, appVersion: AppVersion.current)
        // A start-up measurement neither opens the synced store nor starts its worker.
        let cloud = exitAfterFirstFrame ? nil : CloudStoreFactory(replicas: .standard(dataFolderPath: launch.dataFolderPath))
        var options = AppRunner.Options(exitAfterFirstFrame: exitAfterFirstFrame, restoration: restoration,
                                        defaults: AppDefaults.controller(environment: environment, watchesForChanges: !exitAfterFirstFrame,
                                                                         bundle: { settings.value }),
                                        launch: launch, cloud: cloud)
        options.housekeeps = true
        options.continueRequest = arguments.continueRequest
        let status = AppRunner.run(options, environment: environment) { env in
            try NcursesTerminal(environment: env)
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// The store and schema every interactive run uses, with the `-Key value` argument domain.
enum AppDefaults {
    static let argumentSplit = ArgumentDomain.split(Array(CommandLine.arguments.dropFirst()), optionsWithValues: ["--location", "--book"])

    /// A run that exits after its first frame cannot see a change, and closing an inotify
    /// instance waits for the kernel (about 13 ms here), which would be timed as start-up.
    /// `bundle` is asked for once the store is read.
    static func controller(environment: [String: String], watchesForChanges: Bool = true,
                           bundle: () -> SettingsBundle) -> DefaultsController {
        var options = DefaultsStore.Options()
        options.watchesForChanges = watchesForChanges
        options.collectionsPath = DefaultsStore.standardCollectionsPath(environment: environment)
        options.writtenBy = AppVersion.current
        let store = DefaultsStore.standard(environment: environment, argumentDomain: argumentSplit.domain, options: options)
        return DefaultsController(store: store, bundle: bundle())
    }
}

/// A command line wonderland cannot act on: one line on standard error, exit status 2, and
/// the terminal never touched.
struct UsageProblem: Error {
    let message: String

    static let exitStatus: Int32 = 2

    static func exit(_ message: String) -> Never {
        StandardStream.error.write(Data("wonderland: \(SafeText.visible(message))\n".utf8))
        Glibc.exit(exitStatus)
    }
}

// `-Key value` pairs are the defaults' argument domain (`wonderland -HPMapType 2`), not options.
do {
    if AppDefaults.argumentSplit.remaining == ["--version"] {
        // The line ArgumentParser prints, without its first parse (most of this command's time).
        print(AppVersion.current)
    } else if let launch = AppLaunchArguments.recognise(AppDefaults.argumentSplit.remaining) {
        try Wonderland.runApp(launch)
    } else {
        let arguments = AppDefaults.argumentSplit.remaining.flatMap { argument in
            AppLaunchArguments.continueDevice(argument).map { ["--continue-from", $0] } ?? [argument]
        }
        var command = try Wonderland.parseAsRoot(arguments)
        try command.run()
    }
} catch let problem as UsageProblem {
    UsageProblem.exit(problem.message)
} catch let code as ExitCode {
    // The app's own status (a signal ended it): nothing to print, so none of the usage
    // machinery that `exit(withError:)` builds on the way out.
    exit(code.rawValue)
} catch {
    // A misspelt option or a missing value: one line, not the usage screen (--help shows it).
    if Wonderland.exitCode(for: error) == .validationFailure {
        let first = Wonderland.message(for: error).split(separator: "\n").first.map(String.init) ?? "bad arguments"
        UsageProblem.exit(first + " (see \(UsageHint.helpCommand(for: AppDefaults.argumentSplit.remaining)))")
    }
    Wonderland.exit(withError: error)
}
