/// Why the real terminal could not be started. Each has a one-line message for the user
/// (``description``); the terminal is left as it was, so the message can be printed as is.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
    /// Standard input or output is not a terminal (a pipe, a file, a service).
    case notATerminal
    /// TERM names a type the terminfo database does not know; empty when TERM is not set.
    case unknownTerminalType(String)
    /// A terminal terminfo knows that lacks what a full-screen app needs.
    case unsuitableTerminal(String, missing: String)
    /// Curses could not start for another reason.
    case initializationFailed

    /// What went wrong and what to do about it, in one line.
    public var description: String {
        switch self {
        case .notATerminal:
            return "standard input and output must be a terminal (try `wonderland --help` for the commands that need none)"
        case .unknownTerminalType(let name) where name.isEmpty:
            return "TERM is not set: set it to your terminal's type, e.g. TERM=xterm-256color"
        case .unknownTerminalType(let name):
            return "unknown terminal type \"\(name)\": set TERM to one your system knows, e.g. TERM=xterm-256color"
        case .unsuitableTerminal(let name, let missing):
            return "the terminal \"\(name)\" has no \(missing), which the app needs: run it in a full-screen terminal, e.g. TERM=xterm-256color (the commands in `wonderland --help` work anywhere)"
        case .initializationFailed:
            return "the terminal could not be initialised"
        }
    }
}
