import FileSafety
import FoundationEssentials
import Platform

/// An EPUB's zip archive, read defensively: every entry path is checked before anything is
/// read (a path that leaves the archive, "../x" or "/etc/x", refuses the whole book), and what
/// is extracted is capped per entry and in total, counting the bytes actually inflated, not the
/// sizes the archive claims (a zip bomb lies about those). The zip format itself is read by
/// `ZipArchive`, which trusts no offset, count or size the file gives.
final class EPUBArchive {
    static let entryLimit = 64 << 20
    static let totalLimit = 200 << 20
    static let maximumEntries = 20_000

    let path: String
    private let archive: ZipArchive
    private var entriesByPath: [String: ZipEntry] = [:]
    private var extracted = 0

    init(path: String) throws {
        self.path = path
        // The descriptor that passed the regular-file check is the one read: nothing can be
        // swapped in between.
        let (descriptor, size) = try BookFile.openDescriptor(path: path, limit: .epubBook)
        do {
            archive = try ZipArchive(descriptor: descriptor, size: size, maximumEntries: Self.maximumEntries)
        } catch ZipError.tooManyEntries {
            throw BookLoadError(path: path, reason: "is not a valid EPUB (more than \(Self.maximumEntries) files in the archive)")
        } catch {
            throw BookLoadError(path: path, reason: "is not a valid EPUB (the zip archive cannot be read)")
        }
        for entry in archive.entries {
            let name = entry.name
            guard Self.staysInside(name) else {
                throw BookLoadError(path: path, reason: "refused: the archive holds a file whose path leaves it (\(name))")
            }
            guard entry.kind == .file else { continue }  // directories; symlinks are never followed
            entriesByPath[Self.normalized(name)] = entry
        }
    }

    var paths: Set<String> { Set(entriesByPath.keys) }

    func contains(_ path: String) -> Bool { entriesByPath[path] != nil }

    /// The entry's bytes, or nil when there is no such file.
    func read(_ entryPath: String) throws -> Data? {
        guard let entry = entriesByPath[entryPath] else { return nil }
        let claimed = entry.uncompressedSize
        guard claimed <= UInt64(Self.entryLimit), extracted + Int(claimed) <= Self.totalLimit else {
            throw tooBig(entryPath)
        }
        let bytes: [UInt8]
        do {
            bytes = try archive.extract(entry, limit: min(Self.entryLimit, Self.totalLimit - extracted))
        } catch ZipError.tooBig {
            throw tooBig(entryPath)
        } catch ZipError.encrypted {
            throw BookLoadError(path: path, reason: "is not a valid EPUB (\(entryPath) is encrypted with zip encryption)")
        } catch ZipError.unsupportedMethod(let method) {
            throw BookLoadError(path: path, reason: "is not a valid EPUB (\(entryPath) is compressed with zip method \(method), not deflate)")
        } catch {
            throw BookLoadError(path: path, reason: "is not a valid EPUB (\(entryPath) is damaged in the archive)")
        }
        extracted += bytes.count
        return Data(bytes)
    }

    private func tooBig(_ entryPath: String) -> BookLoadError {
        BookLoadError(path: path, reason: "refused: \(entryPath) is too big once unpacked (the limit is \(Self.entryLimit >> 20) MB a file, \(Self.totalLimit >> 20) MB in all)")
    }

    /// False for absolute paths, drive letters and any ".." component.
    static func staysInside(_ path: String) -> Bool {
        let unified = path.replacing("\\", with: "/")
        if unified.hasPrefix("/") || unified.contains("\0") { return false }
        if unified.count >= 2, unified.dropFirst().first == ":" { return false }  // "C:/…"
        return !unified.split(separator: "/").contains("..")
    }

    static func normalized(_ path: String) -> String {
        path.replacing("\\", with: "/").split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    /// Resolves `href` (percent-encoded, maybe with "#fragment") against the folder of `base`.
    /// Nil when it points outside the archive or to another site.
    static func resolve(_ href: String, relativeTo base: String) -> (path: String, fragment: String?)? {
        var reference = href
        var fragment: String?
        if let hash = reference.firstIndex(of: "#") {
            fragment = String(reference[reference.index(after: hash)...])
            reference = String(reference[..<hash])
        }
        if reference.contains("://") || reference.hasPrefix("mailto:") { return nil }
        let decoded = reference.percentDecoded ?? reference
        var parts = decoded.hasPrefix("/") ? [] : base.split(separator: "/").dropLast().map(String.init)
        if decoded.isEmpty { parts = base.split(separator: "/").map(String.init) }
        for part in decoded.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        return (parts.joined(separator: "/"), fragment.flatMap { $0.isEmpty ? nil : $0 })
    }
}
