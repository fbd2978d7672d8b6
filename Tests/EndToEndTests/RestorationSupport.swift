import Foundation
import Testing

/// Restoration helpers for end-to-end tests: the first frame of a launch, the app's pid, the
/// `wonderland state` commands run on a session's own HOME, and waiting on the archive file.
extension TmuxSession {
    /// Runs the app in the pane's shell and returns its first complete frame: the first capture
    /// with the tab bar on row 0 and the hint bar on the last row. Every capture taken while
    /// waiting that already shows the tab bar is checked against `forbidden` (the Map tab's
    /// world view by default), so a flash of the default screen before the restored one fails.
    @discardableResult
    func launchForFirstFrame(_ arguments: String = "", forbidding forbidden: String? = "Zoom 0/14",
                             timeout: TimeInterval = 15) throws -> [String] {
        let rows = try paneRows()
        // After a kill -9 the killed app's last frame is still on the alternate screen: leave
        // it and clear, so the frame waited for below can only come from the new launch.
        try run("printf '\\033[?1049l'; stty sane; clear")
        try waitFor("a cleared shell") { lines in lines.first == "$" && lines.dropFirst().allSatisfy(\.isEmpty) }
        let before = captures.count
        try run("clear; \(binary) \(arguments); echo \"exit=$?\"")
        let frame = try waitFor("the first frame", timeout: timeout) { lines in
            lines.count >= rows && lines[0].contains("1 Map") && !lines[rows - 1].isEmpty
        }
        if let forbidden {
            for capture in captures[before...] where capture.hasPrefix("  1 Map") {
                if capture.contains(forbidden) {
                    Issue.record("a frame showed “\(forbidden)” before the restored screen (\(keepScreens()))")
                }
            }
        }
        return frame
    }

    /// An expectation about what the terminal shows: when it fails, every screen the session
    /// captured is kept in the test output and the recorded issue says where.
    func check(_ condition: Bool, _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        guard !condition else { return }
        Issue.record("\(comment.isEmpty ? "expectation failed" : comment) (\(keepScreens()))", sourceLocation: sourceLocation)
    }

    func paneRows() throws -> Int {
        Int(try tmux(["display-message", "-p", "-t", "0", "#{pane_height}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    func paneColumns() throws -> Int {
        Int(try tmux(["display-message", "-p", "-t", "0", "#{pane_width}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The cursor's cell, zero-based.
    func cursor() throws -> (x: Int, y: Int) {
        let parts = try tmux(["display-message", "-p", "-t", "0", "#{cursor_x} #{cursor_y}"])
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        return (parts.first ?? -1, parts.count > 1 ? parts[1] : -1)
    }

    /// The app running under the pane's shell.
    func appPID() throws -> pid_t {
        let shell = try tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = childProcess(of: shell) else { throw E2EError("no app running under the pane's shell \(shell)") }
        return pid
    }

    /// `wonderland ARGUMENTS` with this session's HOME and nothing else of the test's environment.
    func wonderland(_ arguments: String...) throws -> (status: Int32, output: String) {
        try Subprocess.run(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home.path)", "LANG=C.UTF-8", binary] + arguments)
    }

    /// Waits until the archive exists and holds `text` (an ASCII string is stored as is in a
    /// binary plist), i.e. until a save that saw it has landed.
    func waitForArchive(containing text: String, timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        let needle = Data(text.utf8)
        while Date() < deadline {
            if let data = try? Data(contentsOf: archive), data.range(of: needle) != nil { return }
            usleep(50_000)
        }
        throw E2EError("the archive at \(archive.path) never held “\(text)”")
    }

    func stateFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: stateFolder.path)) ?? []).sorted()
    }
}

/// Waits until a process is gone (reaped by its shell), so files it wrote on the way out are there.
func waitForExit(of pid: pid_t, timeout: TimeInterval = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if kill(pid, 0) != 0 && errno == ESRCH { return }
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), stat.contains(") Z ") { return }
        usleep(50_000)
    }
    throw E2EError("process \(pid) did not end")
}

extension TmuxSession {
    /// From anywhere in the app: the Characters tab, the Cheshire Cat's detail, the notes editor,
    /// and `draft` typed into it — the deepest place the app can be left in.
    func typeCheshireCatNote(_ draft: String) throws {
        try type("2")
        try waitForText("▸ Alice")
        try type("/chesh")
        try waitForText("▸ Cheshire Cat")
        try press("Enter")
        try waitForText("Characters › Cheshire Cat")
        try type("e")
        try waitForText("Notes (editing")
        try type(draft)
        try waitForText(draft)
    }
}
