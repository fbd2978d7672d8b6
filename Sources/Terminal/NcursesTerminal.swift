import CNcursesw
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// The real terminal, through ncursesw's wide-character API. The only type that talks to curses.
///
/// Make one when the program starts its full-screen part, hand it to an `Application`, and call
/// ``restore()`` when the application returns or throws, before printing anything: until then
/// the terminal is in the alternate screen and raw mode.
public final class NcursesTerminal: Terminal {
    /// The terminal's size now; changes when a resize event is delivered.
    public private(set) var size: Size
    /// Colours and Unicode as worked out at start from terminfo, NO_COLOR and the locale.
    public let capabilities: TerminalCapabilities
    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private var shown: CellBuffer?
    private var colorPairs = ColorPairs()
    private var isRestored = false
    /// Keys, mouse reports and pastes decoded and not yet handed out.
    private var queued = EventQueue()
    /// Signal events beyond the first of one wake-up, handed out before any key.
    private var signalled: [Event] = []
    private var decoder = InputDecoder()
    /// The locale's charset: what typed text is read in and what a frame outside UTF-8 may keep.
    private var charset = InputCharset.utf8
    private var escapeDelay = 0.025
    private var modes = InputModes(mouse: false)
    /// terminfo's `smcup`: empty for a terminal without an alternate screen (the Linux console),
    /// which is cleared on the way out instead, so the shell does not come back over the last frame.
    private var enterScreen: [UInt8] = []
    private var clearScreen: [UInt8] = []
    /// When the decoder, waiting for the rest of a sequence, gives up (see `InputDecoder.timeout`).
    private var inputDeadline: ContinuousClock.Instant?
    private var readBuffer = [UInt8](repeating: 0, count: 16_384)
    private var lastStyle: (style: Style, attributes: attr_t, pair: Int16)?
    /// How long a paste may fall silent before what came of it is taken as the whole paste.
    private static let pasteSilence = 2.0

