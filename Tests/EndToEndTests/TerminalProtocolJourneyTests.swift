import Foundation
import Testing

/// The tty as a protocol and as the app's until it gives it back, with the real binary in tmux:
/// terminal replies change nothing, flow control keys are keys, any stop and continue leaves a
/// working app, and a terminal without an alternate screen is left clean.
@Suite("Terminal protocol in tmux", .whenEndToEndIsAskedFor)
struct TerminalProtocolJourneyTests {
    static func hex(_ text: String) -> [String] { text.utf8.map { String(format: "%02x", $0) } }

    static func isStopped(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)...].hasPrefix("T")
    }

    func ttyModes(_ tmux: TmuxSession) throws -> String {
        let tty = try tmux.tmux(["display-message", "-p", "-t", "0", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        return try Subprocess.run(["/bin/sh", "-c", "stty -a < \(tty)"]).output
    }

    @Test("replies and strings from the terminal act as no key: XTVERSION, sixel, OSC, DA, CPR, APC")
    func repliesChangeNothing() throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        try tmux.launchApp()
        let before = try tmux.waitForText("Follow")
        let replies = ["\u{1B}P>|tmux 3.3a\u{1B}\\", "\u{1B}Pq#0;2;0;0;0~~qq3m\u{1B}\\", "\u{1B}]11;rgb:ffff/ffff/dddd\u{07}",
                       "\u{1B}]10;rgb:0/0/0\u{1B}\\", "\u{1B}[?62;22c", "\u{1B}[>41;379;0c", "\u{1B}[12;40R", "\u{1B}_Gi=1;OK\u{1B}\\",
                       "\u{1B}[I", "\u{1B}[O", "\u{1B}[?2004;2$y"]
        for reply in replies { try tmux.tmux(["send-keys", "-t", "0", "-H"] + Self.hex(reply)) }
        // A key after them is still a key: the Characters tab shows.
        try tmux.type("2")
        let after = try tmux.waitForText("▸ Alice")
        tmux.check(!after.joined().contains("Remember this place"), "no prompt opened")
        try tmux.type("1")
        let map = try tmux.waitForText("Follow")
        tmux.check(map.first == before.first, "the tab bar is as before")
        tmux.check(map.contains { $0.contains("Standard · Follow") }, "map type and tracking unchanged")
        try tmux.type("q")
        _ = try tmux.waitForText("exit=0")
        let saved = try tmux.wonderland("defaults", "read")
        tmux.check(!saved.output.contains("HPMapType"), "no map type was saved: \(saved.output)")
        tmux.check(!saved.output.contains("Bookmark"), "no bookmark was added")
    }

    @Test("while the app runs Ctrl-S and Ctrl-Q are keys: flow control is off, and back on after quitting")
    func flowControlIsOff() throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        let shellModes = try ttyModes(tmux)
        try tmux.launchApp()
        tmux.check(try ttyModes(tmux).contains("-ixon"), "IXON off while the app runs")
        try tmux.press("C-s")
        try tmux.type("2")
        _ = try tmux.waitForText("▸ Alice")  // the screen still updates after Ctrl-S
        try tmux.type("q")
        _ = try tmux.waitForText("exit=0")
        tmux.check(try ttyModes(tmux).contains(" ixon") == shellModes.contains(" ixon"), "the shell's flow control is back")
    }

    @Test("kill -STOP, the shell's line mode, then fg or kill -CONT: raw again, and the screen repainted",
          arguments: [true, false])
    func stopFromOutsideThenContinue(jobControl: Bool) throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        // With job control the shell takes the terminal when the app stops, and `fg` gives it
        // back; without, the app stays in front and `kill -CONT` continues it there.
        try tmux.run(jobControl ? "set -m" : "set +m")
        try tmux.launchApp()
        let app = try tmux.appPID()
        let tty = try tmux.tmux(["display-message", "-p", "-t", "0", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        for round in 1...3 {
            kill(app, SIGSTOP)
            if jobControl {
                _ = try tmux.waitFor("the shell's prompt after the stop, round \(round)") { $0.joined().contains("Stopped") }
                try tmux.run("stty icanon echo ixon; clear; echo shell wrote here; fg")
            } else {
                _ = try Subprocess.run(["/bin/sh", "-c", "stty icanon echo ixon < \(tty); printf 'shell wrote here\\n' > \(tty)"])
                kill(app, SIGCONT)
            }
            try tmux.type(round % 2 == 1 ? "2" : "3")
            _ = try tmux.waitForText(round % 2 == 1 ? "▸ Alice" : "Book")
            let modes = try ttyModes(tmux)
            tmux.check(modes.contains("-icanon") && modes.contains("-echo ") && modes.contains("-ixon"), "modes put back, round \(round)")
            let repainted = try tmux.screen()
            tmux.check(!repainted.joined().contains("shell wrote here"), "the screen repainted, round \(round)")
        }
        // After a stop the shell no longer runs the rest of the launch line (its `echo exit=`).
        try tmux.type("q")
        try waitForExit(of: app)
    }

    @Test("Ctrl-Z under a wrapper script that does not exec the app: fg brings back a working app")
    func suspendUnderAWrapper() throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        let wrapper = tmux.home.appendingPathComponent("wrapper.sh")
        try "#!/bin/bash\n'\(tmux.binary)'\necho wrapper-done\n".write(to: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper.path, 0o755)
        try tmux.run("set -m; clear; '\(wrapper.path)'")
        _ = try tmux.waitForText("1 Map")
        let runner = try tmux.appPID()
        guard let app = childProcess(of: "\(runner)") else { throw E2EError("no app under the wrapper \(runner)") }
        for round in 1...3 {
            try tmux.press("C-z")
            _ = try tmux.waitFor("the shell after Ctrl-Z, round \(round)") { _ in Self.isStopped(app) }
            try tmux.run("fg")
            try tmux.type(round % 2 == 1 ? "2" : "1")
            _ = try tmux.waitForText(round % 2 == 1 ? "▸ Alice" : "Follow")
        }
        try tmux.type("q")
        _ = try tmux.waitForText("wrapper-done")
    }

    @Test("TERM=linux has no alternate screen: quitting leaves a clean screen with the prompt at its top")
    func noAlternateScreenIsLeftClean() throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        try tmux.run("clear; TERM=linux '\(tmux.binary)'; echo after-$((6 * 7))")
        _ = try tmux.waitForText("1 Map")
        try tmux.type("q")
        let screen = try tmux.waitForText("after-42")
        let shown = screen.filter { !$0.isEmpty }
        tmux.check(shown.count <= 2 && !screen.joined().contains("Map"), "only the shell's lines are left: \(shown)")
    }
}
