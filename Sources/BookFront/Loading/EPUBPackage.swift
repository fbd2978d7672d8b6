import FoundationEssentials

/// What an EPUB's package says: its title, its reading order (the OPF spine) and where its table
/// of contents is (the EPUB 3 nav document or the EPUB 2 NCX). Read from META-INF/container.xml
/// and the OPF file it names.
struct EPUBPackage {
    struct Item {
        var path: String
        var mediaType: String
        var properties: Set<String>
    }

    var packagePath: String
    var title: String?
    var spine: [String]
    var navPath: String?
    var ncxPath: String?

    static func read(from archive: EPUBArchive) throws -> EPUBPackage {
        let path = archive.path
        guard let container = try archive.read("META-INF/container.xml") else {
            throw BookLoadError(path: path, reason: "is not a valid EPUB (META-INF/container.xml is missing)")
        }
        var rootfile: String?
        if let failure = XMLWalker.walk(container, onStart: { name, attributes in
            guard name == "rootfile", rootfile == nil, let fullPath = attributes["full-path"] else { return }
            let type = attributes["media-type"] ?? "application/oebps-package+xml"
            if type == "application/oebps-package+xml" { rootfile = fullPath }
        }) {
            throw malformed(path, "META-INF/container.xml", failure)
        }
        guard let rootfile, EPUBArchive.staysInside(rootfile) else {
            throw BookLoadError(path: path, reason: "is not a valid EPUB (container.xml names no package file)")
        }
        let packagePath = EPUBArchive.normalized(rootfile)
        guard let opf = try archive.read(packagePath) else {
            throw BookLoadError(path: path, reason: "is not a valid EPUB (its package file \(packagePath) is missing)")
        }
        return try parse(opf: opf, packagePath: packagePath, bookPath: path)
    }

    static func parse(opf: Data, packagePath: String, bookPath: String) throws -> EPUBPackage {
        var manifest: [String: Item] = [:]
        var spineIDs: [String] = []
        var tocID: String?
        var title: String?
        var inTitle = false
        var titleText = ""
        if let failure = XMLWalker.walk(opf, onStart: { name, attributes in
            switch name {
            case "item":
                guard let id = attributes["id"], let href = attributes["href"],
                      let resolved = EPUBArchive.resolve(href, relativeTo: packagePath) else { return }
                let properties = Set((attributes["properties"] ?? "").split(separator: " ").map(String.init))
                manifest[id] = Item(path: resolved.path, mediaType: attributes["media-type"] ?? "", properties: properties)
            case "itemref":
                if let idref = attributes["idref"] { spineIDs.append(idref) }
            case "spine":
                tocID = attributes["toc"]
            case "title" where title == nil:
                inTitle = true
                titleText = ""
            default: break
            }
        }, onEnd: { name in
            if name == "title", inTitle {
                inTitle = false
                let trimmed = titleText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                if !trimmed.isEmpty { title = trimmed }
            }
        }, onText: { text in
            if inTitle { titleText += text }
        }) {
            throw malformed(bookPath, packagePath, failure)
        }
        let spine = spineIDs.compactMap { manifest[$0]?.path }
        guard !spine.isEmpty else {
            throw BookLoadError(path: bookPath, reason: "is not a valid EPUB (its spine lists no readable content)")
        }
        let nav = manifest.values.first { $0.properties.contains("nav") }?.path
        let ncx = tocID.flatMap { manifest[$0]?.path }
            ?? manifest.values.first { $0.mediaType == "application/x-dtbncx+xml" }?.path
        return EPUBPackage(packagePath: packagePath, title: title, spine: spine, navPath: nav, ncxPath: ncx)
    }

    static func malformed(_ bookPath: String, _ entry: String, _ failure: XMLWalker.Failure) -> BookLoadError {
        BookLoadError(path: bookPath, reason: "is not a valid EPUB (\(entry) is malformed XML at line \(failure.line))")
    }
}

/// Books locked by DRM carry their licence next to the container: Adobe's rights.xml, Apple's
/// sinf.xml, or an encryption.xml that encrypts content. Font obfuscation (the IDPF and Adobe
/// algorithms) also lives in encryption.xml and is not DRM: such books open.
enum EPUBProtection {
    static let fontObfuscation: Set<String> = ["http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"]

    static func check(_ archive: EPUBArchive) throws {
        let drm = BookLoadError(path: archive.path, reason: "is DRM-protected: cannot be opened")
        if archive.contains("META-INF/rights.xml") || archive.contains("META-INF/sinf.xml") { throw drm }
        guard let encryption = try archive.read("META-INF/encryption.xml") else { return }
        var algorithms: [String] = []
        let failure = XMLWalker.walk(encryption, onStart: { name, attributes in
            if name == "encryptionmethod", let algorithm = attributes["algorithm"] { algorithms.append(algorithm) }
        })
        // An encryption file that cannot be read cannot be shown to be harmless.
        if failure != nil || algorithms.contains(where: { !fontObfuscation.contains($0) }) { throw drm }
    }
}
