import FoundationEssentials
import Platform
import PropertyList

/// Renders a property list as an indented tree. A keyed archive is shown resolved: objects by
/// class name and keys, references followed, and an object met a second time (shared, or a
/// cycle) printed as `<see #N ClassName>` instead of again.
///
/// The output is bounded whatever the file: past `maxLines` lines, `maxBytes` bytes or
/// `ArchiveFormat.maximumDepth` levels the tree ends with a line saying where and why it stopped.
public final class PropertyListPrinter {
    /// The most lines printed; past it the tree ends with a line saying so.
    public static let maxLines = 100_000
    /// The most bytes printed (8 MiB); past it the tree ends with a line saying so.
    public static let maxBytes = 8 << 20

    private var output = PropertyListPrinterOutput(maxLines: maxLines, maxBytes: maxBytes)
    private var expanded: Set<Int> = []
    private var depth = 0
    private let contents: ArchiveContents?

    /// Leaf Foundation classes print inline as values and never as back-references.
    private static let leafClasses: Set<String> = ["NSString", "NSMutableString", "NSData", "NSMutableData", "NSDate"]
    private static let arrayClasses: Set<String> = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"]
    private static let dictionaryClasses: Set<String> = ["NSDictionary", "NSMutableDictionary"]

    /// How many archives inside data inside archives are opened, so a crafted file cannot make
    /// the printer recurse without end.
    static let deepestArchivedData = 4

    /// `decodingArchivedData`: a data value that is itself a keyed archive (as an app stores an
    /// object in its defaults) is shown as its object tree rather than as bytes.
    /// `resolvingArchive: false` shows a keyed archive as the plain property list it is, for
    /// one too damaged to resolve, whose `$objects` are then still there to look at.
    public static func render(_ value: PropertyListValue, limits: PropertyListLimits = .userFile,
                              decodingArchivedData: Bool = false, resolvingArchive: Bool = true) throws -> String {
        try render(value, limits: limits, decodeLevels: decodingArchivedData ? deepestArchivedData : 0, resolvingArchive: resolvingArchive)
    }

    /// The object tree of `data` when it is a keyed archive, without its trailing newline; nil
    /// for any other data (including an archive too damaged to read).
    public static func archiveTree(in data: Data, limits: PropertyListLimits = .userFile) -> String? {
        archiveTree(in: data, limits: limits, decodeLevels: deepestArchivedData)
    }

    private static func archiveTree(in data: Data, limits: PropertyListLimits, decodeLevels: Int) -> String? {
        guard decodeLevels > 0,
              let value = try? PropertyListReader.read(data, limits: limits).value,
              ArchiveContents.isKeyedArchive(value),
              let text = try? render(value, limits: limits, decodeLevels: decodeLevels - 1) else { return nil }
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    private static func render(_ value: PropertyListValue, limits: PropertyListLimits, decodeLevels: Int,
                               resolvingArchive: Bool = true) throws -> String {
        let printer: PropertyListPrinter
        do {
            if resolvingArchive, ArchiveContents.isKeyedArchive(value) {
                let contents = try ArchiveContents(value, limits: limits)
                printer = PropertyListPrinter(contents: contents, limits: limits, decodeLevels: decodeLevels)
                try printer.printArchive(contents)
            } else {
                printer = PropertyListPrinter(contents: nil, limits: limits, decodeLevels: decodeLevels)
                try printer.plain(value, indent: "")
                try printer.output.append("\n")
            }
        } catch let stop as PropertyListPrinterOutput.Stopped {
            return stop.text
        }
        return printer.output.text
    }

    private let limits: PropertyListLimits
    private let decodeLevels: Int

    private init(contents: ArchiveContents?, limits: PropertyListLimits, decodeLevels: Int) {
        self.contents = contents
        self.limits = limits
        self.decodeLevels = decodeLevels
    }

    private func printArchive(_ contents: ArchiveContents) throws {
        try output.append("NSKeyedArchiver archive, \(contents.objects.count) objects\n")
        for key in contents.top.keys.sorted() {
            try output.append("\(output.quotedOrPlain(key, quote: false)) => ")
            try archived(contents.top[key]!, indent: "")
            try output.append("\n")
        }
    }

    // MARK: Plain property lists

    private func plain(_ value: PropertyListValue, indent: String) throws {
        switch value {
        case .array(let items):
            try array(items, indent: indent, element: plain)
        case .dictionary(let fields):
            try nested {
                try output.append("{\n")
                for key in fields.keys.sorted() {
                    try output.append("\(indent)  ")
                    try output.appendQuoted(key)
                    try output.append(" => ")
                    try plain(fields[key]!, indent: indent + "  ")
                    try output.append("\n")
                }
                try output.append("\(indent)}")
            }
        case .data(let bytes):
            if let tree = Self.archiveTree(in: bytes, limits: limits, decodeLevels: decodeLevels) {
                try output.append(Self.indentingLines(of: tree, by: indent))
            } else {
                try scalar(value)
            }
        default:
            try scalar(value)
        }
    }

    /// An array, one numbered element a line, each drawn by `element`.
    private func array(_ items: [PropertyListValue], indent: String,
                       element: (PropertyListValue, String) throws -> Void) throws {
        try nested {
            try output.append("[\n")
            for (position, item) in items.enumerated() {
                try output.append("\(indent)  \(position) => ")
                try element(item, indent + "  ")
                try output.append("\n")
            }
            try output.append("\(indent)]")
        }
    }

    private func scalar(_ value: PropertyListValue) throws {
        switch value {
        case .string(let text): try output.appendQuoted(text)
        case .integer(let number): try output.append(String(number))
        case .unsignedInteger(let number): try output.append(String(number))
        case .real(let number): try output.append(String(number))
        case .boolean(let flag): try output.append(flag ? "true" : "false")
        case .date(let date): try output.append(PropertyListValue.describe(date))
        case .data(let bytes): try output.append(Self.dataSummary(bytes))
        case .uid(let uid): try output.append("UID(\(uid))")
        case .array, .dictionary: break
        }
    }

    /// Every line feed, even one inside "\r\n" (a class name may hold one), followed by
    /// `indent`: a nested tree's lines stay under their key.
    private static func indentingLines(of text: String, by indent: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            out.unicodeScalars.append(scalar)
            if scalar == "\n" { out += indent }
        }
        return out
    }

