#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the app's resource files are on disk (Settings.bundle, Characters.plist), found the
/// same way for each:
/// 1. `$WONDERLAND_RESOURCES/<name>` when the variable is set (returned even when missing, so
///    the reader reports it rather than quietly using another copy);
/// 2. walking up from the executable's real folder: `<dir>/Resources/<name>` (a checkout:
///    `.build/debug/wonderland` finds the repository's Resources) or
///    `<dir>/share/wonderland/<name>` (an install under a prefix, `bin/` beside `share/`).
///
/// Plain path strings and `access`, not URLs: this runs before every first frame, and URL
/// arithmetic cost a launch more than the files' reading.
public enum AppResources {
    /// The environment variable naming the resources folder.
    public static let environmentVariable = "WONDERLAND_RESOURCES"

    /// The path of resource `name`, or nil when neither place has it. `proof` names a file
    /// inside a folder resource whose presence shows the folder is the real one (a bundle's
    /// Root.plist); without it the resource itself must exist.
    public static func locate(_ name: String, proof: String? = nil, environment: [String: String],
                              executablePath: String? = currentExecutablePath) -> String? {
        if let resources = environment[environmentVariable], !resources.isEmpty {
            return FilePaths.join(resources, name)
        }
        guard let executablePath else { return nil }
        let absolutePath = absolute(executablePath)
        var folder = realPath(absolutePath).map(FilePaths.parent) ?? realPath(FilePaths.parent(of: absolutePath)) ?? FilePaths.parent(of: absolutePath)
        while true {
            for candidate in [FilePaths.join(FilePaths.join(folder, "Resources"), name), FilePaths.join(FilePaths.join(folder, "share/wonderland"), name)] {
                let evidence = proof.map { FilePaths.join(candidate, $0) } ?? candidate
                if access(evidence, F_OK) == 0 { return candidate }
            }
            let up = FilePaths.parent(of: folder)
            if up == folder { return nil }
            folder = up
        }
    }

    /// The running binary's path (through /proc on Linux, else argv[0]), read once.
    public static let currentExecutablePath: String? = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 { return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments.first.map(absolute)
    }()

    /// `path` with its symbolic links resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return FilePaths.join(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), path)
    }
}
