import Defaults
import ArgumentParser
import FoundationEssentials
import Platform
import PropertyList
import Restoration
import TextSafety
import WonderlandApp

/// `wonderland state`: what the app will come back to, where it is kept, and a way to start
/// over.
struct StateCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Show, locate or reset the saved place (the restoration archive); see and free what the app keeps on disk.",
        discussion: """
            The saved place is $XDG_STATE_HOME/wonderland/restoration.archive (default \
            ~/.local/state/wonderland/), an NSKeyedArchiver archive the app writes as you go \
            and reads at launch. `wonderland --fresh` starts on the default screens instead. \
            `usage` shows what every kind of saved data takes; `clean` frees what can go.
            """,
        subcommands: [Show.self, Path.self, Reset.self, StateUsageCommand.self, StateCleanCommand.self]
    )

    static var files: RestorationFiles { RestorationFiles.standard(environment: ProcessEnvironment.current()) }

    struct Path: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the archive's path.")
        func run() throws { print(StateCommand.files.archive.path) }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start fresh at the next launch; the archive is kept as restoration.archive.previous.")
        func run() throws {
            let files = StateCommand.files
            do {
                if try files.reset() {
                    files.appendLog(["reset: by `wonderland state reset`; the archive was moved to \(files.previous.lastPathComponent)"])
                    print("Saved place moved to \(files.previous.path); the next launch starts fresh.")
                } else {
                    print("Nothing saved at \(files.archive.path); the next launch starts fresh.")
                }
            } catch {
                StandardStream.error.write(Data("wonderland: \(error)\n".utf8))
                throw ExitCode.failure
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the saved screen tree (identifier paths, restoration classes, every key) and why the last launch did or did not restore.")

        @Option(help: "How many lines of the restoration log to show.")
        var logLines = 12

        func run() throws {
            let files = StateCommand.files
            print("Archive: \(files.archive.path)")
            var failed = false
            do {
                if let data = try files.readArchive() {
                    let summary = try RootScreen.restorationEngine().describe(data)
                    printVisibly(StateSummaryPrinter.render(summary, bytes: data.count))
                } else {
                    print("  nothing saved yet")
                }
            } catch {
                print("  unreadable: \(error)")
                failed = true
            }
            if files.hasMarker { print("\nA restore is under way, or the last one did not finish (\(files.marker.path)).") }
            let log = files.readLog()
            if !log.isEmpty {
                print("\nRecent restoration log (\(files.log.path)):")
                for line in log.suffix(max(0, logLines)) { printVisibly("  \(line)\n") }
            }
            if failed { throw ExitCode.failure }
        }

        /// The archive and the log quote what an archive held (paths, class names, keys): each
        /// line is bounded and its controls made visible before it reaches the terminal.
        private func printVisibly(_ text: String) {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                print(SafeText.visible(SafeText.bounded(line, to: SafeText.lineLimit)))
            }
        }
    }
}

/// Formats a restoration summary: one block per saved screen, its keys indented below it.
enum StateSummaryPrinter {
    static func render(_ summary: RestorationEngine.Summary, bytes: Int) -> String {
        let header = summary.header
        var out = """
              format version \(header.formatVersion) (this build restores \(RestorationEngine.formatVersion)), \(bytes) bytes
              saved \(CommandDateText.utc(header.timestamp)) by wonderland \(SafeText.visible(SafeText.bounded(header.appVersion, to: 64))) at \(header.terminalColumns)×\(header.terminalRows)

            """
        if let kept = header.keptBeside {
            out += "  the archive of wonderland \(SafeText.visible(SafeText.bounded(kept, to: 64))) is kept beside it, for that version to restore\n"
        }
        if !summary.appValues.isEmpty {
            out += "App state:\n"
            for (key, value) in summary.appValues { out += "    \(key) = \(describe(value))\n" }
        }
        out += "Screens (\(summary.nodes.count)):\n"
        for node in summary.nodes {
            out += "  \(node.path)"
            if let className = node.restorationClassName { out += "  [restoration class \(className)]" }
            out += "\n"
            for (key, value) in node.values { out += "      \(key) = \(describe(value))\n" }
            for problem in node.problems { out += "      ! \(problem)\n" }
        }
        for line in summary.log { out += "  ! \(line)\n" }
        return out
    }

    /// One line per value; long text is cut, so a big draft does not flood the terminal.
    static func describe(_ value: PropertyListValue, limit: Int = 72) -> String {
        let text: String
        switch value {
        case .string(let string): text = quoted(string)
        case .integer(let number): text = "\(number)"
        case .unsignedInteger(let number): text = "\(number)"
        case .real(let number): text = "\(number)"
        case .boolean(let flag): text = flag ? "true" : "false"
        case .date(let date):
            text = date.timeIntervalSinceReferenceDate.isFinite ? CommandDateText.utc(date) : PropertyListValue.describe(date)
        case .data(let data): text = "<\(data.count) bytes>"
        case .uid(let uid): text = "<uid \(uid)>"
        case .array(let items): text = "[" + items.map { describe($0, limit: limit) }.joined(separator: ", ") + "]"
        case .dictionary(let entries):
            text = "{" + entries.keys.sorted().map { "\($0): \(describe(entries[$0]!, limit: limit))" }.joined(separator: ", ") + "}"
        }
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

    private static func quoted(_ string: String) -> String {
        // A half-typed Sync Server address may hold a password: never print it.
        // The whole string is the address, so its password field is found even where it holds a
        // space (which ends an address in free text).
        let password = URLPassword.split(from: string)?.password
        var string = string
        if let field = URLPassword.passwordRange(in: string[...]), !field.isEmpty {
            string.replaceSubrange(field, with: CloudServerCredentials.mask)
        }
        string = CloudServerCredentials.redact(string, passwords: password.map { [$0] } ?? [])
        // Scalar by scalar: "\r\n" is one Character, and each half is escaped on its own.
        var escaped = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
