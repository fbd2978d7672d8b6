import Foundation
import KeyedArchive
import PropertyList

/// The oracle of the printer targets: what `wonderland plist print` does with a file, and the
/// bound its output must keep.
public enum PrintCheck {
    public static func check(_ data: Data) {
        guard let value = try? PropertyListReader.value(from: data, limits: .userFile) else { return }
        guard let text = try? PropertyListPrinter.render(value, limits: .userFile) else { return }
        // The budget, plus the one line that says where the tree stopped.
        precondition(text.utf8.count <= PropertyListPrinter.maxBytes + 1024, "printed \(text.utf8.count) bytes")
        let lines = text.utf8.lazy.filter { $0 == UInt8(ascii: "\n") }.count
        precondition(lines <= PropertyListPrinter.maxLines + 2, "printed \(lines) lines")
    }
}
