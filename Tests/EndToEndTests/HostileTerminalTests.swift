import Foundation
import Testing

/// The terminal is always given back, and what reaches it is safe: signals that end the app,
/// terminals that cannot show it, and hostile text in titles, with the real binary in tmux.
@Suite("Hostile terminal in tmux", .whenEndToEndIsAskedFor)
struct HostileTerminalTests {
    /// Runs the app under a plain `sh` that records the tty modes before and after it, so a
    /// mode left behind shows as "modes=changed". Not straight from the pane's bash: bash puts
    /// back the modes of a job killed by a signal, which would hide what the app left. Core
    /// dumps are off: SIGQUIT and the crash signals would leave a core file behind.
    /// Returns the app's pid.
    @discardableResult
    private func launchRecordingModes(_ tmux: TmuxSession) throws -> pid_t {
        let script = tmux.home.appendingPathComponent("run-app.sh")
        try """
            stty -g > "$HOME/modes-before"
            "$1"
            echo "exit=$?"
            stty -g > "$HOME/modes-after"
            cmp -s "$HOME/modes-before" "$HOME/modes-after" && echo modes=same || echo modes=changed

            """.write(to: script, atomically: true, encoding: .utf8)
        try tmux.run("clear; ulimit -c 0; sh '\(script.path)' '\(tmux.binary)'")
        _ = try tmux.waitForText("1 Map")
        let runner = try tmux.appPID()
        guard let app = childProcess(of: "\(runner)") else { throw E2EError("no app under the script \(runner)") }
        return app
    }

