/// Why the real terminal could not be started. Each has a one-line message for the user.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
    case notATerminal
    case unknownTerminalType(String)
    /// A terminal terminfo knows that lacks what a full-screen app needs.
    case unsuitableTerminal(String, missing: String)
    case initializationFailed

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
