import FileSafety
import FoundationEssentials
import Platform

/// What makes two failed saves the same failure, so a disk that stays full is reported once
/// rather than on every retry: for a failed system call, the operation, the errno and the
/// file it concerns; otherwise the message. A write's message names a fresh temporary file
/// each time, so comparing messages would make every retry look new.
struct WriteFailure: Equatable {
    private let identity: String

    init(_ error: Error) {
        if let failure = (error as? DefaultsFile.FileError)?.cause ?? error as? AtomicFile.Failure {
            identity = "\(failure.operation)|\(failure.code)|\(Self.subject(of: failure.path))"
        } else {
            identity = "\(error)"
        }
    }

    /// The file a path stands for: a temporary (".defaults.plist.tmp-<pid>-<random>") stands
    /// for the file it was to replace.
    static func subject(of path: String) -> String {
        let name = FilePaths.lastComponent(of: path)
        guard name.hasPrefix("."), let marker = name.firstRange(of: ".tmp-"), marker.lowerBound > name.index(after: name.startIndex) else {
            return path
        }
        return FilePaths.join(FilePaths.parent(of: path), String(name[name.index(after: name.startIndex)..<marker.lowerBound]))
    }
}
