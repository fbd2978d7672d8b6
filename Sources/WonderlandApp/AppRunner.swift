import Defaults
import Restoration
import Screens
import Terminal
import TextSafety
#if canImport(Glibc)
import Glibc
#endif

/// Starts the interactive app on a terminal and guarantees the terminal is given back before
/// anything is printed, however the run ends.
public enum AppRunner {
    public struct Options {
        public var exitAfterFirstFrame = false
        /// Where and how the screen tree is saved and restored; nil runs without restoration.
        public var restoration: RestorationController.Configuration?
        /// The defaults store and settings schema; nil runs on an in-memory store.
        public var defaults: DefaultsController?
        public var launch: LaunchOptions
        /// How the synced store is opened when a Sync toggle is on; nil runs without syncing.
        public var cloud: CloudStoreFactory?
        /// Whether old moved-aside files and unused sync copies are let go after the first
        /// frame (`HousekeepingController`); never in a run that exits after it.
        public var housekeeps = false
        /// `--continue[=DEVICE]`: start at another machine's place (Handoff).
        public var continueRequest: HandoffController.ContinueRequest?
        public init(exitAfterFirstFrame: Bool = false, restoration: RestorationController.Configuration? = nil,
                    defaults: DefaultsController? = nil, launch: LaunchOptions = LaunchOptions(), cloud: CloudStoreFactory? = nil) {
            self.exitAfterFirstFrame = exitAfterFirstFrame
            self.restoration = restoration
            self.defaults = defaults
            self.launch = launch
            self.cloud = cloud
        }
    }

    /// Runs the app and returns the process exit status. `makeRoot` is for tests; the app always
    /// starts from `RootScreen.make()`.
    public static func run(_ options: Options, environment: [String: String], makeTerminal: ([String: String]) throws -> Terminal,
                           makeRoot: @escaping (AppServices) -> Screen = { RootScreen.make(services: $0) },
                           makeEngine: @escaping (AppServices) -> RestorationEngine = { RootScreen.restorationEngine(services: $0) }) -> Int32 {
        let services = options.defaults.map { AppServices(store: $0.store, bundle: $0.bundle, launch: options.launch) } ?? .inMemory(launch: options.launch)
        // The screens before the terminal: a screen that reads a file in the background (the
        // map) starts it when made, and the file is then read while curses starts.
        let root = makeRoot(services)
        let terminal: Terminal
        do {
            terminal = try makeTerminal(environment)
        } catch {
            printError(error)
            return 1
        }
        let application = Application(terminal: terminal, root: root)
        if let defaults = options.defaults { application.addLifecycleObserver(defaults) }
        // After the defaults controller: on an idle tick the defaults take other processes'
        // changes first, then the synced store's.
        let cloud = options.cloud.map { CloudController(services: services, factory: $0) }
        if let cloud { application.addLifecycleObserver(cloud) }
        if options.housekeeps, !options.exitAfterFirstFrame {
            application.addLifecycleObserver(HousekeepingController(environment: environment) { cloud?.place.replicaBackendName })
        }
        let restoration = options.restoration.map { configuration in
            var configuration = configuration
            // A start-up measurement must not write: it would time the save, and change what it measures.
            if options.exitAfterFirstFrame { configuration.savesState = false }
            return RestorationController(configuration: configuration, engine: makeEngine(services))
        }
        if let restoration { application.addLifecycleObserver(restoration) }
        // After the restoration: its place is the one an offer must be newer than, and a
        // continued place replaces it.
        if let cloud, !options.exitAfterFirstFrame {
            application.addLifecycleObserver(HandoffController(
                services: services, cloud: cloud, restoration: restoration, makeRoot: makeRoot, makeEngine: makeEngine,
                quarantine: options.restoration.map { HandoffQuarantine(folderPath: $0.files.folderPath) },
                appVersion: options.restoration?.appVersion ?? AppVersion.current, continueRequest: options.continueRequest))
        }
        do {
            let reason = try application.run(exitAfterFirstFrame: options.exitAfterFirstFrame)
            terminal.restore()
            if let error = restoration?.lastSaveError { printError("could not save your place (the previous save is kept): \(error)") }
            for warning in options.defaults?.exitWarnings ?? [] { printError(warning) }
            return reason == .quit ? 0 : 128 + signalNumber(reason)
        } catch {
            terminal.restore()  // before the message, or it would be lost on the alternate screen
            printError(error)
            return 1
        }
    }

    /// Exit status for a signal, as a shell reports it (128 + the signal's number).
    static func signalNumber(_ reason: TerminationReason) -> Int32 {
        switch reason {
        case .quit: return 0
        case .interrupt: return SIGINT
        case .terminate: return SIGTERM
        case .hangup: return SIGHUP
        }
    }

    static func printError(_ error: Error) { printError("\(error)") }

    /// One line on standard error, bounded and with no byte that could steer the terminal:
    /// the message may quote a path, a server's words or an archive.
    static func printError(_ message: String) {
        var line = "wonderland: \(SafeText.visible(SafeText.bounded(message, to: SafeText.lineLimit)))\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
