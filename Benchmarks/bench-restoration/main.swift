import BookFront
import FileSafety
import Foundation
import PropertyList
import Restoration
import Screens
import Terminal
import WonderlandApp

// Saving the app's whole screen tree: RootScreen.make() taken deep (Characters tab, Cheshire
// Cat's notes pushed with a long draft), preserved by the restoration engine and written by
// RestorationFiles.writeArchive (temporary file, fsync, rename, fsync of the folder), against
// two Foundation peers holding the same tree: PropertyListSerialization of plain dictionaries,
// and NSKeyedArchiver of an equivalent NSSecureCoding object tree. Peers are built beforehand
// (ours walks the live screens inside the timing, which is its job); each peer's bytes are
// written by the same atomic write, so the "save" columns differ only by the encoding.
// Prints a JSON object for scripts/bench-restoration; with BENCH_ARCHIVE_OUT=FOLDER it also
// leaves the archive it saved there, as restoration.archive.
// Run: swift run -c release bench-restoration [ITERATIONS]

let iterations = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 300 : 300
let draftParagraph = "Alice thought the Cat grinned more widely than ever, and wrote it down before it faded again; "
let draft = String(repeating: draftParagraph, count: 170)  // about 16 KB

// MARK: the deep tree

let root = RootScreen.make()
root.select(1)
guard let navigation = root.tabs[1] as? NavigationStack, let list = navigation.stack.first as? ListScreen else { fatalError("unexpected root screen shape") }
list.viewWillAppear()  // the list makes its rows when it shows
guard let cat = list.items.first(where: { $0.id == "cheshire-cat" }) else { fatalError("no Cheshire Cat in the list") }
list.select(id: cat.id)
list.onActivate?(cat)
guard let detail = navigation.topScreen as? CharacterDetailScreen else { fatalError("the character detail was not pushed") }
detail.beginEditing(draft: TextEditorState(text: draft, line: 0, column: draft.count))

let engine = RootScreen.restorationEngine()
let header = RestorationHeader(appVersion: "bench", timestamp: Date(), terminalColumns: 120, terminalRows: 40)
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-bench-restoration-\(getpid())")
defer { try? FileManager.default.removeItem(at: folder) }
let files = RestorationFiles(folder: folder)
let peerFile = folder.appendingPathComponent("peer.archive")

let sample = try engine.preserve(root: root, header: header)
let summary = try engine.describe(sample.data)
guard summary.nodes.contains(where: { $0.path.hasSuffix("CharacterDetail") }) else { fatalError("the detail screen was not preserved") }

// MARK: peers, built from what ours saved

func foundationValue(_ value: PropertyListValue) -> Any {
    switch value {
    case .string(let s): return s as NSString
    case .integer(let i): return NSNumber(value: i)
    case .unsignedInteger(let u): return NSNumber(value: u)
    case .real(let d): return NSNumber(value: d)
    case .boolean(let b): return NSNumber(value: b)
    case .date(let d): return d as NSDate
    case .data(let d): return d as NSData
    case .uid(let u): return NSNumber(value: u)
    case .array(let a): return a.map(foundationValue) as NSArray
    case .dictionary(let d): return d.mapValues(foundationValue) as NSDictionary
    }
}

/// The saved nodes as a tree again (describe lists them flat by path).
struct PlainNode {
    var identifier: String
    var className: String?
    var values: [(String, PropertyListValue)]
    var children: [PlainNode]
}

func tree(_ nodes: ArraySlice<RestorationEngine.Summary.Node>, under prefix: String) -> [PlainNode] {
    nodes.filter { node in
        let rest = prefix.isEmpty ? node.path : String(node.path.dropFirst(prefix.count + 1))
        return (prefix.isEmpty || node.path.hasPrefix(prefix + "/")) && !rest.contains("/")
    }.map { node in
        PlainNode(identifier: String(node.path.split(separator: "/").last!), className: node.restorationClassName,
                  values: node.values.map { ($0.key, $0.value) }, children: tree(nodes, under: node.path))
    }
}

let plainRoot = tree(summary.nodes[...], under: "")[0]

func dictionary(_ node: PlainNode) -> NSDictionary {
    let result = NSMutableDictionary()
    result["identifier"] = node.identifier as NSString
    if let className = node.className { result["restorationClass"] = className as NSString }
    let state = NSMutableDictionary()
    for (key, value) in node.values { state[key] = foundationValue(value) }
    result["state"] = state
    result["children"] = node.children.map(dictionary) as NSArray
    return result
}

