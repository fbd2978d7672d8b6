import ArgumentParser
import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PropertyList

/// `--max-size` and `--max-values`, shared by every `plist` subcommand.
struct PlistLimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Read files of up to this size, and strings and data of up to this size in all: bytes, or with K, M or G (64M, 1G).",
                               valueName: "size"),
            transform: PlistLimitArgument.size)
    var maxSize: Int?

    @Option(help: ArgumentHelp("Read files of up to this many values.", valueName: "count"),
            transform: PlistLimitArgument.count)
    var maxValues: Int?

    var budget: PlistBudget {
        var budget = PlistBudget.standard
        if let maxSize { budget = budget.withMaxSize(maxSize) }
        if let maxValues { budget = budget.withMaxValues(maxValues) }
        return budget
    }
}

/// Reads the limit options' values: positive, and no more than this machine could hold, so a
/// typo cannot turn a refusal into a machine that swaps.
enum PlistLimitArgument {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]

    /// "1048576", "64M", "64MB", "64MiB", "1g".
    static func size(_ text: String) throws -> Int {
        var digits = Substring(text.uppercased())
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) {
            digits = digits.dropLast(suffix.count)
            break
        }
        var multiplier = 1
        if let last = digits.last, let unit = units[last] {
            multiplier = unit
            digits = digits.dropLast()
        }
        guard let number = wholeNumber(digits) else {
            throw Problem(description: "\(text) is not a size: give bytes, or a number with K, M or G (64M, 1G)")
        }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: multiplier)
        guard !overflow, bytes <= memoryBytes else {
            throw Problem(description: "\(text) is more than this machine's \(ByteCountText.describe(Int64(memoryBytes))) of memory")
        }
        guard bytes > 0 else { throw Problem(description: "the size must be more than 0") }
        return bytes
    }

    static func count(_ text: String) throws -> Int {
        guard let number = wholeNumber(Substring(text)) else { throw Problem(description: "\(text) is not a whole number") }
        guard number > 0 else { throw Problem(description: "the count must be more than 0") }
        // Each value read takes at least its enum's room in memory.
        let most = memoryBytes / MemoryLayout<PropertyListValue>.stride
        guard number <= most else {
            throw Problem(description: "\(text) values are more than this machine's memory can hold (\(MessageText.grouped(most)))")
        }
        return number
    }

    /// Digits only: no sign, no spaces, no grouping commas to misread.
    private static func wholeNumber(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        // Too many digits for an Int is too big, not garbage.
        return Int(digits) ?? Int.max
    }

    /// Physical memory: what a file read whole and its parsed values must both fit in.
    static var memoryBytes: Int {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, pageSize > 0 else { return Int.max }
        return pages.multipliedReportingOverflow(by: pageSize).overflow ? Int.max : pages * pageSize
    }
}
