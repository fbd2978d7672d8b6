import Foundation
import Testing

/// The real binary in a real terminal (tmux): what a person at a keyboard sees.
@Suite("End to end in tmux", .whenEndToEndIsAskedFor)
struct AppJourneyTests {
    @Test("start, switch tabs by key and by mouse, resize, quit to a clean prompt")
    func startSwitchResizeQuit() throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        try tmux.launchApp()
        var screen = try tmux.screen()
        #expect(screen[0] == "  1 Map   2 Characters   3 Book")
        #expect(screen[29].contains("? Help") && screen[29].contains("q Quit"))
        #expect(screen.joined().contains("Zoom 0/14"))  // the Map tab, the whole world

        try tmux.type("2")
        screen = try tmux.waitForText("▸ Alice")
        #expect(screen[1] == " Characters")

        try tmux.type("3")
        try tmux.waitForText("wonderland --book PATH")

        try tmux.click(x: 12, y: 0)  // on "2 Characters"
        try tmux.waitForText("▸ Alice")

        try tmux.resize(columns: 60, rows: 20)
        screen = try tmux.waitFor("a 60×20 frame") { $0.count >= 20 && $0[19].contains("Help") }
        #expect(screen[0] == "  1 Map   2 Characters   3 Book")
        #expect(screen[2] == "▸ Alice  ch. 1")

        try tmux.resize(columns: 20, rows: 6)
        try tmux.waitForText("Terminal too small")
        try tmux.resize(columns: 100, rows: 30)
        screen = try tmux.waitForText("▸ Alice")
        #expect(!screen.joined().contains("too small"))

        try tmux.type("q")
        // Until the prompt is back after the exit line (the shell prints it a moment later).
        screen = try tmux.waitFor("the prompt after exit=0") { lines in
            lines.firstIndex(of: "exit=0").map { $0 + 1 < lines.count && lines[$0 + 1] == "$" } ?? false
        }
        let exitLine = try #require(screen.firstIndex(of: "exit=0"))
        #expect(screen[exitLine + 1] == "$", "the prompt comes back on a clean line")
        #expect(!screen.joined().contains("1 Map"), "the app's screen is gone")
    }

    @Test("Ctrl-Z suspends to the shell, fg brings the same screen back")
    func suspendAndResume() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        // No "; echo" after the app here: the shell would run it as soon as the job stops.
        try tmux.run("clear; \(tmux.binary)")
        try tmux.waitForText("1 Map")
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.press("Down")
        try tmux.waitForText("▸ White Rabbit")
        try tmux.press("C-z")
        try tmux.waitForText("Stopped")
        try tmux.run("fg")
        let screen = try tmux.waitForText("▸ White Rabbit")
        #expect(screen[0] == "  1 Map   2 Characters   3 Book")
        try tmux.type("q")
        try tmux.run("echo \"exit=$?\"")
        try tmux.waitForText("exit=0")
    }

    @Test("SIGTERM and SIGHUP end the app in order and give the terminal back")
    func terminationSignals() throws {
        for (signal, status) in [("TERM", 143), ("HUP", 129)] {
            let tmux = try TmuxSession(columns: 80, rows: 24)
            try tmux.launchApp()
            let shell = try tmux.tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
            let app = try #require(childProcess(of: shell))
            kill(app, signal == "TERM" ? SIGTERM : SIGHUP)
            let screen = try tmux.waitForText("exit=\(status)")
            #expect(!screen.joined().contains("1 Map"))
        }
    }

    @Test("Ctrl-C quits from inside a text editor, where q is just a letter")
    func controlCQuitsAnywhere() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.press("Enter")
        try tmux.waitForText("Characters › Alice")
        try tmux.type("e")  // the detail's notes editor
        try tmux.waitForText("Notes (editing")
        try tmux.type("quiet 世界")
        try tmux.waitForText("quiet 世界")
        try tmux.press("C-c")
        try tmux.waitForText("exit=130")
    }

    @Test("unknown TERM and a stdin that is not a terminal: one line, non-zero exit")
    func badTerminal() throws {
        let tmux = try TmuxSession(columns: 100, rows: 10)
        try tmux.run("clear; TERM=no-such-terminal \(tmux.binary); echo \"exit=$?\"")
        var screen = try tmux.waitForText("exit=1")
        #expect(screen.contains { $0.hasPrefix("wonderland: unknown terminal type \"no-such-terminal\"") })
        try tmux.run("clear; \(tmux.binary) < /dev/null; echo \"exit=$?\"")
        // The first run's "exit=1" is on screen until `clear` runs: wait for the second run's line.
        screen = try tmux.waitFor("the second run") { lines in
            lines.contains { $0.hasPrefix("wonderland: standard input") } && lines.contains("exit=1")
        }
        #expect(screen.contains { $0.hasPrefix("wonderland: standard input and output must be a terminal") })
    }

    @Test("a non-UTF-8 locale still draws, with ASCII stand-ins")
    func asciiLocale() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24, environment: ["LANG": "C", "LC_ALL": "C"])
        try tmux.launchApp()
        try tmux.type("2")
        let screen = try tmux.waitForText("> Alice")
        #expect(!screen.joined().contains("▸"))
        try tmux.type("q")
        try tmux.waitForText("exit=0")
    }

    @Test("NO_COLOR: no colour escapes reach the terminal")
    func noColor() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24, environment: ["NO_COLOR": "1"])
        try tmux.launchApp()
        let styled = try tmux.tmux(["capture-pane", "-t", "0", "-p", "-e"])
        let colourCode = try Regex(#"\e\[(?:[0-9;]*;)?(?:3[0-7]|4[0-7]|38|48)(?:;|m)"#)
        #expect(styled.firstMatch(of: colourCode) == nil, "no foreground or background colour codes")
        #expect(styled.contains("[7m") || styled.contains(";7m"), "reverse video still marks the bars")
        try tmux.type("q")
        try tmux.waitForText("exit=0")
    }

    @Test("--exit-after-first-frame draws once and exits cleanly")
    func exitAfterFirstFrame() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.run("clear; \(tmux.binary) --exit-after-first-frame; echo \"exit=$?\"")
        try tmux.waitForText("exit=0")
    }
}

/// The pid of the one child of `parent` (the app under the pane's shell).
func childProcess(of parent: String) -> pid_t? {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
        if let text = try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8),
           let first = text.split(separator: " ").first, let pid = pid_t(first) {
            return pid
        }
        usleep(50_000)
    }
    return nil
}
