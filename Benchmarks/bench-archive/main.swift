import Foundation
import KeyedArchive
import PropertyList

// Encodes and decodes a tree of 1,000 screen-state records with our KeyedArchiver and with
// Foundation's NSKeyedArchiver (same fields, same shape, binary format), and prints the median
// of several runs of each. Run: swift run -c release --scratch-path .build-archive bench-archive

let recordCount = 1_000
let fanOut = 10
let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 15  // scripts/bench-plist-archive passes fewer for a quick check

final class Record: KeyedArchivable {
    static let archiveClassName = "ScreenRecord"
    var identifier = ""
    var title = ""
    var row = 0
    var column = 0
    var visible = false
    var selected = false
    var scroll = 0.0
    var zoom = 0.0
    var opened = Date(timeIntervalSinceReferenceDate: 0)
    var children: [Record] = []

    init() {}

    func encode(with archiver: KeyedArchiver) throws {
        try archiver.encode(identifier, forKey: "identifier")
        try archiver.encode(title, forKey: "title")
        archiver.encode(row, forKey: "row")
        archiver.encode(column, forKey: "column")
        archiver.encode(visible, forKey: "visible")
        archiver.encode(selected, forKey: "selected")
        archiver.encode(scroll, forKey: "scroll")
        archiver.encode(zoom, forKey: "zoom")
        try archiver.encode(opened, forKey: "opened")
        try archiver.encode(children, forKey: "children")
    }

    func decode(from unarchiver: KeyedUnarchiver) throws {
        identifier = try unarchiver.decodeObject(of: String.self, forKey: "identifier") ?? ""
        title = try unarchiver.decodeObject(of: String.self, forKey: "title") ?? ""
        row = try unarchiver.decodeInteger(forKey: "row")
        column = try unarchiver.decodeInteger(forKey: "column")
        visible = try unarchiver.decodeBool(forKey: "visible")
        selected = try unarchiver.decodeBool(forKey: "selected")
        scroll = try unarchiver.decodeDouble(forKey: "scroll")
        zoom = try unarchiver.decodeDouble(forKey: "zoom")
        opened = try unarchiver.decodeObject(of: Date.self, forKey: "opened") ?? opened
        children = try unarchiver.decodeObject(of: [Record].self, forKey: "children") ?? []
    }
}

final class FoundationRecord: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    var identifier = ""
    var title = ""
    var row = 0
    var column = 0
    var visible = false
    var selected = false
    var scroll = 0.0
    var zoom = 0.0
    var opened = Date(timeIntervalSinceReferenceDate: 0)
    var children: [FoundationRecord] = []

    override init() {}

    required init?(coder: NSCoder) {
        identifier = coder.decodeObject(of: NSString.self, forKey: "identifier") as String? ?? ""
        title = coder.decodeObject(of: NSString.self, forKey: "title") as String? ?? ""
        row = coder.decodeInteger(forKey: "row")
        column = coder.decodeInteger(forKey: "column")
        visible = coder.decodeBool(forKey: "visible")
        selected = coder.decodeBool(forKey: "selected")
        scroll = coder.decodeDouble(forKey: "scroll")
        zoom = coder.decodeDouble(forKey: "zoom")
        opened = coder.decodeObject(of: NSDate.self, forKey: "opened") as Date? ?? opened
        children = coder.decodeObject(of: [NSArray.self, FoundationRecord.self], forKey: "children") as? [FoundationRecord] ?? []
    }

    func encode(with coder: NSCoder) {
        coder.encode(identifier as NSString, forKey: "identifier")
        coder.encode(title as NSString, forKey: "title")
        coder.encode(row, forKey: "row")
        coder.encode(column, forKey: "column")
        coder.encode(visible, forKey: "visible")
        coder.encode(selected, forKey: "selected")
        coder.encode(scroll, forKey: "scroll")
        coder.encode(zoom, forKey: "zoom")
        coder.encode(opened as NSDate, forKey: "opened")
        coder.encode(children as NSArray, forKey: "children")
    }
}

/// Fills record `index` of the tree; children of record i are i*fanOut+1 … i*fanOut+fanOut.
func fill(_ index: Int, set: (Int, String, String, Int, Int, Bool, Bool, Double, Double, Date) -> Void) {
    set(index, "screen.\(index)", "Chapter \(index % 12): a title of moderate length", index % 80, index % 24,
        index % 3 != 0, index % 7 == 0, Double(index) * 1.5, 1 + Double(index % 5) / 10,
        Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index)))
}

func ourTree() -> Record {
    let records = (0..<recordCount).map { _ in Record() }
    for index in 0..<recordCount {
        fill(index) { i, id, title, row, column, visible, selected, scroll, zoom, opened in
            let r = records[i]
            (r.identifier, r.title, r.row, r.column) = (id, title, row, column)
            (r.visible, r.selected, r.scroll, r.zoom, r.opened) = (visible, selected, scroll, zoom, opened)
        }
        let first = index * fanOut + 1
        if first < recordCount { records[index].children = Array(records[first..<min(first + fanOut, recordCount)]) }
    }
    return records[0]
}

func foundationTree() -> FoundationRecord {
    let records = (0..<recordCount).map { _ in FoundationRecord() }
    for index in 0..<recordCount {
        fill(index) { i, id, title, row, column, visible, selected, scroll, zoom, opened in
            let r = records[i]
            (r.identifier, r.title, r.row, r.column) = (id, title, row, column)
            (r.visible, r.selected, r.scroll, r.zoom, r.opened) = (visible, selected, scroll, zoom, opened)
        }
        let first = index * fanOut + 1
        if first < recordCount { records[index].children = Array(records[first..<min(first + fanOut, recordCount)]) }
    }
    return records[0]
}

func count(_ record: Record) -> Int { 1 + record.children.reduce(0) { $0 + count($1) } }
func count(_ record: FoundationRecord) -> Int { 1 + record.children.reduce(0) { $0 + count($1) } }

/// Median wall-clock milliseconds of `iterations` runs, after one warm-up run.
func median(_ body: () throws -> Void) rethrows -> Double {
    try body()
    var samples: [Double] = []
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return samples.sorted()[iterations / 2]
}

let ours = ourTree()
let theirs = foundationTree()
precondition(count(ours) == recordCount && count(theirs) == recordCount)

var ourData = Data()
var foundationData = Data()
let ourEncode = try median { ourData = try KeyedArchiver.archivedData(withRootObject: ours) }
let foundationEncode = try median {
    foundationData = try NSKeyedArchiver.archivedData(withRootObject: theirs, requiringSecureCoding: true)
}
var decodedCount = 0
let ourDecode = try median {
    decodedCount = count(try KeyedUnarchiver.unarchivedObject(ofClass: Record.self, from: ourData))
}
precondition(decodedCount == recordCount)
let foundationDecode = try median {
    let root = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [FoundationRecord.self, NSArray.self], from: foundationData)
    decodedCount = count(root as! FoundationRecord)
}
precondition(decodedCount == recordCount)

func row(_ name: String, _ ours: Double, _ foundation: Double) -> String {
    "| \(name) | \(String(format: "%.2f", ours)) | \(String(format: "%.2f", foundation)) | \(String(format: "%.1f", foundation / ours))× |"
}
print("\(recordCount) records, fan-out \(fanOut), binary format, median of \(iterations) runs")
print("archive size: ours \(ourData.count) bytes, Foundation \(foundationData.count) bytes")
print("| operation | ours (ms) | Foundation (ms) | Foundation / ours |")
print("| --- | ---: | ---: | ---: |")
print(row("encode", ourEncode, foundationEncode))
print(row("decode", ourDecode, foundationDecode))
