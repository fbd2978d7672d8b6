import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Platform

/// The files `AtomicFile.moveAside` left, and the rule that lets them go. They are kept for a
/// look (a damaged file is evidence), but a damage that comes back at every launch must not
/// fill the disk over the years: per original file the newest few are always kept, and so is
/// anything moved aside in the last month; the rest are removed.
///
/// Only names `moveAside` makes are ever touched — `<name>.<label>-<YYYYMMDDTHHMMSSZ>`, maybe
/// `-<n>` — with a label the app uses, and only what is not a folder. Links are never
/// followed: a link moved aside is itself the file, and removing it leaves what it points to.
public enum MovedAside {
    /// The labels the app moves files aside under.
    public static let labels: Set<String> = ["corrupt", "newer", "damaged"]

    /// How long and how many are kept.
    public struct KeepRule: Sendable, Equatable {
        /// Per original file, this many of the newest are kept whatever their age.
        public var newest: Int
        /// Anything moved aside less than this many seconds ago is kept.
        public var youngerThan: TimeInterval

        public init(newest: Int, youngerThan: TimeInterval) {
            self.newest = newest
            self.youngerThan = youngerThan
        }

        /// Three per file, and a month.
        public static let standard = KeepRule(newest: 3, youngerThan: 30 * 86_400)
    }

    /// A name read back: what the file was called, why it was moved, and when.
    public struct Name: Sendable, Equatable {
        public var original: String
        public var label: String
        public var moved: Date
        /// 1 for the first moved in its second, then 2, 3, … as `moveAside` numbers them.
        public var sequence: Int

        /// The name as `moveAside` makes it, when it is one; nil for anything else.
        public init?(_ name: String) {
            guard !name.unicodeScalars.contains("\u{FFFD}"), let dash = name.lastIndex(of: "-") else { return nil }
            var stampEnd = name.endIndex
            var sequence = 1
            if let number = Self.sequence(name[name.index(after: dash)...]) {
                sequence = number
                stampEnd = dash
            }
            let head = name[..<stampEnd]
            guard let labelDash = head.lastIndex(of: "-"),
                  let moved = Self.stamp(head[head.index(after: labelDash)...]) else { return nil }
            let beforeStamp = head[..<labelDash]
            guard let dot = beforeStamp.lastIndex(of: ".") else { return nil }
            let label = String(beforeStamp[beforeStamp.index(after: dot)...])
            let original = String(beforeStamp[..<dot])
            guard MovedAside.labels.contains(label), !original.isEmpty, original != ".", original != ".." else { return nil }
            self.original = original
            self.label = label
            self.moved = moved
            self.sequence = sequence
        }

        /// "2" to "1000", as written: no sign, no leading zero.
        private static func sequence(_ text: Substring) -> Int? {
            guard let first = text.first, first != "0", text.count <= 4, text.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let number = Int(text), (2 ... 1000).contains(number) else { return nil }
            return number
        }

        /// "20270115T080000Z" (a year of four digits or more) as a date, when every field is in range.
        private static func stamp(_ text: Substring) -> Date? {
            let scalars = Array(text.unicodeScalars)
            guard scalars.count >= 16, scalars.last == "Z", scalars[scalars.count - 8] == "T" else { return nil }
            let digits = scalars.dropLast().enumerated().filter { $0.offset != scalars.count - 8 }.map(\.element)
            guard digits.count == scalars.count - 2, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
            let numbers = digits.map { Int($0.value - 48) }
            func value(_ range: Range<Int>) -> Int { numbers[range].reduce(0) { $0 * 10 + $1 } }
            let yearDigits = numbers.count - 10
            guard (4 ... 7).contains(yearDigits) else { return nil }
            let year = value(0 ..< yearDigits), month = value(yearDigits ..< yearDigits + 2), day = value(yearDigits + 2 ..< yearDigits + 4)
            let hour = value(yearDigits + 4 ..< yearDigits + 6), minute = value(yearDigits + 6 ..< yearDigits + 8)
            let second = value(yearDigits + 8 ..< yearDigits + 10)
            guard (1 ... 12).contains(month), (1 ... 31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
            var parts = tm()
            parts.tm_year = Int32(year - 1900)
            parts.tm_mon = Int32(month - 1)
            parts.tm_mday = Int32(day)
            parts.tm_hour = Int32(hour)
            parts.tm_min = Int32(minute)
            parts.tm_sec = Int32(second)
            let seconds = timegm(&parts)
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    /// One file moved aside, as found in its folder.
    public struct File: Sendable, Equatable {
        public var path: String
        public var name: Name
        /// Its length as `lstat` gives it (a link's own, never its target's).
        public var size: Int64
    }

    /// The files moved aside in `folder`, without descending into folders or following links;
    /// empty when the folder cannot be read.
    public static func files(inFolder folder: String) -> [File] {
        guard let names = folderNames(folder) else { return [] }
        var found: [File] = []
        for name in names {
            guard let parsed = Name(name) else { continue }
            let path = FilePaths.join(folder, name)
            var status = stat()
            guard lstat(path, &status) == 0, FileKind(mode: status.st_mode) != .directory else { continue }
            found.append(File(path: path, name: parsed, size: Int64(status.st_size)))
        }
        return found
    }

    /// The files of `files` the rule lets go, oldest first.
    public static func pastKeeping(_ files: [File], rule: KeepRule = .standard, now: Date = Date()) -> [File] {
        var past: [File] = []
        for group in Dictionary(grouping: files, by: \.name.original).values {
            let newestFirst = group.sorted { ($0.name.moved, $0.name.sequence) > ($1.name.moved, $1.name.sequence) }
            for file in newestFirst.dropFirst(max(0, rule.newest)) where now.timeIntervalSince(file.name.moved) >= rule.youngerThan {
                past.append(file)
            }
        }
        return past.sorted { ($0.name.moved, $0.path) < ($1.name.moved, $1.path) }
    }

    /// Removes what the rule lets go in `folder` (only copies of `original`, when given);
    /// returns what was removed. `unlink` never follows a link and never removes a folder.
    @discardableResult
    public static func prune(inFolder folder: String, original: String? = nil, rule: KeepRule = .standard, now: Date = Date()) -> [File] {
        var found = files(inFolder: folder)
        if let original { found = found.filter { $0.name.original == original } }
        return pastKeeping(found, rule: rule, now: now).filter { unlink($0.path) == 0 }
    }
}
