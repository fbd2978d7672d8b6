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
        let walker = XMLWalker(onStart: onStart, onEnd: onEnd, onText: onText)
        let parser = XMLParser(data: XMLSafety.sanitize(data).data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = walker
        if parser.parse() { return nil }
        let message = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "not well-formed XML"
        return Failure(line: parser.lineNumber, message: message)
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
        onStart(Self.localName(elementName), attributes)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        onEnd(Self.localName(elementName))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { onText(string) }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { onText(String(decoding: CDATABlock, as: UTF8.self)) }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? { nil }
}
