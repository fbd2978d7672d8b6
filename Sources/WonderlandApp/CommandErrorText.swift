import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The sentence Foundation's NSError gave for a file error (`localizedDescription`), for the
/// commands that print one: the same words for the same codes.
public enum CommandErrorText {
    public static func sentence(for error: Error) -> String {
        let opening = "The operation could not be completed. "
        if let error = error as? CocoaError {
            let code = error.code.rawValue
            return opening + (messages[code] ?? "(NSCocoaErrorDomain error \(code).)")
        }
        if let error = error as? POSIXError { return opening + String(cString: strerror(error.code.rawValue)) }
        if let description = (error as? LocalizedError)?.errorDescription { return description }
        return opening + "(\(error._domain) error \(error._code).)"
    }

    /// What Foundation said when writing a file failed with `code` (an errno), for the commands
    /// that write through AtomicFile and still speak as they did.
    public static func sentence(writingFailedWith code: Int32) -> String {
        let cocoa: CocoaError.Code = switch code {
        case ENOENT: .fileNoSuchFile
        case EPERM, EACCES: .fileWriteNoPermission
        case ENAMETOOLONG: .fileWriteInvalidFileName
        case EEXIST: .fileWriteFileExists
        case ENOSPC, EDQUOT: .fileWriteOutOfSpace
        case EROFS: .fileWriteVolumeReadOnly
        default: .fileWriteUnknown
        }
        return sentence(for: CocoaError(cocoa))
    }

    private static let messages: [Int: String] = [
        4: "The file doesn’t exist.",
        255: "The file couldn’t be locked.",
        257: "You don’t have permission.",
        258: "The file name is invalid.",
        259: "The file isn’t in the correct format.",
        260: "The file doesn’t exist.",
        261: "The specified text encoding isn’t applicable.",
        262: "The specified URL type isn’t supported.",
        263: "The item is too large.",
        264: "The text encoding of the contents couldn’t be determined.",
        513: "You don’t have permission.",
        514: "The file name is invalid.",
        516: "A file with the same name already exists.",
        517: "The specified text encoding isn’t applicable.",
        518: "The specified URL type isn’t supported.",
        640: "There isn’t enough space.",
        642: "The volume is read only.",
    ]
}
