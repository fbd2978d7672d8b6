import Screens
import Terminal

extension DrivesApplication {
    /// Presses keys one after another, then lets the application handle them all.
    public func press(_ keys: Key...) throws {
        for key in keys { terminal.enqueue(.key(key)) }
        try app.processPendingEvents()
    }

    /// Presses keys given by name, as key-binding tables spell them: `"enter"`, `"esc"`,
    /// `"ctrl+s"`, `"alt+left"`, `"shift+tab"`, `"pagedown"`, `"f5"`, `"space"`, `"q"`.
    /// See `Key.init(name:)`. An unknown name throws ``PilotError/unknownKeyName(_:)``
    /// before any key is sent.
    public func press(_ name: String, _ more: String...) throws {
        let keys = try ([name] + more).map { name in
            guard let key = Key(name: name) else { throw PilotError.unknownKeyName(name) }
            return key
        }
        for key in keys { terminal.enqueue(.key(key)) }
        try app.processPendingEvents()
    }

    /// Types text a character at a time, as separate key presses (not as a paste).
    public func type(_ text: String) throws {
        for character in text { terminal.enqueue(.key(.character(character))) }
        try app.processPendingEvents()
    }

    /// Sends raw bytes as a terminal would, through the same `InputDecoder` as the
    /// real terminal; the input then falls quiet, as after a person stops typing, so a lone
    /// Esc becomes the Esc key.
    public func sendBytes(_ bytes: [UInt8]) throws {
        terminal.feed(bytes)
        try app.processPendingEvents()
    }

    /// Sends the UTF-8 bytes of `text` through the input decoder: `sendBytes("\u{1B}[1;5C")`
    /// is Ctrl-→ as xterm sends it.
    public func sendBytes(_ text: String) throws {
        try sendBytes(Array(text.utf8))
    }

    /// A bracketed paste of `text`, as a terminal sends it: a focused field takes it as text,
    /// so a pasted line break or `q` does not act.
    public func paste(_ text: String) throws {
        try sendBytes(Array(("\u{1B}[200~" + text + "\u{1B}[201~").utf8))
    }

    /// A left click (press and release) on the cell at column `x`, row `y`.
    public func click(x: Int, y: Int) throws {
        terminal.enqueue(.mouse(MouseEvent(.press, at: Point(x: x, y: y))))
        terminal.enqueue(.mouse(MouseEvent(.release, at: Point(x: x, y: y))))
        try app.processPendingEvents()
    }

    /// A left click on the first cell of the first place `text` shows on the screen, searching
    /// from the top row (or only row `row`). Throws ``PilotError/textNotShown(_:screen:)`` when
    /// it is nowhere to be seen, with the screen in the message.
    public func click(on text: String, row: Int? = nil) throws {
        let rows = row.map { [$0] } ?? Array(0..<terminal.size.rows)
        for y in rows {
            if let x = column(of: text, row: y) { return try click(x: x, y: y) }
        }
        throw PilotError.textNotShown(text, screen: numberedScreen)
    }

    /// One turn of the mouse wheel at column `x`, row `y`.
    public func wheel(down: Bool, x: Int, y: Int) throws {
        terminal.enqueue(.mouse(MouseEvent(down ? .wheelDown : .wheelUp, button: .none, at: Point(x: x, y: y))))
        try app.processPendingEvents()
    }

    /// Resizes the terminal and lets the application lay itself out again.
    public func resize(columns: Int, rows: Int) throws {
        terminal.resize(to: Size(columns: columns, rows: rows))
        try app.processPendingEvents()
    }

    /// Sends any events (a signal's `.suspend`, `.resume`, `.terminate`, a `.wake` from
    /// background work), then lets the application handle them all.
    public func send(_ events: Event...) throws {
        for event in events { terminal.enqueue(event) }
        try app.processPendingEvents()
    }

    /// Lets the application handle what is queued and draw what was asked for since, as the
    /// run loop does between inputs: after a change made other than by input (a store changed
    /// by another process, a screen changed by the test itself).
    public func settle() throws {
        try app.processPendingEvents()
    }

    /// A tick with no input, as the run loop delivers when the user stops: the moment idle
    /// work (an autosave) is done.
    public func becomeIdle() throws {
        app.becomeIdle()
        try app.processPendingEvents()
    }

    /// Asks the application to quit, as the quit key does, and lets it end: its lifecycle
    /// observers see `applicationWillTerminate(_:reason:)` with `.quit`.
    public func quit() throws {
        try send(.terminate(.quit))
    }
}

/// Why the pilot could not do what a test asked.
public enum PilotError: Error, Equatable, CustomStringConvertible {
    /// `press("…")` was given a name no key has.
    case unknownKeyName(String)
    /// `click(on:)` was given text the screen does not show; `screen` is the screen, rows numbered.
    case textNotShown(String, screen: String)

    public var description: String {
        switch self {
        case .unknownKeyName(let name):
            "no key is named “\(name)” (try enter, esc, tab, shift+tab, up, pagedown, ctrl+s, alt+b, f5, space or one character)"
        case .textNotShown(let text, let screen):
            "“\(text)” is not on the screen:\n\(screen)"
        }
    }
}
