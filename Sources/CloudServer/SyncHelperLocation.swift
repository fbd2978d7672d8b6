import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where the sync helper program is: named by WONDERLAND_SYNC_SERVER_HELPER (tests, a helper
/// kept elsewhere), else beside the running executable, where a build puts it, else in
/// `libexec/wonderland/` of the executable's prefix, where `scripts/install` and the Debian
/// package put it (`/usr/bin/wonderland` finds `/usr/libexec/wonderland/wonderland-sync-server`).
public enum SyncHelperLocation {
    /// The helper's file name, in every place it is looked for.
    public static let programName = "wonderland-sync-server"
    /// Names a helper program elsewhere; it is then the only place looked at.
    public static let environmentVariable = "WONDERLAND_SYNC_SERVER_HELPER"

    /// The helper to start: the first place that holds an executable file, else the place
    /// beside the executable, so that a missing helper is reported where a build puts it.
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment,
                            isExecutable: (String) -> Bool = { access($0, X_OK) == 0 }) -> String {
        if let chosen = environment[environmentVariable], !chosen.isEmpty { return chosen }
        let places = candidates(executableFolder: runningExecutableFolder())
        return places.first(where: isExecutable) ?? places[0]
    }

    /// Beside the executable, then `../libexec/wonderland/` from its folder.
    static func candidates(executableFolder folder: String) -> [String] {
        let prefix = folder.hasSuffix("/bin") ? String(folder.dropLast(4)) : folder + "/.."
        return [folder + "/" + programName, prefix + "/libexec/wonderland/" + programName]
    }

    /// The folder of this process's executable, as the kernel knows it (not argv[0], which may
    /// be a bare name found on PATH or a symbolic link).
    static func runningExecutableFolder() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return "." }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
