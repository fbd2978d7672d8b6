import FoundationEssentials

/// An XML document as three closures, on sanitized input (see XMLSafety): element names and
/// attribute names come without their namespace prefix ("dc:title" → "title") and lowercased,
/// which is all an EPUB reader needs to tell elements apart; each attribute is also kept under
/// its whole lowercased name ("epub:type"). Tokens come from `XMLScanner`; the walk checks that
/// end tags match, that there is one root element and nothing but blanks, comments and
/// processing instructions around it, and that elements nest at most `maxDepth` deep.
enum XMLWalker {
    struct Failure: Error, Equatable {
        var line: Int
        var message: String
    }

    /// As deep as libxml2 allows by default; real books nest a few dozen levels at most.
    static let maxDepth = 256

    /// Walks `data`; returns nil when the document was well-formed, else where it broke (the
    /// closures have then seen everything before that point, and nothing after it).
    @discardableResult
    static func walk(_ data: Data, onStart: (String, [String: String]) -> Void = { _, _ in },
                     onEnd: (String) -> Void = { _ in },
                     onText: (String) -> Void = { _ in }) -> Failure? {
        walk(sanitized: XMLSafety.sanitize(data), onStart: onStart, onEnd: onEnd, onText: onText)
    }

    /// The same, on input the caller has already sanitized (to see whether it declared entities).
    @discardableResult
    static func walk(sanitized: XMLSafety.Sanitized, onStart: (String, [String: String]) -> Void = { _, _ in },
                     onEnd: (String) -> Void = { _ in },
                     onText: (String) -> Void = { _ in }) -> Failure? {
        var scanner = XMLScanner(sanitized.bytes)
        var open: [String] = []
        var sawRoot = false
        do throws(XMLScanner.SyntaxError) {
            while true {
                switch try scanner.next() {
                case .start(let tag):
                    if sawRoot, open.isEmpty {
                        throw XMLScanner.SyntaxError(offset: tag.offset, message: "a second root element <\(clipped(tag.name))>")
                    }
                    guard open.count < maxDepth else {
                        throw XMLScanner.SyntaxError(offset: tag.offset, message: "elements nest deeper than \(maxDepth) levels")
                    }
                    var attributes: [String: String] = [:]
                    for (name, value) in tag.attributes {
                        attributes[localName(name)] = value
                        attributes[name.lowercased()] = value
                    }
                    sawRoot = true
                    let name = localName(tag.name)
                    onStart(name, attributes)
                    if tag.selfClosing { onEnd(name) } else { open.append(tag.name) }
                case .end(let name, let offset):
                    guard let innermost = open.last else {
                        throw XMLScanner.SyntaxError(offset: offset, message: "</\(clipped(name))> closes no element")
                    }
                    guard innermost == name else {
                        throw XMLScanner.SyntaxError(offset: offset, message: "</\(clipped(name))> does not close <\(clipped(innermost))>")
                    }
                    open.removeLast()
                    onEnd(localName(name))
                case .text(let text, let offset):
                    if open.isEmpty {
                        guard text.utf8.allSatisfy(XMLScanner.isWhitespace) else {
                            throw XMLScanner.SyntaxError(offset: scanner.firstNonBlank(from: offset), message: "text outside the root element")
                        }
                    } else {
                        onText(text)
                    }
                case .cdata(let text, let offset):
                    guard !open.isEmpty else {
                        throw XMLScanner.SyntaxError(offset: offset, message: "a CDATA section outside the root element")
                    }
                    onText(text)
                case .finished(let offset):
                    if let innermost = open.last {
                        throw XMLScanner.SyntaxError(offset: offset, message: "the document ends before <\(clipped(innermost))> is closed")
                    }
                    guard sawRoot else { throw XMLScanner.SyntaxError(offset: offset, message: "the document has no root element") }
                    return nil
                }
            }
        } catch {
            return Failure(line: scanner.line(at: error.offset), message: error.message)
        }
    }

    static func localName(_ name: String) -> String {
        (name.split(separator: ":").last.map(String.init) ?? name).lowercased()
    }

    private static func clipped(_ name: String) -> String {
        name.count > 40 ? String(name.prefix(40)) + "…" : name
    }
}
