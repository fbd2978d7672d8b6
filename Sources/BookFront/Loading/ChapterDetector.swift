#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds chapter headings in plain text by scanning bytes, line by line: "CHAPTER I.",
/// "Chapter 3: The Pool", "BOOK ONE", "PART II", "PROLOGUE". Works on a mapped 1 GB file
/// without building a String of it: lines are found with memchr and only short lines that
/// follow a blank line are looked at closely.
///
/// A heading is a whole line (leading and trailing blanks and a CR are ignored) of at most
/// `maximumHeadingLength` bytes with a blank line (or the file's start or end) before and after it. The chapter's name is
/// the text after "CHAPTER I." on the same line, or else a short one-line paragraph right under
/// the heading (Alice's "Down the Rabbit-Hole"). A run of three or more headings with hardly any
/// text between them is a table of contents, not the chapters, and is dropped.
public enum ChapterDetector {
    static let maximumHeadingLength = 100
    static let maximumSubtitleLength = 70
    /// Less text than this between two headings makes them a contents list.
    static let contentsGap = 240

    public static func chapters(in text: BookText) -> [BookChapter] {
        var releaser = PageReleaser(text: text)
        defer { releaser.finish() }
        return text.withBytes { chapters(in: $0, passed: { releaser.passed($0) }) }
    }

    static func chapters(in bytes: UnsafeRawBufferPointer, passed: @escaping (Int) -> Void = { _ in }) -> [BookChapter] {
        var found: [(chapter: BookChapter, end: Int)] = []
        var lines = LineScanner(bytes: bytes, passed: passed)
        var previousWasBlank = true
        var nextReport = PageReleaser.window
        while let line = lines.next() {
            if line.start >= nextReport {
                passed(line.start)
                nextReport = line.start + PageReleaser.window
            }
            var content = line.trimmed
            if line.start == 0, content.starts(with: [0xEF, 0xBB, 0xBF]) {  // a UTF-8 byte order mark
                content = UnsafeRawBufferPointer(rebasing: content.dropFirst(3))
            }
            if content.isEmpty { previousWasBlank = true; continue }
            defer { previousWasBlank = false }
            guard previousWasBlank, content.count <= maximumHeadingLength,
                  let heading = HeadingPattern.match(content) else { continue }
            // A heading is a paragraph of its own: a line of a contents list is not.
            var peek = LineScanner(bytes: nearby(bytes, after: line.end), from: line.end)
            if let following = peek.next(), !following.trimmed.isEmpty { continue }
            var end = line.end
            var subtitle = heading.name
            if subtitle == nil, let under = subtitleLine(after: line, in: bytes) {
                subtitle = under.text
                end = under.end
            }
            let label = String(decoding: heading.label, as: UTF8.self)
            let title = subtitle.map { "\(label): \($0)" } ?? label
            found.append((BookChapter(title: title, offset: line.start, heading: label, subtitle: subtitle), end))
        }
        return droppingContentsLists(found)
    }

    /// The short one-line paragraph under a heading (after at most two blank lines), if any.
    /// The bytes up to a little after `offset`: what follows a heading is looked at only that far,
    /// so a heading before a gigabyte-long line does not read the gigabyte.
    private static func nearby(_ bytes: UnsafeRawBufferPointer, after offset: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[0..<min(bytes.count, offset + 1024)])
    }

    private static func subtitleLine(after heading: Line, in bytes: UnsafeRawBufferPointer) -> (text: String, end: Int)? {
        let window = nearby(bytes, after: heading.end)
        var lines = LineScanner(bytes: window, from: heading.end)
        var blanks = 0
        while let line = lines.next() {
            let content = line.trimmed
            if content.isEmpty {
                blanks += 1
                if blanks > 2 { return nil }
                continue
            }
            let cutShort = line.end == window.count && window.count < bytes.count
            guard !cutShort, content.count <= maximumSubtitleLength, HeadingPattern.match(content) == nil else { return nil }
            // A one-line paragraph: the next line is blank (or the text ends).
            if let following = lines.next(), !following.trimmed.isEmpty { return nil }
            return (String(decoding: content, as: UTF8.self), line.end)
        }
        return nil
    }

    private static func droppingContentsLists(_ found: [(chapter: BookChapter, end: Int)]) -> [BookChapter] {
        var kept: [BookChapter] = []
        var index = 0
        while index < found.count {
            var runEnd = index
            while runEnd + 1 < found.count, found[runEnd + 1].chapter.offset - found[runEnd].end < contentsGap {
                runEnd += 1
            }
            if runEnd - index + 1 >= 3 {
                kept.append(found[runEnd].chapter)  // the last of a contents list may be the real first chapter
            } else {
                kept.append(contentsOf: found[index...runEnd].map(\.chapter))
            }
            index = runEnd + 1
        }
        return kept
    }
}

/// One line of the text: `start..<end` includes its line break.
struct Line {
    var start: Int
    var end: Int
    /// The bytes without leading and trailing blanks and the line break.
    var trimmed: UnsafeRawBufferPointer
}

