import Foundation

/// A real terminal for end-to-end tests: a detached tmux session on a private server, with a
/// plain shell in it, driven by send-keys and read by capture-pane.
final class TmuxSession {
    let socket: String
    let binary: String
    /// This session's own HOME (so its own ~/.local/state): tests running in parallel never
    /// share an archive. Pass one session's `homeFolder` to the next to relaunch on its state.
    let homeFolder: HomeFolder
    var home: URL { homeFolder.url }
    /// `$HOME/.local/state/wonderland`: the restoration archive, marker and log.
    var stateFolder: URL { home.appendingPathComponent(".local/state/wonderland") }
    var archive: URL { stateFolder.appendingPathComponent("restoration.archive") }
    /// Every screen this session captured, written out as text files when the journey fails.
    let screens: ScreenCaptures
    var captures: [String] { screens.all.map(\.text) }

    /// `journey` names the folder a failed journey's screens are kept in (the running test's
    /// name by default); `session` tells this terminal's files from another's in that folder.
    init(columns: Int, rows: Int, environment: [String: String] = [:], home: HomeFolder? = nil,
         journey: String? = nil, session: String = "app", testOutput: URL = ScreenCaptures.defaultOutput) throws {
        socket = "wl-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
        screens = ScreenCaptures(journey: journey ?? ScreenCaptures.currentJourney(fallback: socket), session: session, output: testOutput)
        binary = try Self.locateBinary()
        homeFolder = try home ?? HomeFolder()
        var env = ["PS1": "$ ", "TERM": "tmux-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": homeFolder.url.path]
        env.merge(environment) { $1 }
        let exports = env.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "env -i PATH=/usr/bin:/bin \(exports) bash --norc --noprofile +o history"])
        try tmux(["set-option", "-g", "window-size", "manual"])
        try waitFor("the shell prompt") { $0.contains("$") }
    }

    /// Ends the server and waits for what ran in it (the shell, the app saving on SIGHUP) to
    /// be gone, so nothing writes into the temporary HOME after it is removed.
    deinit {
        let shell = (try? tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"]))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = shell.flatMap { try? String(contentsOfFile: "/proc/\($0)/task/\($0)/children", encoding: .utf8) } ?? ""
        let pids = ([shell ?? ""] + children.split(separator: " ").map(String.init)).compactMap { pid_t($0) }
        _ = try? tmux(["kill-server"])
        for pid in pids { try? waitForExit(of: pid, timeout: 5) }
    }

    /// The app binary: WONDERLAND_BIN from the test command, else next to the test bundle.
    static func locateBinary() throws -> String {
        if let path = ProcessInfo.processInfo.environment["WONDERLAND_BIN"], FileManager.default.isExecutableFile(atPath: path) { return path }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = url.appendingPathComponent("wonderland").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            url = url.deletingLastPathComponent()
        }
        throw E2EError("wonderland binary not found: run the tests through scripts/test, or set WONDERLAND_BIN")
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let result = try Subprocess.run(["tmux", "-L", socket] + arguments)
        guard result.status == 0 else { throw E2EError("tmux \(arguments.joined(separator: " ")) failed: \(result.output)") }
        return result.output
    }

    func type(_ text: String) throws { try tmux(["send-keys", "-t", "0", "-l", text]) }
    func press(_ keys: String...) throws { try tmux(["send-keys", "-t", "0"] + keys) }
    func run(_ command: String) throws { try type(command); try press("Enter") }

    /// A left click at a cell, as the X10 mouse bytes a terminal sends (press, then release).
    func click(x: Int, y: Int) throws {
        let bytes = [27, 91, 77, 32, 33 + x, 33 + y, 27, 91, 77, 35, 33 + x, 33 + y]
        try tmux(["send-keys", "-t", "0", "-H"] + bytes.map { String(format: "%02x", $0) })
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "0", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The visible screen as lines, trailing spaces removed; remembered under `label`.
    func screen(_ label: String = "screen") throws -> [String] {
        let text = try tmux(["capture-pane", "-t", "0", "-p"])
        screens.record(text, label: label)
        return text.components(separatedBy: "\n").map { line in
            var l = line
            while l.hasSuffix(" ") { l.removeLast() }
            return l
        }
    }

    /// Polls the screen until `condition` holds. A deadline, not a timing assertion: it only
    /// bounds how long a broken app can keep the test waiting.
    @discardableResult
    func waitFor(_ what: String = "condition", timeout: TimeInterval = 10, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var lines = try screen(what)
        while !condition(lines) {
            if Date() > deadline {
                throw E2EError("timed out waiting for \(what); \(keepScreens()):\n" + lines.joined(separator: "\n"))
            }
            usleep(50_000)
            lines = try screen(what)
        }
        return lines
    }

    func waitForText(_ text: String, timeout: TimeInterval = 10) throws -> [String] {
        try waitFor("“\(text)”", timeout: timeout) { $0.joined(separator: "\n").contains(text) }
    }

    /// Writes every screen this session captured, and the pane as it is now, to the journey's
    /// folder in the test output; returns the words for a failure message that say where.
    func keepScreens() -> String {
        // The pane as the failure left it; straight through Subprocess, as the server may be gone.
        if let final = try? Subprocess.run(["tmux", "-L", socket, "capture-pane", "-t", "0", "-p"]), final.status == 0 {
            screens.record(final.output, label: "final pane")
        }
        do {
            return "the screens are kept in \(try screens.keep().path)"
        } catch {
            return "the screens could not be kept: \(error)"
        }
    }

    /// Runs the app in the pane's shell and waits for its first frame.
    func launchApp(_ arguments: String = "", environment: String = "") throws {
        try run("clear; \(environment) \(binary) \(arguments); echo \"exit=$?\"")
        try waitForText("1 Map")
    }
}

/// A fresh temporary folder used as HOME, removed when the last session using it is gone.
final class HomeFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("wl-e2e-home-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    deinit {
        for _ in 0..<20 {  // a straggler may still be writing; never leave the folder behind
            try? FileManager.default.removeItem(at: url)
            if !FileManager.default.fileExists(atPath: url.path) { return }
            usleep(50_000)
        }
    }
}

struct E2EError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
