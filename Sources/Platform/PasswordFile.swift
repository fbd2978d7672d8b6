#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UserFolders {
    /// The home folder the password file gives `user` (this process's user when nil); nil when
    /// there is no such entry. The reentrant calls: another thread may look up a user meanwhile.
    public static func passwordFileHome(user: String? = nil) -> String? {
        var capacity = max(1024, sysconf(Int32(_SC_GETPW_R_SIZE_MAX)))
        // An entry larger than this is no real one; the bound keeps a hostile NSS answer finite.
        while capacity <= 1 << 20 {
            var entry = passwd()
            var found: UnsafeMutablePointer<passwd>?
            var buffer = [CChar](repeating: 0, count: capacity)
            let code = buffer.withUnsafeMutableBufferPointer { bytes in
                if let user {
                    return getpwnam_r(user, &entry, bytes.baseAddress!, bytes.count, &found)
                }
                return getpwuid_r(getuid(), &entry, bytes.baseAddress!, bytes.count, &found)
            }
            if code == ERANGE {
                capacity *= 2
                continue
            }
            guard code == 0, found != nil, let directory = entry.pw_dir else { return nil }
            let home = String(cString: directory)
            return home.isEmpty ? nil : home
        }
        return nil
    }
}
