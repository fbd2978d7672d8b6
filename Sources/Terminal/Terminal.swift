import CNcursesw

/// Placeholder until the terminal layer lands (issue 2 in progress).
public enum TerminalLayer {
    public static func ncursesVersion() -> String { String(cString: curses_version()) }
}
