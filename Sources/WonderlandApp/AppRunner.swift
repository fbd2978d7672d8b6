import Screens
import Terminal
#if canImport(Glibc)
import Glibc
#endif

/// Starts the interactive app on a terminal and guarantees the terminal is given back before
/// anything is printed, however the run ends.
public enum AppRunner {
    public struct Options {
        public var exitAfterFirstFrame = false
        public init(exitAfterFirstFrame: Bool = false) { self.exitAfterFirstFrame = exitAfterFirstFrame }
    }

    /// Runs the app and returns the process exit status. `makeRoot` is for tests; the app always
    /// starts from `RootScreen.make()`.
    public static func run(_ options: Options, environment: [String: String], makeTerminal: ([String: String]) throws -> Terminal,
                           makeRoot: () -> Screen = { RootScreen.make() }) -> Int32 {
        let terminal: Terminal
        do {
            terminal = try makeTerminal(environment)
        } catch {
            printError(error)
            return 1
        }
        let application = Application(terminal: terminal, root: makeRoot())
        do {
            let reason = try application.run(exitAfterFirstFrame: options.exitAfterFirstFrame)
            terminal.restore()
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

    static func printError(_ error: Error) {
        var line = "wonderland: \(error)\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
