import FoundationEssentials

/// An EPUB's own table of contents: the EPUB 3 nav document (<nav epub:type="toc">, nested
/// <ol><li><a href>) or the EPUB 2 NCX (<navPoint><navLabel><text>, <content src>), as entries
/// whose targets are archive paths with an optional fragment.
enum EPUBContents {
    struct Entry: Equatable {
        var title: String
        var path: String
        var fragment: String?
        var level: Int
    }

    static func nav(_ data: Data, path: String) -> [Entry] {
        var entries: [Entry] = []
        var navDepth = 0          // inside the table-of-contents <nav>
        var foundTOC = false
        var listDepth = 0
        var link: (href: String, text: String)?
        XMLWalker.walk(data, onStart: { name, attributes in
            switch name {
            case "nav":
                if navDepth > 0 { navDepth += 1; return }
                let type = attributes["epub:type"] ?? attributes["type"] ?? attributes["role"] ?? ""
                // The toc nav, or failing a typed one, the first nav at all.
                if !foundTOC, type.split(separator: " ").contains(where: { $0 == "toc" || $0 == "doc-toc" }) || type.isEmpty {
                    navDepth = 1
                    foundTOC = true
                }
            case "ol" where navDepth > 0, "ul" where navDepth > 0: listDepth += 1
            case "a" where navDepth > 0: link = (attributes["href"] ?? "", "")
            default: break
            }
        }, onEnd: { name in
            switch name {
            case "nav" where navDepth > 0: navDepth -= 1
            case "ol" where navDepth > 0, "ul" where navDepth > 0: listDepth -= 1
            case "a" where link != nil:
                if let entry = makeEntry(link!.text, href: link!.href, base: path, level: max(0, listDepth - 1)) { entries.append(entry) }
                link = nil
            default: break
            }
        }, onText: { text in
            if link != nil { link!.text += text }
        })
        return entries
    }

    static func ncx(_ data: Data, path: String) -> [Entry] {
        var entries: [Entry] = []
        var depth = 0
        var label: String?
        var inText = false
        // navPoints nest: a point's label and content come before its children.
        var pending: [(title: String, src: String?)] = []
        XMLWalker.walk(data, onStart: { name, attributes in
            switch name {
            case "navpoint":
                depth += 1
                pending.append(("", nil))
            case "text" where !pending.isEmpty && label != nil: inText = true
            case "navlabel" where !pending.isEmpty: label = ""
            case "content" where !pending.isEmpty:
                if pending[pending.count - 1].src == nil, let src = attributes["src"] {
                    pending[pending.count - 1].src = src
                    if let entry = makeEntry(pending[pending.count - 1].title, href: src, base: path, level: depth - 1) {
                        entries.append(entry)
                    }
                }
            default: break
            }
        }, onEnd: { name in
            switch name {
            case "navpoint":
                depth -= 1
                if !pending.isEmpty { pending.removeLast() }
            case "text": inText = false
            case "navlabel":
                if let text = label, !pending.isEmpty, pending[pending.count - 1].title.isEmpty {
                    pending[pending.count - 1].title = text
                }
                label = nil
            default: break
            }
        }, onText: { text in
            if inText { label? += text }
        })
        return entries
    }

    private static func makeEntry(_ rawTitle: String, href: String, base: String, level: Int) -> Entry? {
        let title = rawTitle.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !title.isEmpty, let target = EPUBArchive.resolve(href, relativeTo: base) else { return nil }
        return Entry(title: title, path: target.path, fragment: target.fragment, level: level)
    }
}