    private func alternateScreenIsOn(_ tmux: TmuxSession) throws -> Bool {
        try tmux.tmux(["display-message", "-p", "-t", "0", "#{alternate_on}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    @Test("SIGUSR1, SIGUSR2, SIGALRM, SIGQUIT, SIGSEGV, SIGABRT: main screen, cooked modes, the signal's own exit status",
          arguments: [("USR1", SIGUSR1), ("USR2", SIGUSR2), ("ALRM", SIGALRM), ("QUIT", SIGQUIT), ("SEGV", SIGSEGV), ("ABRT", SIGABRT)])
    func signalGivesTheTerminalBack(_ name: String, _ number: Int32) throws {
        let tmux = try TmuxSession(columns: 80, rows: 24, journey: "signal-\(name)")
        let app = try launchRecordingModes(tmux)
        #expect(try alternateScreenIsOn(tmux))
        kill(app, number)
        let screen = try tmux.waitForText("modes=")
        tmux.check(screen.contains("exit=\(128 + number)"), "the shell saw the app end by SIG\(name)")
        tmux.check(screen.contains("modes=same"), "the tty modes are the shell's again")
        tmux.check(!screen.joined().contains("1 Map"), "the app's frame is gone with the alternate screen")
        #expect(try !alternateScreenIsOn(tmux))
        try tmux.run("echo typed-$((6 * 7))")
        _ = try tmux.waitForText("typed-42")
        let cursorShown = try tmux.tmux(["display-message", "-p", "-t", "0", "#{cursor_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(cursorShown == "1")
    }

    @Test("SIGPIPE is not the end: the app keeps running, and q still saves and quits")
    func sigpipeIsIgnored() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        kill(try launchRecordingModes(tmux), SIGPIPE)
        try tmux.type("2")
        _ = try tmux.waitForText("▸ Alice")
        try tmux.type("q")
        let screen = try tmux.waitForText("modes=")
        #expect(screen.contains("exit=0"))
        #expect(screen.contains("modes=same"))
    }

    @Test("TERM=dumb and a TERM full of escapes: one line on stderr naming the terminal, exit 1, the screen untouched")
    func terminalsThatCannotShowTheApp() throws {
        let tmux = try TmuxSession(columns: 100, rows: 12)
        let errors = tmux.home.appendingPathComponent("stderr").path
        try tmux.run("clear; TERM=dumb \(tmux.binary) 2> '\(errors)'; echo \"exit=$?\"")
        _ = try tmux.waitForText("exit=1")
        #expect(try !alternateScreenIsOn(tmux))
        let dumb = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(dumb.split(separator: "\n").count == 1)
        #expect(dumb.hasPrefix("wonderland: the terminal \"dumb\" has no cursor addressing"))

        // The first run's "exit=1" is on screen until `clear` runs: this run says its own word.
        try tmux.run("clear; TERM=$'\\e[31mred\\e]0;owned\\a' \(tmux.binary) 2> '\(errors)'; echo \"escaped-exit=$?\"")
        _ = try tmux.waitForText("escaped-exit=1")
        let hostile = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(hostile == "wonderland: unknown terminal type \"␛[31mred␛]0;owned␇\": set TERM to one your system knows, e.g. TERM=xterm-256color\n")
    }

    @Test("state show prints an old log line holding escapes with stand-ins, and bounded")
    func stateShowPrintsTheLogVisibly() throws {
        let tmux = try TmuxSession(columns: 80, rows: 12)
        try FileManager.default.createDirectory(at: tmux.stateFolder, withIntermediateDirectories: true)
        // As a version that wrote lines as they came would have left it.
        let line = "2026-01-01T00:00:00Z launch: not restored: class \u{1B}]0;owned\u{7}\u{1B}[2J" + String(repeating: "A", count: 5000) + "\n"
        try Data(line.utf8).write(to: tmux.stateFolder.appendingPathComponent("restoration.log"))
        let (_, output) = try tmux.wonderland("state", "show")
        #expect(output.contains("launch: not restored: class ␛]0;owned␇␛[2J"))
        #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        let shown = try #require(output.split(separator: "\n").first { $0.contains("not restored") })
        #expect(shown.hasSuffix("A…"))
        #expect(shown.count < 500)
    }

    @Test("a pin title typed with a right-to-left override and a C1 CSI: a stand-in, and the CSI read as one")
    func hostilePinTitle() throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        try tmux.launchApp()
        try tmux.type("r")
        _ = try tmux.waitForText("Remember this place")
        try tmux.press("C-u")
        // "Home", U+202E, "gpj.exe ", U+009B (the one-byte form of ESC [), "31mred".
        let bytes = Array("Home".utf8) + [0xE2, 0x80, 0xAE] + Array("gpj.exe ".utf8) + [0xC2, 0x9B] + Array("31mred".utf8)
        // Typed, not pasted, U+009B is the terminal's CSI itself: it and its `31m` are read as
        // a sequence and dropped, never text; the override is text and shows as a stand-in.
        try tmux.tmux(["send-keys", "-t", "0", "-H"] + bytes.map { String(format: "%02x", $0) })
        _ = try tmux.waitForText("Home\u{FFFD}gpj.exe red")
        try tmux.press("Enter")
        let screen = try tmux.waitForText("⚑ Home\u{FFFD}gpj.exe red")
        let text = screen.joined(separator: "\n")
        #expect(!text.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x9B })
        try tmux.type("q")
        _ = try tmux.waitForText("exit=0")
    }

    @Test("a book whose title holds ESC [31m and U+202E shows stand-ins, and no colour escapes from it")
    func hostileBookTitle() throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        let book = tmux.home.appendingPathComponent("hostile.txt")
        let text = "Title: \u{1B}[31mRed\u{202E}gpj.exe\u{7}\r\n\r\nCHAPTER I\r\n\r\nShe went on.\r\n"
        try Data(text.utf8).write(to: book)
        try tmux.launchApp("--book '\(book.path)'")
        try tmux.type("3")
        let screen = try tmux.waitForText("␛[31mRed\u{FFFD}gpj.exe␇")
        #expect(!screen.joined().unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x07 })
        let styled = try tmux.tmux(["capture-pane", "-t", "0", "-p", "-e"])
        #expect(!styled.contains("\u{1B}[31m"), "the title's escape did not colour the terminal")
        try tmux.type("q")
        _ = try tmux.waitForText("exit=0")
    }
}
