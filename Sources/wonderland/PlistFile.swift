import ArgumentParser
import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import KeyedArchive
import PropertyList
import WonderlandApp

/// File handling shared by the `plist` subcommands: reading with validation, atomic writes and
/// turning any failure into the one-line message the commands print.
enum PlistFile {
    /// Failures that are about the file system rather than the file's contents.
    struct FileError: Error, CustomStringConvertible {
        let description: String
    }

    /// A file read and parsed. A keyed archive too damaged to resolve is still a property list:
    /// `archiveProblem` says what is wrong with it as an archive, for the command to decide.
    struct Loaded {
        let value: PropertyListValue
        let input: PlistInput
        let archiveProblem: ArchiveError?
    }

    /// Reads and parses `name` (`-` for standard input) within `budget`, and checks a keyed
    /// archive's structure under the same limits.
    static func load(_ name: String, budget: PlistBudget) throws -> Loaded {
        let input = try PlistInput.read(name, limit: budget.file)
        let value = try PropertyListReader.read(input.data, limits: budget.values).value
        return Loaded(value: value, input: input, archiveProblem: try archiveProblem(in: value, budget: budget))
    }

    private static func archiveProblem(in value: PropertyListValue, budget: PlistBudget) throws -> ArchiveError? {
        guard ArchiveContents.isKeyedArchive(value) else { return nil }
        do { _ = try ArchiveContents(value, limits: budget.values) } catch let error as ArchiveError {
            return error
        }
        return nil
    }

    /// What lint calls a problem beyond reading: a value no property-list writer accepts (a NaN
    /// date, a date outside years 0...9999), which no program should have written.
    struct UnstorableValue: Error, CustomStringConvertible {
        let problem: String
        var description: String { "unrepresentableValue: \(problem)" }
    }

    /// Reads `name` as `load` does and also refuses a damaged keyed archive and what could not
    /// be written back. What was read but is doubtful (a dictionary key given twice, of which
    /// the last is kept, as Apple's readers do) comes back as warnings rather than a failure.
    static func lint(_ name: String, budget: PlistBudget) throws -> PropertyListWarnings {
        let input = try PlistInput.read(name, limit: budget.file)
        let parsed = try PropertyListReader.lint(input.data, limits: budget.values)
        if let problem = try archiveProblem(in: parsed.value, budget: budget) { throw problem }
        if let problem = parsed.value.storageProblem { throw UnstorableValue(problem: problem) }
        return parsed.warnings
    }

    /// The file's value in `format`; a value the format cannot hold is an error naming the
    /// place of the first offending value, never a trap.
    static func serialize(_ value: PropertyListValue, as format: PropertyListFormat) throws -> Data {
        do { return try PropertyListSerializer.data(from: value, format: format) } catch let error as PropertyListError {
            let name = format == .xml ? "XML" : "binary"
            throw FileError(description: "cannot write as \(name): \(value.storageProblem ?? error.message)")
        }
    }

    /// Writes beside the destination, then renames over it, so a reader never sees half a file
    /// and a failed write leaves the original untouched. A new file gets the user's umask, as
    /// any file they make; a missing folder is an error, not made.
    /// `keeping`: the mode and owner of the file replaced, which the new one gets.
    static func writeAtomically(_ data: Data, to path: String, keeping replaced: ReplacedFileAttributes?) throws {
        do {
            try AtomicFile.write(data, toPath: path, permissions: 0o666, makingFolder: false, keeping: replaced)
        } catch let failure as AtomicFile.Failure {
            if failure.operation == "rename" {
                throw FileError(description: "cannot replace \(path): \(String(cString: strerror(failure.code)))")
            }
            let reason = switch failure.code {
            case ENOENT: "no such file"
            case EACCES, EPERM: "permission denied"
            default: CommandErrorText.sentence(writingFailedWith: failure.code)
            }
            throw FileError(description: "cannot write \(failure.path): \(reason)")
        }
    }

    /// Runs `body`; any error becomes "wonderland plist: FILE: message" on stderr and exit 1.
    static func reportingFailure(of file: String, _ body: () throws -> Void) throws {
        do { try body() } catch {
            warn("\(PlistInput.displayName(file)): \(message(for: error))")
            throw ExitCode.failure
        }
    }

    /// One line on standard error, after the command's name.
    static func warn(_ line: String) {
        StandardStream.error.write(Data("wonderland plist: \(line)\n".utf8))
    }

    /// The error in one line; one that a limit option would have avoided names the option.
    static func message(for error: Error) -> String {
        switch error {
        case let error as ArchiveError: "keyed archive: \(error)\(raisingHint(for: error))"
        case let error as PropertyListError: "\(error)\(raisingHint(for: error))"
        case let error as FileError: error.description
        case let error as UnstorableValue: error.description
        default: "\(error)"
        }
    }

    static func raisingHint(for error: ArchiveError) -> String {
        if case .tooManyValues = error.kind { return " (--max-values raises it)" }
        return ""
    }

    /// The limits' messages say which total was passed; strings and data are sized in bytes.
    private static func raisingHint(for error: PropertyListError) -> String {
        guard error.kind == .limitExceeded else { return "" }
        return error.message.contains(" bytes of ") ? " (--max-size raises it)" : " (--max-values raises it)"
    }
}
