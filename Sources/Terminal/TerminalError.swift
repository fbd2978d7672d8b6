/// Why the real terminal could not be started. Each has a one-line message for the user.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
    case notATerminal
    case unknownTerminalType(String)
    case initializationFailed

    public var description: String {
        switch self {
        case .notATerminal:
            return "standard input and output must be a terminal (try `wonderland --help` for the commands that need none)"
        case .unknownTerminalType(let name):
            return "unknown terminal type \"\(name)\": set TERM to one your system knows, e.g. TERM=xterm-256color"
        case .initializationFailed:
            return "the terminal could not be initialised"
        }
    }
}
