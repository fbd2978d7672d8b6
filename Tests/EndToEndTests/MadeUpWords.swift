/// Words that are all different ("kaq", "loq", … "lokaq"), for fixture books in which a line
/// can be found again by its words alone, whatever the width it is wrapped to.
struct MadeUpWords {
    private static let syllables = ["ka", "lo", "mi", "ne", "su", "ta", "vo", "ri", "pe", "du", "ga", "ho", "zu", "be", "fi", "wa"]
    private var counter = 0
    /// Ends every word, so no made-up word is a real one or a prefix of another fixture's.
    let suffix: String

    init(suffix: String) { self.suffix = suffix }

    mutating func next() -> String {
        counter += 1
        var n = counter, result = ""
        repeat {
            result += Self.syllables[n % Self.syllables.count]
            n /= Self.syllables.count
        } while n > 0
        return result + suffix
    }

    /// A paragraph of `count` words, a full stop after every ninth, hard-wrapped at `width`
    /// columns with CRLF like the real book; `indent` starts its first line.
    mutating func paragraph(words count: Int, width: Int, indent: String = "") -> String {
        var line = indent, lines: [String] = []
        for position in 0..<count {
            let word = next() + (position % 9 == 8 ? "." : "")
            if line.count + word.count + 1 > width {
                lines.append(line)
                line = word
            } else {
                line += line.isEmpty || line == indent ? word : " " + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\r\n")
    }
}
