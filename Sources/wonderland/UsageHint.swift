import ArgumentParser

/// Where a usage error's one line sends the reader: the help of the deepest subcommand the
/// command line named, so `wonderland plist print` with no file points at its own help.
enum UsageHint {
    static func helpCommand(for arguments: [String]) -> String {
        var path = ["wonderland"]
        var command: ParsableCommand.Type = Wonderland.self
        for word in arguments {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == word }) else { break }
            path.append(word)
            command = next
        }
        return (path + ["--help"]).joined(separator: " ")
    }
}