    /// Starts curses mode. Fails, leaving the terminal untouched, when stdin/stdout is not a
    /// terminal, or TERM names a terminal the system does not know or one that cannot show a
    /// full screen (no cursor addressing: dumb, a hardcopy terminal).
    public init(environment: [String: String]) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw TerminalError.notATerminal }
        setlocale(LC_ALL, "")
        let termName = environment["TERM"] ?? ""
        guard !termName.isEmpty else { throw TerminalError.unknownTerminalType(termName) }
        var reset = [CChar](repeating: 0, count: CrashGuard.resetCapacity)
        var resetLength: Int32 = 0
        switch wl_terminal_problem(termName, &reset, Int32(reset.count), &resetLength) {
        case WL_TERMINAL_USABLE: break
        case WL_TERMINAL_HARDCOPY: throw TerminalError.unsuitableTerminal(termName, missing: "screen (it is a hardcopy terminal)")
        case WL_TERMINAL_NO_CURSOR_ADDRESSING: throw TerminalError.unsuitableTerminal(termName, missing: "cursor addressing")
        default: throw TerminalError.unknownTerminalType(termName)
        }

        CrashGuard.arm(resetSequence: reset.prefix(Int(resetLength)).map { UInt8(bitPattern: $0) })
        SignalFlags.install()  // before newterm, so curses leaves SIGWINCH and SIGTSTP to us
        CrashGuard.cursesTookScreen()  // newterm already switches to the alternate screen
        StderrCapture.begin()
        guard let screen = wl_newterm(termName), let window = wl_stdscr() else {
            CrashGuard.cursesGaveScreenBack()
            StderrCapture.end()
            throw TerminalError.initializationFailed
        }
        self.screen = screen
        self.window = window
        _ = wl_settle_output()  // each frame in one write, not one per line
        let unicode = wl_codeset_is_utf8() == 1
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        var colors = false
        if !noColor && has_colors() {
            start_color()
            use_default_colors()
            colors = wl_colors() >= 8 && wl_color_pairs() >= 2
        }
        capabilities = TerminalCapabilities(colors: colors, unicode: unicode)
        size = Size(columns: Int(wl_cols()), rows: Int(wl_lines()))

        cbreak()  // Ctrl-C and Ctrl-Z stay signals, so they work the same in every screen
        noecho()
        nonl()
        wl_flow_control_off()
        // Keys are read as bytes and decoded by `InputDecoder`: curses neither reads stdin
        // nor looks ahead in it while drawing.
        keypad(window, false)
        typeahead(-1)
        curs_set(0)
        escapeDelay = Self.escapeDelay(environment)
        charset = TerminfoReading.charset()
        decoder = InputDecoder(terminfoKeys: TerminfoReading.keys(), charset: charset)
        modes = InputModes(mouse: wl_has_mouse() != 0,
                           keypadTransmit: TerminfoReading.capability("smkx") ?? [], keypadLocal: TerminfoReading.capability("rmkx") ?? [],
                           metaSendsEscape: wl_term_is_xterm_like(termName) != 0)
        enterScreen = TerminfoReading.capability("smcup") ?? []
        clearScreen = TerminfoReading.capability("clear") ?? []
        writeModes(modes.enable)
    }

    /// How long a lone Esc waits for the rest of a sequence: WONDERLAND_ESCDELAY, else curses'
    /// own ESCDELAY, in milliseconds (0–1000); 25 when neither is set.
    static func escapeDelay(_ environment: [String: String]) -> Double {
        for name in ["WONDERLAND_ESCDELAY", "ESCDELAY"] {
            if let value = environment[name].flatMap({ Int($0) }) {
                return Double(min(max(value, 0), 1000)) / 1000
            }
        }
        return 0.025
    }

    deinit { restore() }

    // MARK: output

    /// Draws the cells that changed since the last frame (all of them when `full`).
    public func present(_ frame: CellBuffer, full: Bool) {
        guard !isRestored else { return }
        let previous = (full || shown?.size != frame.size) ? nil : shown
        if previous == nil { clearok(window, true) }
        let ascii = capabilities.unicode ? frame : GlyphFallback.asciiFrame(frame, keeping: charset)
        let rows = min(ascii.size.rows, size.rows), columns = min(ascii.size.columns, size.columns)
        for y in 0..<rows {
            for x in 0..<columns {
                let cell = ascii[x, y]
                if cell.isContinuation { continue }
                if let previous, previous[x, y] == cell,
                   x + 1 >= columns || previous[x + 1, y] == ascii[x + 1, y] { continue }
                draw(cell, x: x, y: y)
            }
        }
        if let cursor = frame.cursor, cursor.x < columns, cursor.y < rows {
            wmove(window, Int32(cursor.y), Int32(cursor.x))
            curs_set(1)
        } else {
            curs_set(0)
        }
        wnoutrefresh(window)
        doupdate()
        shown = ascii
    }

    private func draw(_ cell: Cell, x: Int, y: Int) {
        let (attributes, pair) = curses(cell.style)
        // A cell is at most CCHARW_MAX scalars (the rest of a huge cluster is dropped), written
        // from a buffer on the stack: a full frame is thousands of cells.
        let limit = Int(wl_ccharw_max()) - 1
        withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: limit + 1) { wide in
            var count = 0
            for scalar in cell.text.unicodeScalars {
                if count == limit { break }
                wide[count] = wchar_t(bitPattern: scalar.value)
                count += 1
            }
            if count == 0 {
                wide[0] = 32
                count = 1
            }
            wide[count] = 0
            var character = cchar_t()
            setcchar(&character, wide.baseAddress, attributes, pair, nil)
            mvwadd_wch(window, Int32(y), Int32(x), &character)
        }
    }

    /// Curses' attributes and colour pair for `style`; the last one is kept, as neighbouring
    /// cells mostly share a style.
    private func curses(_ style: Style) -> (attr_t, Int16) {
        if let last = lastStyle, last.style == style { return (last.attributes, last.pair) }
        var attributes = wl_attr_normal()
        if style.bold { attributes |= wl_attr_bold() }
        if style.dim { attributes |= wl_attr_dim() }
        if style.underline { attributes |= wl_attr_underline() }
        if style.reverse { attributes |= wl_attr_reverse() }
        let pair = capabilities.colors ? colorPairs.pair(foreground: style.foreground, background: style.background) : 0
        lastStyle = (style, attributes, pair)
        return (attributes, pair)
    }

    // MARK: input

    /// Waits up to `timeout` seconds (nil: for ever) for input, a signal or a wake-up, and returns it as an event.
    public func nextEvent(timeout: Double?) -> Event? {
        nextEvent(timeout: timeout, watching: [])
    }

    /// Waits up to `timeout` seconds (nil: for ever) for input, a signal or a wake-up, and
    /// delivers `.wake` as soon as one of `descriptors` is readable.
    public func nextEvent(timeout: Double?, watching descriptors: [Int32]) -> Event? {
        // A signal goes before keys already read: Ctrl-C or SIGTERM must not wait behind a
        // flood of typed or pasted keys.
        if let event = signalEvent() { return event }
        // Under a flood, keep the tty drained while the keys read are handed out: a Ctrl-C
        // the line discipline has not reached yet is no signal.
        if !queued.isEmpty && queued.count < Self.queueLimit && Self.bytesWaiting() >= Self.floodBytes { readBytes(readBuffer.count) }
        if let event = signalEvent() ?? queued.popFirst() { return event }
        if let event = readInput() { return event }
        var wait = timeout
        if let deadline = inputDeadline {
            let left = (deadline - .now).components
            let seconds = max(0, Double(left.seconds) + Double(left.attoseconds) / 1e18)
            wait = min(wait ?? seconds, seconds)
        }
        let watchedReady = waitForInput(timeout: wait, watching: descriptors)
        if let event = signalEvent() ?? readInput() { return event }
        if watchedReady { return .wake }
        if let deadline = inputDeadline, ContinuousClock.now >= deadline {
            inputDeadline = nil
            queued.append(contentsOf: decoder.timeout())
            if let event = queued.popFirst() { return event }
        }
        return nil
    }
    /// Turns the flags the handlers set into events, most urgent first.
    private func signalEvent() -> Event? {
        if !signalled.isEmpty { return signalled.removeFirst() }
        let bits = SignalFlags.take()
        guard bits != 0 else { return nil }
        var events: [Event] = []
        if bits & SignalFlags.resume != 0 {
            if let resized = reenterAfterStop() { events.append(.resize(resized)) }
            events.append(.resume)
        }
        if bits & SignalFlags.resize != 0, let resized = resizeToWindow() { events.append(.resize(resized)) }
        if bits & SignalFlags.suspend != 0 { events.append(.suspend) }
        if bits & SignalFlags.hangup != 0 { events.append(.terminate(.hangup)) }
        if bits & SignalFlags.terminate != 0 { events.append(.terminate(.terminate)) }
        if bits & SignalFlags.interrupt != 0 { events.append(.terminate(.interrupt)) }
        if bits & SignalFlags.wake != 0 { events.append(.wake) }
        guard !events.isEmpty else { return nil }
        signalled = Array(events.dropFirst())
        return events.first
    }

    /// Puts back every mode after a stop the app did not make itself (`kill -STOP`, a debugger):
    /// the shell that got the terminal meanwhile left it in line mode with echo, and may have
    /// switched screens. Continued in the background (`kill -CONT` with the shell in front),
    /// the tty change stops the process again (SIGTTOU) until `fg`, whose SIGCONT brings it here
    /// again. Returns the new size when it changed while stopped.
    private func reenterAfterStop() -> Size? {
        guard !isRestored else { return nil }
        reset_prog_mode()
        writeModes(enterScreen + modes.enable)
        let before = size
        shown = nil
        let after = resizeToWindow()
        return after == before ? nil : after
    }

    /// Asks the kernel for the window size and tells curses about it.
    private func resizeToWindow() -> Size? {
        var winsize = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &winsize) == 0, winsize.ws_col > 0, winsize.ws_row > 0 else { return nil }
        resizeterm(Int32(winsize.ws_row), Int32(winsize.ws_col))
        size = Size(columns: Int(winsize.ws_col), rows: Int(winsize.ws_row))
        shown = nil
        return size
    }

    /// Reads what stdin has now, without waiting, and decodes it up to the first event. Bytes that end half-way
    /// through a sequence start the escape delay; the paste delay while a paste is open.
    private func readInput() -> Event? {
        while queued.isEmpty && stdinHasBytes() {
            // One byte at a time, as curses read: what is typed after the key that quits stays
            // in the terminal for the shell. A paste, whose end is known to come, is read in
            // bulk, and so is a flood (more waiting than anyone types ahead: text pasted
            // without brackets): left in the tty, it would hold a Ctrl-C behind it until every
            // key before had been handled, and what a flood leaves after a quit is no command
            // for the shell either.
            let wanted = decoder.isInPaste || Self.bytesWaiting() >= Self.floodBytes ? readBuffer.count : 1
            guard readBytes(wanted) else { break }
        }
        return queued.popFirst()
    }

    /// Reads up to `wanted` bytes and decodes them into the queue; false at the end of input
    /// (taken as a hangup) or on an error.
    @discardableResult
    private func readBytes(_ wanted: Int) -> Bool {
        let count = readBuffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, wanted) }
        if count == 0 { SignalFlags.record(SignalFlags.hangup) }
        guard count > 0 else { return false }
        queued.append(contentsOf: decoder.feed(readBuffer[..<count]))
        inputDeadline = decoder.isWaiting ? .now + .seconds(decoder.isInPaste ? Self.pasteSilence : escapeDelay) : nil
        return true
    }

    /// Events held before reading stops: a flood that never ends waits in the tty beyond it.
    private static let queueLimit = 1 << 16

    /// Bytes waiting on stdin that no typing ahead reaches.
    private static let floodBytes: Int32 = 256

    private static func bytesWaiting() -> Int32 {
        var count: Int32 = 0
        return ioctl(STDIN_FILENO, UInt(FIONREAD), &count) == 0 ? count : 0
    }

    private func stdinHasBytes() -> Bool {
        var fd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) > 0 && fd.revents & Int16(POLLIN) != 0
    }

    /// Sleeps in poll until stdin has bytes, a signal arrived, a watched descriptor is
    /// readable (true then) or the timeout passed; nil waits for as long as none of that happens.
    private func waitForInput(timeout: Double?, watching descriptors: [Int32]) -> Bool {
        StderrCapture.trim()
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
        fds.append(pollfd(fd: SignalFlags.wakes.readEnd, events: Int16(POLLIN), revents: 0))  // a negative fd is skipped by poll
        fds += descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        // Rounded up: a deadline 0.4 ms away must not become a zero wait that returns at once
        // and spins until it has passed.
        let milliseconds = timeout.map { Int32(max(0, min(($0 * 1000).rounded(.up), 86_400_000))) } ?? -1
        _ = poll(&fds, nfds_t(fds.count), milliseconds)
        if fds[1].revents != 0 { SignalFlags.wakes.drain() }
        // A terminal that went away without a SIGHUP reaching us (the app was not in its
        // foreground group) would otherwise wake this poll at once, forever: take it as a
        // hangup, so the app saves and quits.
        if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { SignalFlags.record(SignalFlags.hangup) }
        return fds.dropFirst(2).contains { $0.revents & Int16(POLLIN) != 0 }
    }

    /// Writes mode changes straight to the terminal: curses' `putp` keeps them in a buffer
    /// of its own until the process exits. The modes do not depend on which screen is shown, so
    /// their order against curses' own output does not matter.
    private func writeModes(_ sequence: [UInt8]) {
        var bytes = sequence[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    // MARK: leaving

    /// Gives the terminal back to the shell before the process stops (Ctrl-Z).
    public func suspend() {
        guard !isRestored else { return }
        // The shell may already have the terminal (it saw a wrapper script stop at the same
        // Ctrl-Z): giving the modes back must not stop us half-way, or the `fg` that
        // continues us would find the app stopping itself afterwards, for good.
        SignalFlags.ignoringTerminalStops {
            writeModes(modes.disable + (enterScreen.isEmpty ? clearScreen : []))
            CrashGuard.cursesGaveScreenBack()
            endwin()
        }
        StderrCapture.end()
        SignalFlags.stopProcessGroup()
        // Continued by `fg`: curses mode comes back with the next refresh; the size may have
        // changed while we were stopped.
        shown = nil
        _ = resizeToWindow()
        CrashGuard.cursesTookScreen()
        StderrCapture.begin()
        writeModes(modes.enable)
        wrefresh(window)
    }

    /// Gives the terminal back for good: modes, main screen and cursor as they were.
    public func restore() {
        guard !isRestored else { return }
        isRestored = true
        writeModes(modes.disable)
        CrashGuard.cursesGaveScreenBack()
        endwin()
        // Without an alternate screen the last frame would stay, with the shell's prompt on
        // its bottom row: leave a clean screen, as `clear` would.
        if enterScreen.isEmpty { writeModes(clearScreen) }
        delscreen(screen)
        StderrCapture.end()
    }
}

/// Allocates curses colour pairs on first use; pair 0 is the terminal's default colours.
private struct ColorPairs {
    private var pairs: [Int: Int16] = [:]

    mutating func pair(foreground: Color?, background: Color?) -> Int16 {
        if foreground == nil && background == nil { return 0 }
        let key = (foreground?.rawValue ?? 8) * 9 + (background?.rawValue ?? 8)
        if let known = pairs[key] { return known }
        let number = Int16(pairs.count + 1)
        guard Int32(number) < wl_color_pairs() else { return 0 }
        init_pair(number, Int16(foreground?.rawValue ?? -1), Int16(background?.rawValue ?? -1))
        pairs[key] = number
        return number
    }
}

/// The terminal modes the app turns on for its input: bracketed paste always (a terminal that
/// does not know it ignores the request), SGR mouse reports with button motion where terminfo
/// says the terminal has a mouse, as curses would have decided; keypad transmit mode as the
/// entry asks for it (`smkx`, so keys are sent as its key capabilities spell them: st's Delete
/// is `CSI 3 ~` only then); and on xterm-like terminals Alt sent as an Esc prefix
/// (metaSendsEscape), saved first and restored on the way out, since stock xterm otherwise sets
/// the eighth bit and Alt-f arrives as "æ".
struct InputModes {
    var mouse: Bool
    var keypadTransmit: [UInt8] = []
    var keypadLocal: [UInt8] = []
    var metaSendsEscape = false

    private static let saveAndSetMetaEscape = Array("\u{1B}[?1036s\u{1B}[?1036h".utf8)
    private static let restoreMetaEscape = Array("\u{1B}[?1036r".utf8)

    var enable: [UInt8] {
        (metaSendsEscape ? Self.saveAndSetMetaEscape : []) + keypadTransmit
            + Array(((mouse ? "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h" : "") + "\u{1B}[?2004h").utf8)
    }
    var disable: [UInt8] {
        Array(("\u{1B}[?2004l" + (mouse ? "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l" : "")).utf8)
            + keypadLocal + (metaSendsEscape ? Self.restoreMetaEscape : [])
    }
}
