import Foundation
import Testing

/// What every command-line tool owes its shell: completions, a manual page, `--help` on every
/// command, and exit statuses a script can rely on (0 ok, 1 failure, 2 usage).
@Suite("Command-line conventions", .whenEndToEndIsAskedFor)
struct CommandLineConventionTests {
    static let subcommandPaths: [[String]] = [
        [], ["plist"], ["plist", "lint"], ["plist", "print"], ["plist", "convert"],
        ["defaults"], ["defaults", "read"], ["defaults", "read-type"], ["defaults", "write"], ["defaults", "delete"],
        ["defaults", "export"], ["defaults", "import"],
        ["cloud"], ["cloud", "status"], ["cloud", "list"], ["cloud", "sync"], ["cloud", "init"], ["cloud", "check"],
        ["state"], ["state", "show"], ["state", "path"], ["state", "reset"], ["state", "usage"], ["state", "clean"],
        ["settings"], ["settings", "lint"],
    ]
    static let topLevelCommands = ["plist", "defaults", "cloud", "state", "settings"]

    /// Runs the binary in an empty home with a clean environment; `redirection` (shell syntax)
    /// picks what is kept: "2>&1" both streams, "2>/dev/null" stdout, "2>&1 >/dev/null" stderr.
    static func wonderland(_ arguments: [String], keeping redirection: String = "2>&1") throws -> (status: Int32, output: String) {
        let home = try HomeFolder()
        let script = "\"$0\" \"$@\" \(redirection)"
        return try Subprocess.run(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home.url.path)", "LANG=C.UTF-8",
                                   "/bin/sh", "-c", script, try TmuxSession.locateBinary()] + arguments)
    }

    @Test("each completion script is produced and names every command", arguments: ["bash", "zsh", "fish"])
    func completionScript(_ shell: String) throws {
        let result = try Self.wonderland(["--generate-completion-script", shell], keeping: "2>/dev/null")
        #expect(result.status == 0)
        #expect(result.output.count > 1000, "\(result.output)")
        for command in Self.topLevelCommands + ["lint", "convert", "read-type", "reset", "usage", "clean"] {
            #expect(result.output.contains(command), "\(shell) completion does not name \(command)")
        }
    }

    @Test("bash accepts the bash completion script")
    func bashSyntax() throws {
        let script = try Self.wonderland(["--generate-completion-script", "bash"], keeping: "2>/dev/null")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wl-completion-\(UUID().uuidString).bash")
        try script.output.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let check = try Subprocess.run(["bash", "-n", file.path])
        #expect(check.status == 0, "\(check.output)")
    }

    @Test("the manual page renders, names every command and documents the exit statuses")
    func manualPage() throws {
        let page = try Self.wonderland(["--generate-manual"], keeping: "2>/dev/null")
        #expect(page.status == 0)
        #expect(page.output.hasPrefix(".TH WONDERLAND 1 "), "\(page.output.prefix(200))")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wl-manual-\(UUID().uuidString).1")
        try page.output.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // groff -ww warns about anything it had to guess; the page must need no guessing.
        let warnings = try Subprocess.run(["/bin/sh", "-c", "groff -man -Tutf8 -ww \"$0\" >/dev/null", file.path])
        try #require(warnings.status == 0 || warnings.status == 127, "\(warnings.output)")
        let rendered = warnings.status == 127 ? page.output : try Subprocess.run(["/bin/sh", "-c", "groff -man -Tutf8 -P-cbou \"$0\"", file.path]).output
        if warnings.status == 0 { #expect(warnings.output.isEmpty, "groff: \(warnings.output)") }
        for path in Self.subcommandPaths.dropFirst() {
            let title = (["wonderland"] + path).joined(separator: " ")
            #expect(rendered.contains(title), "the page has no section for \(title)")
        }
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS"] {
            #expect(rendered.contains(heading), "no \(heading)")
        }
        // groff justifies lines by widening spaces, differently as the page above grows.
        let words = rendered.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Usage: an unknown option"), "exit status 2 undocumented")
    }

    @Test("--help and `help` exit 0 and show the command's usage", arguments: subcommandPaths)
    func help(_ path: [String]) throws {
        let flag = try Self.wonderland(path + ["--help"])
        #expect(flag.status == 0, "\(flag.output)")
        #expect(flag.output.contains("USAGE: " + (["wonderland"] + path).joined(separator: " ")), "\(flag.output)")
        #expect(flag.output.hasPrefix("OVERVIEW: ") || path.isEmpty, "no abstract: \(flag.output)")
        let word = try Self.wonderland(["help"] + path)
        #expect(word.status == 0 && word.output == flag.output, "\(word.output)")
    }

    @Test("a usage error: status 2, nothing on stdout, one line on stderr naming the help to read", arguments: [
        (["--bogus"], "wonderland --help"),
        (["plist"], "wonderland plist --help"),
        (["plist", "print"], "wonderland plist print --help"),
        (["defaults", "write"], "wonderland defaults write KEY"),
        (["defaults", "write", "Key"], "wonderland defaults write KEY"),
        (["defaults", "write", "Key", "-int", "many"], "not an integer"),
        (["state", "bogus"], "wonderland state --help"),
        (["state", "clean", "--dryrun"], "wonderland state clean --help"),
        (["settings", "lint"], "wonderland settings lint --help"),
    ])
    func usageError(_ arguments: [String], _ expected: String) throws {
        let stderr = try Self.wonderland(arguments, keeping: "2>&1 >/dev/null")
        #expect(stderr.status == 2, "\(stderr.output)")
        let lines = stderr.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 && stderr.output.hasPrefix("wonderland: ") && stderr.output.contains(expected), "\(stderr.output)")
        let stdout = try Self.wonderland(arguments, keeping: "2>/dev/null")
        #expect(stdout.output.isEmpty, "\(stdout.output)")
    }

    @Test("a failure that is not the command line's exits 1")
    func failure() throws {
        let result = try Self.wonderland(["plist", "print", "/nonexistent/wonderland.plist"])
        #expect(result.status == 1, "\(result.output)")
    }

    @Test("scripts/install-shell-files: writes the four files, rewrites none unchanged, skips a folder it cannot make")
    func install() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = repository.appendingPathComponent("scripts/install-shell-files").path
        let home = try HomeFolder()
        let run = {
            try Subprocess.run(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home.url.path)", "LANG=C.UTF-8",
                                script, try TmuxSession.locateBinary()])
        }
        let first = try run()
        #expect(first.status == 0, "\(first.output)")
        let files = [".local/share/bash-completion/completions/wonderland", ".local/share/zsh/site-functions/_wonderland",
                     ".config/fish/completions/wonderland.fish", ".local/share/man/man1/wonderland.1"]
        for file in files {
            let size = (try? FileManager.default.attributesOfItem(atPath: home.url.appendingPathComponent(file).path)[.size] as? Int) ?? 0
            #expect(size > 0, "\(file) not written")
        }
        let second = try run()
        #expect(second.status == 0 && second.output.isEmpty, "rewrote unchanged files: \(second.output)")

        // A file where a folder should be: that one is skipped, the run still succeeds.
        try FileManager.default.removeItem(at: home.url.appendingPathComponent(".config"))
        try Data().write(to: home.url.appendingPathComponent(".config"))
        let blocked = try run()
        #expect(blocked.status == 0, "\(blocked.output)")
        #expect(blocked.output.contains("cannot write") && blocked.output.contains("wonderland.fish"), "\(blocked.output)")
    }
}
