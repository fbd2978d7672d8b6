import Foundation

/// How a FuzzEPUBContents input holds the files of a book: entries separated by `marker`, each
/// its path, a newline, then its contents (Fuzz/make_seeds.py writes seeds the same way).
public enum EPUBFiles {
    public static let marker = Data("\n--file--\n".utf8)

    public static func split(_ data: Data) -> [(path: String, contents: Data)] {
        var files: [(path: String, contents: Data)] = []
        var rest = data[...]
        while !rest.isEmpty {
            let entry: Data
            if let range = rest.range(of: marker) {
                entry = Data(rest[..<range.lowerBound])
                rest = rest[range.upperBound...]
            } else {
                entry = Data(rest)
                rest = rest[rest.endIndex...]
            }
            let newline = entry.firstIndex(of: 0x0A) ?? entry.endIndex
            // Capped so the zip writer's 16-bit name length always holds it.
            let path = String(decoding: entry[..<newline].prefix(1024), as: UTF8.self)
            let contents = newline < entry.endIndex ? Data(entry[(newline + 1)...]) : Data()
            files.append((path, contents))
        }
        return files
    }
}
