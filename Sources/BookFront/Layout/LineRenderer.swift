import Terminal

/// Turns a laid-out line into what the screen shows, keeping each piece's byte offset so
/// highlights and emphasis (byte ranges) can be styled: a run of white space holding a line
/// end becomes one space, other white space one space per byte, as the wrapper measured it.
public enum LineRenderer {
    public struct Piece: Hashable, Sendable {
        public var text: String
        public var offset: Int
    }

    public static func pieces(of line: LaidOutLine, in text: BookText) -> [Piece] {
        guard !line.isBlank, !line.range.isEmpty else { return [] }
        let string = text.string(line.range)
        var result: [Piece] = []
        var offset = line.range.lowerBound
        var spaceRun: (offset: Int, bytes: Int, newline: Bool)?
        func flushSpace() {
            guard let run = spaceRun else { return }
            if run.newline {
                result.append(Piece(text: " ", offset: run.offset))
            } else {
                for index in 0..<run.bytes { result.append(Piece(text: " ", offset: run.offset + index)) }
            }
            spaceRun = nil
        }
        for character in string {
            let size = character.utf8.count
            if let scalar = character.unicodeScalars.first, character.unicodeScalars.count <= 2,
               scalar.value <= 0x20 || scalar.value == 0x7F {
                let newline = scalar.value == 0x0A || scalar.value == 0x0D
                if var run = spaceRun {
                    run.bytes += size
                    run.newline = run.newline || newline
                    spaceRun = run
                } else {
                    spaceRun = (offset, size, newline)
                }
            } else {
                flushSpace()
                result.append(Piece(text: String(character), offset: offset))
            }
            offset += size
        }
        flushSpace()
        return result
    }

    /// The pieces with the spaces between words widened so the line fills `width` columns
    /// (leading indentation stays as it is; the leftmost gaps take the odd spaces).
    public static func justified(_ pieces: [Piece], to width: Int) -> [Piece] {
        let used = pieces.reduce(0) { $0 + DisplayWidth.of($1.text) }
        let firstWord = pieces.firstIndex { $0.text != " " } ?? pieces.count
        let gaps = pieces.indices.filter { $0 > firstWord && pieces[$0].text == " " && pieces[$0 - 1].text != " " }
        guard used < width, !gaps.isEmpty else { return pieces }
        let extra = width - used
        var result = pieces
        for (number, index) in gaps.enumerated() {
            let widen = extra / gaps.count + (number < extra % gaps.count ? 1 : 0)
            result[index].text += String(repeating: " ", count: widen)
        }
        return result
    }

    /// The line as plain text.
    public static func string(of line: LaidOutLine, in text: BookText) -> String {
        pieces(of: line, in: text).map(\.text).joined()
    }
}
