import ArgumentParser

/// A command that only gathers others. Called alone it is a usage error (status 2, one line
/// naming its subcommands), not a help screen with status 0, so a script that lost its
/// subcommand finds out.
protocol CommandGroup: ParsableCommand {}

extension CommandGroup {
    func run() throws {
        let names = Self.configuration.subcommands.map { $0._commandName }
        throw UsageProblem(message: "\(Self._commandName) needs a subcommand: \(names.joined(separator: ", ")) "
                           + "(see wonderland \(Self._commandName) --help)")
    }
}
