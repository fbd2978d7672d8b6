import ArgumentParser
import Defaults
import Terminal
import WonderlandApp
#if canImport(Glibc)
import Glibc
#endif

struct Wonderland: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wonderland",
        abstract: "A terminal app that resumes exactly where you left off.",
        discussion: """
            Without a subcommand, starts the app. Tabs: 1 Map, 2 Characters, 3 Book.
            In the app, ? lists every key and q quits.

            Files: state in $XDG_STATE_HOME/wonderland, settings in
            $XDG_CONFIG_HOME/wonderland, books and caches in $XDG_DATA_HOME/wonderland.
            """,
        version: "0.1.0",
        subcommands: [PlistCommand.self, DefaultsCommand.self]
    )

    @Flag(help: "Draw the first frame, then exit (for start-up benchmarks).")
    var exitAfterFirstFrame = false

    func run() throws {
        let status = AppRunner.run(.init(exitAfterFirstFrame: exitAfterFirstFrame), environment: environment()) { env in
            try NcursesTerminal(environment: env)
        }
        if status != 0 { throw ExitCode(status) }
    }

    private func environment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let pair = String(cString: entry)
            if let equals = pair.firstIndex(of: "=") { result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]) }
            pointer += 1
        }
        return result
    }
}

// `-Key value` pairs are the defaults' argument domain (`wonderland -HPMapType 2`), not options.
Wonderland.main(ArgumentDomain.split(Array(CommandLine.arguments.dropFirst())).remaining)
