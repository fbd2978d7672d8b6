import ArgumentParser

struct Wonderland: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wonderland",
        abstract: "A terminal app that resumes exactly where you left off.",
        version: "0.1.0",
        subcommands: [PlistCommand.self]
    )
    func run() throws {}
}
Wonderland.main()
