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
            left as it was. \(inputs)

            \(PlistBudget.summary)
            """,
        subcommands: [Lint.self, Print.self, Convert.self]
    )

    /// What a FILE may be, for each subcommand's help.
    static let inputs = """
        A FILE of - is standard input. /dev/stdin, a pipe (<(command)), a FIFO or a device is \
        read to its end, or refused once past the size limit; a FIFO is read once a writer opens it.
        """

    /// The help's discussion of a subcommand: its own text, then what FILE may be and the limits.
    static func discussion(_ text: String) -> String {
        [text, inputs, PlistBudget.summary].filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that each file is a valid property list (and, if it is a keyed archive, a well-formed one).",
            discussion: PlistCommand.discussion(
                "A key given twice in one dictionary is a warning (the last one is kept, as Apple's readers do), not a failure.")
        )

        @Argument(help: "Files to check; - is standard input.")
        var files: [String]

        @OptionGroup var limits: PlistLimitOptions

        func run() throws {
            var failed = false
            let budget = limits.budget
            for name in files {
                let file = PlistInput.displayName(name)
                do {
                    let warnings = try PlistFile.lint(name, budget: budget)
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
            abstract: "Print a property list as a tree; a keyed archive is shown as its resolved object graph, and so is one stored as a data value (as in defaults.plist).",
            discussion: PlistCommand.discussion("""
                At most \(MessageText.grouped(PropertyListPrinter.maxLines)) lines are printed; a longer tree ends \
                with a line saying where it stopped. A keyed archive too damaged to resolve is printed as \
                the property list it is, after a warning on standard error.
                """)
        )

        @Argument(help: "The file to print; - is standard input.")
        var file: String

        @OptionGroup var limits: PlistLimitOptions

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
                let budget = limits.budget
                let loaded = try PlistFile.load(file, budget: budget)
                if let problem = loaded.archiveProblem {
                    PlistFile.warn("\(PlistInput.displayName(file)): warning: not a well-formed keyed archive: \(problem)"
                                   + "\(PlistFile.raisingHint(for: problem)); shown as a property list")
                }
                let (value, redacted) = Self.withoutPasswords(loaded.value)
                let tree = try PropertyListPrinter.render(value, limits: budget.values, decodingArchivedData: true,
                                                          resolvingArchive: loaded.archiveProblem == nil)
                StandardStream.output.write(Data(tree.utf8))
                for key in redacted {
                    PlistFile.warn("the password in \(key)'s address was left out")
                }
            }
        }
    }

    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rewrite a property list in another format, in place unless -o is given.",
            discussion: PlistCommand.discussion("""
                A file is rewritten whole: the new one is written beside it and renamed over it, \
                keeping the old one's mode and owner, so a reader never sees half of it. Rewriting \
                in place through a symbolic link rewrites the file it points to; the link stays. \
                Standard input, a pipe or a device has no file to rewrite: without -o, its result \
                goes to standard output, as plutil does.

                -o - and -o /dev/stdout are standard output. A device, FIFO or terminal named by \
                -o (or a link to one) is written into, never replaced; a folder is an error.

                A keyed archive too damaged to resolve is converted as the property list it is, \
                with a warning on standard error: converting it to XML is how to look at it.
                """)
        )

        @Option(help: "Output format: xml or binary.")
        var format: OutputFormat

        @Option(name: .shortAndLong, help: "Where to write; defaults to rewriting FILE. - is standard output.")
        var output: String?

        @Argument(help: "The file to convert; - is standard input.")
        var file: String

        @OptionGroup var limits: PlistLimitOptions

        func run() throws {
            try PlistFile.reportingFailure(of: file) {
                let loaded = try PlistFile.load(file, budget: limits.budget)
                if let problem = loaded.archiveProblem {
                    PlistFile.warn("\(PlistInput.displayName(file)): warning: not a well-formed keyed archive: \(problem)"
                                   + "\(PlistFile.raisingHint(for: problem)); converted as a property list")
                }
                let data = try PlistFile.serialize(loaded.value, as: format.propertyListFormat)
                if let output {
                    try PlistOutput.write(data, to: output)
                } else {
                    try PlistOutput.rewrite(data, readFrom: loaded.input)
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