    private static func dataSummary(_ bytes: Data) -> String {
        let shown = bytes.prefix(32).map { cFormat("%02x", $0) }.joined()
        return "<\(bytes.count) bytes \(shown)\(bytes.count > 32 ? "…" : "")>"
    }

    // MARK: Keyed archives

    /// Renders a value found in an archive: a UID is followed, anything else is a scalar or a
    /// plain container written inline.
    private func archived(_ value: PropertyListValue, indent: String) throws {
        switch value {
        case .uid(let uid): try object(at: Int(uid), indent: indent)
        case .array(let items):
            try array(items, indent: indent, element: archived)
        case .dictionary:
            try plain(value, indent: indent)
        default:
            try scalar(value)
        }
    }

    private func object(at index: Int, indent: String) throws {
        guard let contents, index != 0 else { try output.append("nil"); return }
        let entry = contents.objects[index]
        guard let className = contents.classNames[index], case .dictionary(let fields) = entry else {
            // `ArchiveContents` lets no bare container through as an object; were one to come,
            // it shows as what it is, never as nothing.
            switch entry {
            case .array, .dictionary: try plain(entry, indent: indent)
            default: try scalar(entry)
            }
            return
        }
        let shownName = MessageText.excerpt(className)
        if Self.leafClasses.contains(className) {
            try leaf(shownName, fields)
            return
        }
        guard expanded.insert(index).inserted else {
            try output.append("<see #\(index) \(shownName)>")
            return
        }
        try output.append("\(shownName) #\(index) ")
        if Self.arrayClasses.contains(className), let items = Self.members(fields) {
            try archived(.array(items), indent: indent)
        } else if Self.dictionaryClasses.contains(className),
                  case .array(let keys)? = fields["NS.keys"], case .array(let values)? = fields["NS.objects"] {
            try nested {
                try output.append("{\n")
                for (key, value) in zip(keys, values) {
                    try output.append("\(indent)  ")
                    try archived(key, indent: indent + "  ")
                    try output.append(" => ")
                    try archived(value, indent: indent + "  ")
                    try output.append("\n")
                }
                try output.append("\(indent)}")
            }
        } else {
            try nested {
                try output.append("{\n")
                for key in fields.keys.sorted() where key != ArchiveFormat.classKey {
                    try output.append("\(indent)  ")
                    try output.appendQuoted(key)
                    try output.append(" => ")
                    try archived(fields[key]!, indent: indent + "  ")
                    try output.append("\n")
                }
                try output.append("\(indent)}")
            }
        }
    }

    /// An array or set's members: `NS.objects`, or the `NS.object.0`, `NS.object.1`, … keys
    /// Foundation writes for an ordered set.
    private static func members(_ fields: [String: PropertyListValue]) -> [PropertyListValue]? {
        if case .array(let items)? = fields["NS.objects"] { return items }
        var items: [PropertyListValue] = []
        while let item = fields["NS.object.\(items.count)"] { items.append(item) }
        return items.count == fields.keys.filter({ $0.hasPrefix("NS.object.") }).count ? items : nil
    }

    /// A string, data or date object, mutable or not. Its payload is inline as Apple writes it,
    /// or one reference away as some other archivers (bpylist2) write it; a string may also come
    /// as UTF-8 bytes (`NS.bytes`).
    private func leaf(_ className: String, _ fields: [String: PropertyListValue]) throws {
        var payload = fields["NS.string"] ?? fields["NS.data"] ?? fields["NS.time"] ?? fields["NS.bytes"]
        if case .uid(let uid)? = payload, let contents, uid != 0, Int(uid) < contents.objects.count {
            payload = contents.objects[Int(uid)]
        }
        switch payload {
        case .string(let text)?: try output.appendQuoted(text)
        case .data(let bytes)? where fields["NS.bytes"] != nil && fields["NS.data"] == nil:
            if let text = String(validating: bytes, as: UTF8.self) { try output.appendQuoted(text) } else {
                try output.append(Self.dataSummary(bytes))
            }
        case .data(let bytes)?: try output.append(Self.dataSummary(bytes))
        case .real(let seconds)?: try output.append(PropertyListValue.describe(Date(timeIntervalSinceReferenceDate: seconds)))
        case .integer(let seconds)?:
            try output.append(PropertyListValue.describe(Date(timeIntervalSinceReferenceDate: Double(seconds))))
        default: try output.append("\(className) (malformed)")
        }
    }

    private func nested(_ body: () throws -> Void) throws {
        guard depth < ArchiveFormat.maximumDepth else {
            throw output.stop("nested deeper than \(ArchiveFormat.maximumDepth) levels")
        }
        depth += 1
        defer { depth -= 1 }
        try body()
    }
}
