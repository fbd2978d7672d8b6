import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where the sync helper program is: named by WONDERLAND_SYNC_SERVER_HELPER (tests, a helper
/// kept elsewhere), else beside the running executable, where the build and the install put it.
public enum SyncHelperLocation {
    public static let programName = "wonderland-sync-server"
    public static let environmentVariable = "WONDERLAND_SYNC_SERVER_HELPER"

    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let chosen = environment[environmentVariable], !chosen.isEmpty { return chosen }
        return runningExecutableFolder() + "/" + programName
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
