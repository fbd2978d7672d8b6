import BookFront
import Foundation

// Where every character of Resources/Characters.plist appears in a book: the Characters tab's
// search (CharacterAppearances.find, all characters, every chapter), timed over ITERATIONS runs.
// Prints a JSON object with the median and p95 in ms and the counts per character, which
// scripts/bench-characters compares with a Python `re` peer doing the same search in the same
// run. A book the loader finds no chapters in is split at lines starting with "CHAPTER ".
// Run: swift run -c release bench-characters BOOK [ITERATIONS]

let arguments = CommandLine.arguments
guard arguments.count > 1 else {
    FileHandle.standardError.write(Data("usage: bench-characters BOOK [ITERATIONS]\n".utf8))
    exit(2)
}
let iterations = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 50) : 50
let catalog = try CharacterCatalog.embedded()
/// The loader's chapters, or the book split at lines starting with "CHAPTER " when it has none.
func withChapters(_ loaded: BookDocument) -> BookDocument {
    guard loaded.chapters.isEmpty else { return loaded }
    var chapters: [BookChapter] = []
    var lineStart = 0
    let bytes = [UInt8](loaded.text.bytes)
    for (index, byte) in bytes.enumerated() where byte == 0x0A || index == bytes.count - 1 {
        let line = String(decoding: bytes[lineStart...index], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("CHAPTER ") { chapters.append(BookChapter(title: line, offset: lineStart)) }
        lineStart = index + 1
    }
    return BookDocument(id: loaded.id, title: loaded.title, path: loaded.path, format: loaded.format, text: loaded.text, chapters: chapters)
}
let document = withChapters(try BookLoader.load(path: arguments[1]))

func searchAll() -> [String: [Int: Int]] {
    var all: [String: [Int: Int]] = [:]
    for character in catalog.characters { all[character.id] = CharacterAppearances.find(names: character.searchNames, in: document) }
    return all
}

var samples: [Double] = []
var result: [String: [Int: Int]] = [:]
for _ in 0..<iterations {
    let start = DispatchTime.now().uptimeNanoseconds
    result = searchAll()
    samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
samples.sort()
let counts = Dictionary(uniqueKeysWithValues: result.map { id, chapters in
    (id, (0..<document.chapters.count).map { chapters[$0] ?? 0 })
})
let output: [String: Any] = [
    "iterations": iterations,
    "bytes": document.text.count,
    "chapter_offsets": document.chapters.map(\.offset),
    "characters": catalog.characters.count,
    "median_ms": samples[samples.count / 2],
    "p95_ms": samples[min(samples.count - 1, Int(Double(samples.count) * 0.95))],
    "counts": counts,
]
print(String(decoding: try JSONSerialization.data(withJSONObject: output, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
