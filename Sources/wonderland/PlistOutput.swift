import PropertyList

/// Text with a budget of lines and bytes. Passing either ends the text with a line saying
/// where and why it stopped, thrown as `Stopped` so the printer unwinds at once.
struct PlistOutput {
    let maxLines: Int
    let maxBytes: Int
    private(set) var text = ""
    private var lines = 0

    struct Stopped: Error {
        let text: String
    }

    init(maxLines: Int, maxBytes: Int) {
        self.maxLines = maxLines
        self.maxBytes = maxBytes
    }

    mutating func append(_ piece: String) throws {
        guard text.utf8.count + piece.utf8.count <= maxBytes else {
            throw stop("more than \(MessageText.grouped(maxBytes)) bytes")
        }
        text += piece
        for byte in piece.utf8 where byte == UInt8(ascii: "\n") {
            lines += 1
            if lines >= maxLines { throw stop("more than \(MessageText.grouped(maxLines)) lines") }
        }
    }

    /// A string in quotes with escapes, written scalar by scalar so that a string of any length
    /// costs no more than the bytes left.
    mutating func appendQuoted(_ string: String) throws {
        try append(quotedOrPlain(string, quote: true))
    }

    /// The escaped form of `string`, cut just past the bytes left so the caller's append stops.
    func quotedOrPlain(_ string: String, quote: Bool) -> String {
        let room = maxBytes - text.utf8.count
        var out = quote ? "\"" : ""
        for scalar in string.unicodeScalars {
            if out.utf8.count > room { break }
            // Plain printable ASCII goes straight in; everything else as Swift's own escape spells it.
            if (0x20..<0x7F).contains(scalar.value), scalar != "\"", scalar != "'", scalar != "\\" {
                out.unicodeScalars.append(scalar)
            } else {
                out += scalar.escaped(asASCII: false)
            }
        }
        if quote { out += "\"" }
        return out
    }

    /// The text so far, ended by the line that says why it stops here.
    func stop(_ reason: String) -> Stopped {
        let ending = text.hasSuffix("\n") || text.isEmpty ? "" : "\n"
        return Stopped(text: text + ending + "… (stopped: \(reason))\n")
    }
}
