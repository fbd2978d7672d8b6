#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in the folder at `path`, without "." and "..", in the order the file system
/// gives them, at most `limit` of them; nil when it cannot be opened (errno says why).
/// Read with readdir: FileManager's listing costs a launch its first use.
public func folderNames(_ path: String, limit: Int = .max) -> [String]? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while names.count < limit, let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
