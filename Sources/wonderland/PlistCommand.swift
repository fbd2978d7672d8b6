import ArgumentParser
import Defaults
import FoundationEssentials
import KeyedArchive
import PropertyList

/// `wonderland plist`: check, show and convert property lists and keyed archives, in the
/// spirit of plutil. Failures are one line on stderr and exit status 1.
struct PlistCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        commandName: "plist",
        abstract: "Check, print and convert property lists and keyed archives.",
        discussion: """
            Reads XML and binary property lists, within size and depth limits. A file that \
            cannot be read or parsed is one line on standard error and exit status 1, and is \
            left as it was.
            """,
        subcommands: [Lint.self, Print.self, Convert.self]
    )

    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that each file is a valid property list (and, if it is a keyed archive, a well-formed one).",
            discussion: "A key given twice in one dictionary is a warning (the last one is kept, as Apple's readers do), not a failure."
        )

        @Argument(help: "Files to check.")
        var files: [String]

        func run() throws {
            var failed = false
            for file in files {
                do {
                    let warnings = try PlistFile.lint(file)
                    for warning in warnings.kept { print("\(file): warning: \(warning)") }
                    if warnings.count > warnings.kept.count {
                        print("\(file): warning: \(warnings.count - warnings.kept.count) more warnings not shown")
                    }
                    print("\(file): OK")
                } catch {
                    print("\(file): \(PlistFile.message(for: error))")
                    failed = true
                }
            }
            if failed { throw ExitCode.failure }
        }
    }

    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a property list as a tree; a keyed archive is shown as its resolved object graph, and so is one stored as a data value (as in defaults.plist)."
        )

        @Argument(help: "The file to print.")
        var file: String

        /// A defaults file another tool wrote may hold a sync address with its password in it:
        /// no command prints a password, so a top-level address loses it (the file is unchanged).
        static func withoutPasswords(_ value: PropertyListValue) -> (PropertyListValue, [String]) {
            guard case .dictionary(var fields) = value else { return (value, []) }
            var redacted: [String] = []
            for key in fields.keys.sorted() {
                guard case .string(let text)? = fields[key], let split = URLPassword.split(from: text) else { continue }
                fields[key] = .string(split.address)
                redacted.append(key)
            }
            return (.dictionary(fields), redacted)
        }

        func run() throws {
            try PlistFile.reportingFailure(of: file) {
                let (read, _) = try PlistFile.read(file)
                let (value, redacted) = Self.withoutPasswords(read)
                print(try PropertyListPrinter.render(value, limits: PlistFile.limits, decodingArchivedData: true), terminator: "")
                for key in redacted {
                    StandardStream.error.write(Data("wonderland plist: the password in \(key)'s address was left out\n".utf8))
                }
            }
        }
    }

    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rewrite a property list in another format, in place unless -o is given."
        )

        @Option(help: "Output format: xml or binary.")
        var format: OutputFormat

        @Option(name: .shortAndLong, help: "Where to write; defaults to overwriting FILE. Use - for stdout.")
        var output: String?

        @Argument(help: "The file to convert.")
        var file: String

        func run() throws {
            try PlistFile.reportingFailure(of: file) {
                let (value, _) = try PlistFile.read(file)
                let data = try PlistFile.serialize(value, as: format.propertyListFormat)
                let destination = output ?? file
                if destination == "-" {
                    StandardStream.output.write(data)
                } else {
                    try PlistFile.writeAtomically(data, to: destination)
                }
            }
        }
    }

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case xml
        case binary

        var propertyListFormat: PropertyListFormat {
            switch self {
            case .xml: .xml
            case .binary: .binary
            }
        }
    }
}
