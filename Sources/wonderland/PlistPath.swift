import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Platform

/// Where a file named on the `plist` command line leads once the symbolic links at its end are
/// followed: one of this process's open descriptors, or a path whose last component is no link.
///
/// Descriptors are told apart because reopening one by its /proc name is not the same as using
/// it: a pipe or socket has no path to reopen, a file the shell opened for us may be one we may
/// not open ourselves (`sudo -u nobody wonderland … > /root/out`), and a file opened for
/// appending would be opened again at offset 0 and overwritten.
enum PlistPath: Equatable {
    case descriptor(Int32)
    case path(String)

    /// `-` means standard input or output, whichever `dash` says.
    static func resolve(_ name: String, dash: Int32) -> PlistPath {
        if name == "-" { return .descriptor(dash) }
        var current = name
        // The kernel's own limit on links followed in one lookup.
        for _ in 0..<40 {
            if let descriptor = descriptorNamed(current) { return .descriptor(descriptor) }
            guard let target = linkTarget(of: current) else { return .path(current) }
            current = target.hasPrefix("/") ? target : FilePaths.join(FilePaths.parent(of: current), target)
        }
        // A loop: opening the original gives the ELOOP message.
        return .path(name)
    }

    /// What the last component links to, or nil when it is not a link (or does not exist).
    private static func linkTarget(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func descriptorNamed(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return STDIN_FILENO
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default: break
        }
        for folder in ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/\(getpid())/fd/"] where path.hasPrefix(folder) {
            let number = path.dropFirst(folder.count)
            guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber), let descriptor = Int32(number) else { return nil }
            return descriptor
        }
        return nil
    }
}
