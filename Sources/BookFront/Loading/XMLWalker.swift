import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Foundation's XMLParser as three closures, on sanitized input (see XMLSafety): element
/// names and attribute names come without their namespace prefix ("dc:title" → "title") and
/// lowercased, which is all an EPUB reader needs to tell elements apart.
final class XMLWalker: NSObject, XMLParserDelegate {
    struct Failure: Error {
        var line: Int
        var message: String
    }

    private let onStart: (String, [String: String]) -> Void
    private let onEnd: (String) -> Void
    private let onText: (String) -> Void

    private init(onStart: @escaping (String, [String: String]) -> Void, onEnd: @escaping (String) -> Void,
                 onText: @escaping (String) -> Void) {
        self.onStart = onStart
        self.onEnd = onEnd
        self.onText = onText
    }

    /// Walks `data`; returns nil when the document was well-formed, else where it broke (the
    /// closures have then seen everything up to that point).
    @discardableResult
    static func walk(_ data: Data, onStart: @escaping (String, [String: String]) -> Void = { _, _ in },
                     onEnd: @escaping (String) -> Void = { _ in },
                     onText: @escaping (String) -> Void = { _ in }) -> Failure? {
        walk(sanitized: XMLSafety.sanitize(data), onStart: onStart, onEnd: onEnd, onText: onText)
    }

    /// The same, on input the caller has already sanitized (to see whether it declared entities).
    @discardableResult
    static func walk(sanitized: XMLSafety.Sanitized, onStart: @escaping (String, [String: String]) -> Void = { _, _ in },
                     onEnd: @escaping (String) -> Void = { _ in },
                     onText: @escaping (String) -> Void = { _ in }) -> Failure? {
        let walker = XMLWalker(onStart: onStart, onEnd: onEnd, onText: onText)
        let parser = XMLParser(data: sanitized.data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = walker
        // libxml2 recovers from some errors (a mismatched end tag) and parse() then still returns
        // true: the error callback and the element balance are what tell.
        let finished = parser.parse()
        if let line = walker.firstErrorLine {
            return Failure(line: line, message: walker.firstErrorMessage)
        }
        if !finished || parser.parserError != nil {
            return Failure(line: parser.lineNumber, message: "not well-formed XML")
        }
        if walker.depth != 0 || !walker.sawElement {
            return Failure(line: parser.lineNumber, message: "the document ends before its elements are closed")
        }
        return nil
    }

    private var firstErrorLine: Int?
    private var firstErrorMessage = ""
    private var depth = 0
    private var sawElement = false

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard firstErrorLine == nil else { return }
        firstErrorLine = max(1, parser.lineNumber)
        firstErrorMessage = "not well-formed XML (code \((parseError as NSError).code))"
    }

    static func localName(_ name: String) -> String {
        (name.split(separator: ":").last.map(String.init) ?? name).lowercased()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        var attributes: [String: String] = [:]
        for (key, value) in attributeDict {
            attributes[Self.localName(key)] = value
            attributes[key.lowercased()] = value  // keep "epub:type" and friends reachable by full name too
        }
        depth += 1
        sawElement = true
        onStart(Self.localName(elementName), attributes)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        depth -= 1
        onEnd(Self.localName(elementName))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { onText(string) }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { onText(String(decoding: CDATABlock, as: UTF8.self)) }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? { nil }
}
