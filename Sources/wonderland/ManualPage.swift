import ArgumentParser
import FoundationEssentials
import Platform
import WonderlandApp

/// The wonderland(1) manual page in roff (man macros), written from the parser's own
/// configuration and help text so it cannot drift from what the binary accepts.
enum ManualPage {
    /// No date in the header: the page changes only when the commands do, so an install can
    /// compare it with the one already in place.
    static func render() -> String {
        let root = Wonderland.configuration
        var page = """
            .TH WONDERLAND 1 "" "wonderland \(escape(AppVersion.current))" "User Commands"
            .SH NAME
            wonderland \\- \(escape(root.abstract))
            .SH SYNOPSIS
            .B wonderland
            [\\fIoptions\\fR] [\\fI\\-Key value\\fR ...]
            .br
            .B wonderland
            \\fIcommand\\fR [\\fIarguments\\fR]
            .SH DESCRIPTION

            """
        page += paragraphs(root.discussion)
        page += ".SH OPTIONS\n" + preformatted(Wonderland.helpMessage(columns: 78), from: "OPTIONS:")
        page += ".SH COMMANDS\n"
        for command in root.subcommands {
            page += section(for: command, path: ["wonderland"])
        }
        page += """
            .SH EXIT STATUS
            .TP
            .B 0
            Success, including \\fB\\-\\-help\\fR and \\fB\\-\\-version\\fR.
            .TP
            .B 1
            Failure: a file that cannot be read or written, a value refused, a lint that found errors,
            a synced store \\fBcloud sync\\fR cannot reach, a sync server \\fBcloud status\\fR,
            \\fBcloud list\\fR or \\fBhandoff list\\fR could not reach (they still print this machine's
            copy and why).
            .TP
            .B 2
            Usage: an unknown option, a missing argument or value, a value of the wrong form.
            One line on standard error says which; \\fB\\-\\-help\\fR shows the usage.
            .TP
            .B 3
            \\fBcloud check\\fR only: the sync server could not be reached, so nothing was checked
            (its status 1 means a problem found).
            .PP
            The app itself, ended by a signal, restores the terminal and ends with that signal's own status.
            .SH SHELL COMPLETION
            .B wonderland \\-\\-generate\\-completion\\-script
            \\fBbash\\fR|\\fBzsh\\fR|\\fBfish\\fR
            prints a completion script; save it where the shell loads completions from (for bash,
            \\fI~/.local/share/bash-completion/completions/wonderland\\fR).

            """
        return page
    }

    /// One command's own section, then its subcommands'.
    private static func section(for command: ParsableCommand.Type, path: [String]) -> String {
        let configuration = command.configuration
        let name = configuration.commandName ?? command._commandName
        let fullPath = path + [name]
        var text = ".SS \"\(escape(fullPath.joined(separator: " ")))\"\n"
        text += paragraphs(configuration.abstract)
        text += paragraphs(configuration.discussion)
        text += preformatted(Wonderland.helpMessage(for: command, columns: 78), from: "USAGE:")
        for subcommand in configuration.subcommands {
            text += section(for: subcommand, path: fullPath)
        }
        return text
    }

    /// Help text from its `marker` line on, kept as laid out (no filling), with the
    /// OVERVIEW dropped because the abstract is already a paragraph of its own.
    private static func preformatted(_ help: String, from marker: String) -> String {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(marker) }) else { return "" }
        let kept = lines[start...].reversed().drop(while: { $0.trimmingSpaces().isEmpty }).reversed()
        return ".PP\n.nf\n" + kept.map(escapeLine).joined(separator: "\n") + "\n.fi\n"
    }

    /// Prose is left to roff to fill; a block laid out in columns (two spaces inside a
    /// line, as in a table of forms) is kept as written.
    private static func paragraphs(_ text: String) -> String {
        let blocks = text.components(separatedBy: "\n\n").map { $0.trimmingScalars(where: { $0 == "\n" }) }
            .filter { !$0.trimmingSpaces().isEmpty }
        return blocks.map { block in
            let lines = block.split(separator: "\n").map(String.init)
            let laidOut = lines.contains { $0.trimmingSpaces().contains("  ") }
            let body = lines.map { escapeLine(laidOut ? $0 : $0.trimmingSpaces()) }.joined(separator: "\n")
            return laidOut ? ".PP\n.nf\n" + body + "\n.fi\n" : ".PP\n" + body + "\n"
        }.joined()
    }

    /// A line roff will print as written: backslashes and hyphens escaped, and a leading
    /// `.` or `'` (a request to roff) guarded by a zero-width character.
    private static func escapeLine(_ line: String) -> String {
        let escaped = escape(line)
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { return "\\&" + escaped }
        return escaped
    }

    /// Characters beyond ASCII become roff's named Unicode escapes, so the page reads the
    /// same whatever input encoding the formatter assumes.
    private static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where scalar.value > 0x7F: escaped += "\\[u" + cFormat("%04X", scalar.value) + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

}
