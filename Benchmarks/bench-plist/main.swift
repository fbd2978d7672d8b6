import Foundation
import PropertyList

// Encodes and decodes a ~1 MB mixed property list with ours and with Foundation's
// PropertyListSerialization, both formats, and prints median times and speed-ups as a
// Markdown table. Run: swift run -c release --scratch-path .build-plist bench-plist

/// Deterministic content so every run measures the same document.
struct Generator {
    var state: UInt64 = 0x5EED
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

let words = ["rabbit", "watch", "queen", "hatter", "tea", "croquet", "cheshire", "looking-glass",
             "caucus", "dormouse", "Ça", "naïve", "Grüße", "ウサギ", "兔子", "🐇", "時計", "ふしぎ"]

func sentence(_ g: inout Generator, _ count: Int) -> String {
    (0..<count).map { _ in words[g.below(words.count)] }.joined(separator: " ")
}

func record(_ i: Int, _ g: inout Generator) -> PropertyListValue {
    .dictionary([
        "id": .integer(Int64(i)),
        "name": .string("record-\(i)"),
        "title": .string(sentence(&g, 4)),
        "score": .real(Double(g.below(1_000_000)) / 7.0),
        "active": .boolean(g.below(2) == 0),
        "created": .date(Date(timeIntervalSinceReferenceDate: Double(g.below(800_000_000)))),
        "blob": .data(Data((0..<48).map { _ in UInt8(truncatingIfNeeded: g.next()) })),
        "tags": .array((0..<3).map { _ in .string(words[g.below(words.count)]) }),
        "position": .dictionary([
            "x": .integer(Int64(g.below(100_000)) - 50_000),
            "y": .real(Double(g.below(1 << 20)) * 0.001),
            "history": .array((0..<4).map { _ in .integer(Int64(g.next() >> 20)) }),
        ]),
    ])
}

func foundationObject(_ value: PropertyListValue) -> Any {
    switch value {
    case .string(let s): NSString(string: s)
    case .integer(let i): NSNumber(value: i)
    case .unsignedInteger(let u): NSNumber(value: u)
    case .real(let r): NSNumber(value: r)
    case .boolean(let b): b
    case .date(let d): d
    case .data(let d): d
    case .array(let a): NSArray(array: a.map(foundationObject))
    case .dictionary(let d):
        NSDictionary(objects: Array(d.values.map(foundationObject)), forKeys: d.keys.map { NSString(string: $0) })
    case .uid: preconditionFailure("the benchmark document has no UIDs")
    }
}

/// Median wall time in milliseconds over `iterations` runs, after one warm-up run.
func median(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()
    var times: [Double] = []
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return times.sorted()[times.count / 2]
}

var generator = Generator()
let document = PropertyListValue.dictionary([
    "records": .array((0..<1_150).map { record($0, &generator) }),
    "title": .string("Wonderland benchmark"),
])
let foundationDocument = foundationObject(document)
let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 21

print("| format | size | operation | ours (ms) | Foundation (ms) | Foundation / ours |")
print("| --- | ---: | --- | ---: | ---: | ---: |")
for (format, foundationFormat) in [(PropertyListFormat.xml, PropertyListSerialization.PropertyListFormat.xml),
                                   (.binary, .binary)] {
    let ours = try PropertyListSerializer.data(from: document, format: format)
    let theirs = try PropertyListSerialization.data(fromPropertyList: foundationDocument, format: foundationFormat, options: 0)
    // Guard against timing a broken path: both readers must accept our output intact.
    let reread = try PropertyListReader.value(from: ours)
    precondition(reread == document, "our round trip changed the document")
    precondition((try? PropertyListSerialization.propertyList(from: ours, options: [], format: nil)) != nil)
    // BENCH_PLIST_OUT=FOLDER: leave our bytes there, for scripts/bench-plist-archive to time Python's plistlib on them.
    if let folder = ProcessInfo.processInfo.environment["BENCH_PLIST_OUT"] {
        try ours.write(to: URL(fileURLWithPath: folder).appendingPathComponent(format == .xml ? "document.xml.plist" : "document.binary.plist"))
    }

    let encodeOurs = try median(iterations) { _ = try PropertyListSerializer.data(from: document, format: format) }
    let encodeTheirs = try median(iterations) {
        _ = try PropertyListSerialization.data(fromPropertyList: foundationDocument, format: foundationFormat, options: 0)
    }
    let decodeOurs = try median(iterations) { _ = try PropertyListReader.value(from: ours) }
    let decodeTheirs = try median(iterations) {
        _ = try PropertyListSerialization.propertyList(from: theirs, options: [], format: nil)
    }
    let name = format == .xml ? "XML" : "binary"
    let size = "\(ours.count / 1024) KiB"
    for (operation, a, b) in [("encode", encodeOurs, encodeTheirs), ("decode", decodeOurs, decodeTheirs)] {
        print("| \(name) | \(size) | \(operation) | \(String(format: "%.1f", a)) | \(String(format: "%.1f", b)) | \(String(format: "%.2f×", b / a)) |")
    }
}