/// Lines of a byte buffer, found with memchr so even a debug build crosses a gigabyte quickly.
/// The search goes a window at a time and reports each window it crosses, so a single
/// gigabyte-long "line" (a file with no line breaks) still lets the pages behind it go.
struct LineScanner {
    let bytes: UnsafeRawBufferPointer
    var position: Int
    var passed: ((Int) -> Void)?

    init(bytes: UnsafeRawBufferPointer, from position: Int = 0, passed: ((Int) -> Void)? = nil) {
        self.bytes = bytes
        self.position = position
        self.passed = passed
    }

    mutating func next() -> Line? {
        guard position < bytes.count, let base = bytes.baseAddress else { return nil }
        let start = position
        var end = bytes.count
        var searched = start
        while searched < bytes.count {
            let chunk = min(PageReleaser.window, bytes.count - searched)
            if let newline = memchr(base + searched, 0x0A, chunk) {
                end = base.distance(to: UnsafeRawPointer(newline)) + 1
                break
            }
            searched += chunk
            passed?(searched)
        }
        position = end
        // Trimming only looks at the ends, so a huge line costs nothing more here.
        var low = start, high = end
        while high > low, Self.isBlank(bytes[high - 1]) { high -= 1 }
        while low < high, Self.isBlank(bytes[low]) { low += 1 }
        return Line(start: start, end: end, trimmed: UnsafeRawBufferPointer(rebasing: bytes[low..<high]))
    }

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }
}

/// The shapes of a heading line, on ASCII bytes.
enum HeadingPattern {
    struct Match {
        /// "CHAPTER I" (without a trailing period).
        var label: ArraySlice<UInt8>
        /// The name after the number on the same line ("CHAPTER I. Down the Rabbit-Hole").
        var name: String?
    }

    private static let numbered: [[UInt8]] = ["CHAPTER", "Chapter", "BOOK", "Book", "PART", "Part"].map { Array($0.utf8) }
    private static let standalone: [[UInt8]] = ["PROLOGUE", "EPILOGUE", "PREFACE", "INTRODUCTION", "FOREWORD", "AFTERWORD"].map { Array($0.utf8) }
    private static let numberWords: Set<String> = [
        "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN", "TWELVE",
        "THIRTEEN", "FOURTEEN", "FIFTEEN", "SIXTEEN", "SEVENTEEN", "EIGHTEEN", "NINETEEN", "TWENTY",
        "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY", "HUNDRED",
        "FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH", "SEVENTH", "EIGHTH", "NINTH", "TENTH",
        "LAST", "FINAL",
    ]

    /// Called for every short line after a blank one (a paragraph's first line, mostly), so it
    /// rejects on the raw bytes before it builds anything.
    static func match(_ line: UnsafeRawBufferPointer) -> Match? {
        guard let first = line.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return nil }
        if numbered.contains(where: { line.starts(with: $0) }) { return numberedHeading(Array(line)) }
        let word = line.last == UInt8(ascii: ".") ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
        if standalone.contains(where: { $0.elementsEqual(word) }) { return Match(label: Array(word)[...], name: nil) }
        return nil
    }

    private static func numberedHeading(_ bytes: [UInt8]) -> Match? {
        guard let keyword = numbered.first(where: { bytes.starts(with: $0) }) else { return nil }
        var index = keyword.count
        guard index < bytes.count, bytes[index] == 0x20 else { return nil }
        while index < bytes.count, bytes[index] == 0x20 { index += 1 }
        let numberStart = index
        while index < bytes.count, isNumberByte(bytes[index]) { index += 1 }
        guard index > numberStart, isNumber(bytes[numberStart..<index]) else { return nil }
        let label = bytes[0..<index]
        var rest = bytes[index...]
        guard !rest.isEmpty else { return Match(label: label, name: nil) }
        // After the number: nothing, a period or colon, or a dash, then optionally a name.
        if rest.first == UInt8(ascii: ".") || rest.first == UInt8(ascii: ":") {
            rest = rest.dropFirst()
        } else if rest.starts(with: " - ".utf8) || rest.starts(with: " -- ".utf8) || rest.starts(with: " \u{2014} ".utf8) {
            rest = rest.drop(while: { $0 == 0x20 }).drop(while: { $0 != 0x20 })
        } else {
            return nil
        }
        let name = String(decoding: rest, as: UTF8.self).trimmingBlanks
        if !rest.isEmpty, rest.first != 0x20, !name.isEmpty { return nil }  // "Chapter 3.5" is not a heading
        return Match(label: label, name: name.isEmpty ? nil : name)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "-")
    }

    private static func isNumber(_ token: ArraySlice<UInt8>) -> Bool {
        if token.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return token.count <= 4 }
        let upper = String(decoding: token, as: UTF8.self).uppercased()
        if upper.count <= 8, upper.allSatisfy({ "IVXLCDM".contains($0) }) {
            // Roman numerals in one case only: "Chapter Ill" is a word, not a number.
            let text = String(decoding: token, as: UTF8.self)
            return text == text.uppercased() || text == text.lowercased()
        }
        return upper.split(separator: "-").allSatisfy { numberWords.contains(String($0)) }
    }
}

extension String {
    var trimmingBlanks: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" || last == "\n" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
