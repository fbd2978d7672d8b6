import ArgumentParser
import FoundationEssentials
import Settings

/// `wonderland settings lint DIR`: every problem a Settings.bundle has, and every place it
/// departs from the schema in a way iOS lets pass (types of other renderers, "YES" for a
/// boolean), one line each with the file and specifier index. Exit status 1 for errors only.
struct SettingsLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a Settings.bundle: errors, and what iOS accepts though the schema says otherwise.")

    @Argument(help: "The Settings.bundle folder.")
    var directory: String

    @Option(help: "Look titles up in this language (default: from LANGUAGE, LC_ALL, LC_MESSAGES, LANG).")
    var language: String?

    func run() throws {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder else {
            StandardStream.error.write(Data("wonderland settings lint: \(directory): not a folder\n".utf8))
            throw ExitCode.failure
        }
        let languages = language.map { SettingsLanguages.preferred(environment: ["LANGUAGE": $0]) }
        let bundle = SettingsBundle.load(directory: URL(fileURLWithPath: directory), languages: languages)
        for error in bundle.errors { print("error: \(error)") }
        for note in bundle.notes { print("note: \(note)") }
        let items = bundle.allPanes.reduce(0) { $0 + $1.items.count }
        print("\(bundle.allPanes.count) panes, \(items) items shown, \(bundle.errors.count) errors, \(bundle.notes.count) notes")
        if !bundle.errors.isEmpty { throw ExitCode.failure }
    }
}
