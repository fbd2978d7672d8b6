import Foundation

/// How a FuzzSettingsSchema input holds a whole bundle: files separated by `marker`, the first
/// Root.plist, then P1.plist, P2.plist, … (Fuzz/make_seeds.py writes seeds the same way).
public enum PaneSplit {
    public static let marker = Data("\n--pane--\n".utf8)

    public static func files(_ data: Data) -> [String: Data] {
        var files: [String: Data] = [:]
        var rest = data[...]
        var index = 0
        while true {
            let name = index == 0 ? "Root.plist" : "P\(index).plist"
            guard let range = rest.range(of: marker) else {
                files[name] = Data(rest)
                return files
            }
            files[name] = Data(rest[..<range.lowerBound])
            rest = rest[range.upperBound...]
            index += 1
        }
    }
}
