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

    /// What a file handed to `wonderland plist` may expand to.
    static let limits = PropertyListLimits.userFile

    /// Reads and parses `path`; a keyed archive must also be structurally sound.
    static func read(_ path: String) throws -> (value: PropertyListValue, format: PropertyListFormat) {
        let data = try contents(of: path)
        let parsed = try PropertyListReader.read(data, limits: limits)
        if ArchiveContents.isKeyedArchive(parsed.value) {
            _ = try ArchiveContents(parsed.value, limits: limits)
        }
        return parsed
    }

    private static func contents(of path: String) throws -> Data {
        do { return try BoundedFile.read(path: path, limit: .userPropertyList) } catch {
            if case .missing = error { throw FileError(description: "cannot read: no such file") }
            throw FileError(description: error.predicate)
        }
    }

    /// What lint calls a problem beyond reading: a value no property-list writer accepts (a NaN
    /// date, a date outside years 0...9999), which no program should have written.
    struct UnstorableValue: Error, CustomStringConvertible {
        let problem: String
        var description: String { "unrepresentableValue: \(problem)" }
    }

    /// Reads `path` as `read` does and also refuses what could not be written back. What was
    /// read but is doubtful (a dictionary key given twice, of which the last is kept, as Apple's
    /// readers do) comes back as warnings rather than a failure.
    static func lint(_ path: String) throws -> PropertyListWarnings {
        let parsed = try PropertyListReader.lint(try contents(of: path), limits: limits)
        if ArchiveContents.isKeyedArchive(parsed.value) {
            _ = try ArchiveContents(parsed.value, limits: limits)
        }
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
    /// and a failed write leaves the original untouched. The new file gets the user's umask, as
    /// any file they make; a missing folder is an error, not made.
    static func writeAtomically(_ data: Data, to path: String) throws {
        do {
            try AtomicFile.write(data, to: URL(fileURLWithPath: path), permissions: 0o666, makingFolder: false)
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
            StandardStream.error.write(Data("wonderland plist: \(file): \(message(for: error))\n".utf8))
            throw ExitCode.failure
        }
    }

    static func message(for error: Error) -> String {
        switch error {
        case let error as ArchiveError: "keyed archive: \(error)"
        case let error as PropertyListError: "\(error)"
        case let error as FileError: error.description
        case let error as UnstorableValue: error.description
        default: "\(error)"
        }
    }
}
