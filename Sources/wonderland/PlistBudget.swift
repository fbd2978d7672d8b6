import FileSafety
import PropertyList

/// How much one file given to `wonderland plist` may hold. The defaults are budgets for a file
/// of any origin, which may have been made to exhaust whoever reads it; `--max-size` and
/// `--max-values` move them for a file the user trusts to be as big as it is.
struct PlistBudget {
    /// The most bytes read from the file.
    var file: FileLimit
    /// What the bytes may expand to once parsed; the keyed-archive check and the printer walk
    /// the value under the same limits.
    var values: PropertyListLimits

    static let standard = PlistBudget(file: .userPropertyList, values: .userFile)

    /// The file and the strings and data it expands to, all at most `bytes`: a file that may be
    /// bigger may also hold a bigger string.
    func withMaxSize(_ bytes: Int) -> PlistBudget {
        var budget = self
        budget.file = FileLimit(bytes: bytes, name: file.name)
        budget.values.maxStringBytes = bytes
        budget.values.maxDataBytes = bytes
        return budget
    }

    /// Distinct values and values counted at every use (a shared one at each reference) alike.
    func withMaxValues(_ count: Int) -> PlistBudget {
        var budget = self
        budget.values.maxObjects = count
        budget.values.maxExpandedElements = count
        return budget
    }

    /// The defaults in words, for the help: "at most 256 MB, 1,000,000 values, ...".
    static var summary: String {
        let limits = standard.values
        let size = ByteCountText.describe(Int64(standard.file.bytes))
        let strings = ByteCountText.describe(Int64(limits.maxStringBytes))
        let data = ByteCountText.describe(Int64(limits.maxDataBytes))
        return "A file may be at most \(size) and hold at most \(MessageText.grouped(limits.maxExpandedElements)) values, "
            + "\(strings) of strings and \(data) of data (a value used in several places counts at each), "
            + "nested at most \(limits.maxDepth) deep. --max-size raises the size, strings and data together, "
            + "--max-values the values, up to what this machine's memory can hold. The depth is fixed: it is the "
            + "deepest either writer produces."
    }
}