let plistPeer: NSDictionary = [
    "formatVersion": 1, "appVersion": "bench", "timestamp": Date() as NSDate,
    "terminalColumns": 120, "terminalRows": 40, "root": dictionary(plainRoot), "modals": NSArray(),
]

final class FoundationNode: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    var identifier = ""
    var className: String?
    var values: [(String, Any)] = []
    var children: [FoundationNode] = []

    init(_ node: PlainNode) {
        identifier = node.identifier
        className = node.className
        values = node.values.map { ($0.0, foundationValue($0.1)) }
        children = node.children.map(FoundationNode.init)
    }

    func encode(with coder: NSCoder) {
        for (key, value) in values {
            if let number = value as? NSNumber { coder.encode(number.intValue, forKey: key) } else { coder.encode(value, forKey: key) }
        }
        coder.encode(identifier as NSString, forKey: "WLIdentifier")
        if let className { coder.encode(className as NSString, forKey: "WLRestorationClass") }
        coder.encode(children as NSArray, forKey: "WLChildren")
    }

    required init?(coder: NSCoder) { nil }
}

let objectPeer = FoundationNode(plainRoot)

@MainActor func archiveFoundation() throws -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: true)
    archiver.outputFormat = .binary
    archiver.encode(1, forKey: "WLFormatVersion")
    archiver.encode("bench" as NSString, forKey: "WLAppVersion")
    archiver.encode(Date() as NSDate, forKey: "WLTimestamp")
    archiver.encode(120, forKey: "WLTerminalColumns")
    archiver.encode(40, forKey: "WLTerminalRows")
    archiver.encode(objectPeer, forKey: "WLRoot")
    archiver.encode(NSArray(), forKey: "WLModals")
    archiver.finishEncoding()
    return archiver.encodedData
}

// MARK: timing

func measure(_ body: () throws -> Void) rethrows -> (median: Double, p95: Double) {
    for _ in 0..<5 { try body() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    samples.sort()
    return (samples[samples.count / 2], samples[min(samples.count - 1, Int(Double(samples.count) * 0.95))])
}

var sizes: [String: Int] = [:]
let oursEncode = try measure { _ = try engine.preserve(root: root, header: header) }
let oursSave = try measure {
    let preserved = try engine.preserve(root: root, header: header)
    try files.writeArchive(preserved.data)
}
sizes["ours"] = try Data(contentsOf: files.archive).count
let plistEncode = try measure { _ = try PropertyListSerialization.data(fromPropertyList: plistPeer, format: .binary, options: 0) }
let plistSave = try measure {
    try AtomicFile.write(try PropertyListSerialization.data(fromPropertyList: plistPeer, format: .binary, options: 0), to: peerFile)
}
sizes["plist"] = try Data(contentsOf: peerFile).count
let archiverEncode = try measure { _ = try archiveFoundation() }
let archiverSave = try measure { try AtomicFile.write(try archiveFoundation(), to: peerFile) }
sizes["archiver"] = try Data(contentsOf: peerFile).count

// The archive written reads back into a fresh app tree with the draft intact.
let check = RootScreen.make()
_ = try engine.restore(from: try Data(contentsOf: files.archive), root: check)
guard let restoredDetail = (check.tabs[1] as? NavigationStack)?.topScreen as? CharacterDetailScreen,
      restoredDetail.editor.state.text == draft else { fatalError("the saved archive did not restore the draft") }

// For scripts/bench-restoration's launch timing: the deep archive, where it asks for it.
if let out = ProcessInfo.processInfo.environment["BENCH_ARCHIVE_OUT"] {
    try RestorationFiles(folder: URL(fileURLWithPath: out)).writeArchive(try Data(contentsOf: files.archive))
}

func row(_ encode: (median: Double, p95: Double), _ save: (median: Double, p95: Double), _ bytes: Int) -> [String: Double] {
    ["encode_median_ms": encode.median, "encode_p95_ms": encode.p95, "save_median_ms": save.median, "save_p95_ms": save.p95, "bytes": Double(bytes)]
}
let result: [String: Any] = [
    "iterations": iterations,
    "screens": summary.nodes.count,
    "draft_bytes": draft.utf8.count,
    "ours": row(oursEncode, oursSave, sizes["ours"]!),
    "plist": row(plistEncode, plistSave, sizes["plist"]!),
    "archiver": row(archiverEncode, archiverSave, sizes["archiver"]!),
]
let json = try JSONSerialization.data(withJSONObject: result, options: [.prettyPrinted, .sortedKeys])
print(String(decoding: json, as: UTF8.self))
