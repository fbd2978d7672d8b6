// Book reader benchmarks:
//   (a) open a 10 MB text at a saved offset near its end and draw the first frame into a
//       200×60 headless terminal, in-process (the whole-process goal is bench-book-first-frame's),
//       with and without the loader's work;
//   the whole-process wrap against `fold -s -w 78` is Benchmarks/bench-wrap's.
// Usage: bench-book [RUNS] [FILE]   (FILE: where the generated text is written)
import BookFront
import Defaults
import Foundation
import PropertyList
import Screens
import Terminal

let arguments = CommandLine.arguments
let runs = arguments.count > 1 ? max(3, Int(arguments[1]) ?? 31) : 31
let path = arguments.count > 2 ? arguments[2] : NSTemporaryDirectory() + "wl-bench-book-\(getpid()).txt"

/// A 10 MB book: hard-wrapped paragraphs (CRLF, about 66 columns) of made-up prose with
/// some accented words, dashes, CJK and an emoji, and a chapter heading every 200 paragraphs.
func generateBook(bytes target: Int) -> String {
    let words = ["the", "tide", "clock", "kept", "its", "two", "faces", "apart", "while", "gulls", "argued",
                 "about", "punctuality", "and", "tortoises", "ate", "timetables", "café", "naïve", "—", "pier",
                 "herring", "key", "lighthouse", "rowing", "boat", "潮の時計", "灯台", "🐢", "water", "seven", "o'clock"]
    var state: UInt64 = 0x9E3779B97F4A7C15
    func next() -> Int {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return Int(state % UInt64(words.count))
    }
    var text = "", paragraph = 0
    text.reserveCapacity(target + 1000)
    while text.utf8.count < target {
        if paragraph % 200 == 0 { text += "CHAPTER \(paragraph / 200 + 1)\r\n\r\n" }
        var line = ""
        for _ in 0..<(60 + next() * 3) {
            let word = words[next()]
            if line.utf8.count + word.utf8.count + 1 > 66 { text += line + "\r\n"; line = word } else { line += line.isEmpty ? word : " " + word }
        }
        text += line + ".\r\n\r\n"
        paragraph += 1
    }
    return text
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func summary(_ samples: [Double]) -> (median: Double, p95: Double) {
    let sorted = samples.sorted()
    return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)])
}

func format(_ value: Double) -> String { String(format: "%.2f", value) }

let clock = ContinuousClock()
try Data(generateBook(bytes: 10 * 1024 * 1024).utf8).write(to: URL(fileURLWithPath: path))
// A file named on the command line is left for the caller (scripts/bench-book times fold on it).
defer { if arguments.count <= 2 { try? FileManager.default.removeItem(atPath: path) } }
let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
let loaded = try BookLoader.load(path: path)
let savedOffset = size - 20_000

/// One launch of the reader: the store already holds the saved offset for this book.
func firstFrame(document: BookDocument?) throws -> (ms: Double, top: String) {
    let store = InMemoryPreferenceStore()
    store.set(.dictionary([loaded.id: .integer(Int64(savedOffset))]), forKey: "WLReadingPositions")
    let terminal = HeadlessTerminal(size: Size(columns: 200, rows: 60))
    let start = clock.now
    let environment = ReaderEnvironment(store: store, dataFolderPath: "/nonexistent", bookPath: path,
                                        load: { document == nil ? try BookLoader.load(path: $0) : document! }, wake: {})
    let reader = ReaderScreen(environment: environment)
    let app = Application(terminal: terminal, root: reader)
    app.launch()
    let elapsed = milliseconds(clock.now - start)
    reader.counter.cancel()
    return (elapsed, terminal.lines[1])
}

var withLoad: [Double] = [], frameOnly: [Double] = [], loadOnly: [Double] = []
var top = ""
// BENCH_BOOK_WRAP_ONLY=N: only N wraps of the whole text, for a profiler.
if let only = ProcessInfo.processInfo.environment["BENCH_BOOK_WRAP_ONLY"].flatMap(Int.init) {
    for _ in 0..<only { _ = LineCount.count(text: loaded.text, width: 78) }
    exit(0)
}
for run in 0..<(runs + 1) {
    let a = try firstFrame(document: nil)
    let b = try firstFrame(document: loaded)
    let loadStart = clock.now
    _ = try BookLoader.load(path: path)
    let loadTime = milliseconds(clock.now - loadStart)
    if run > 0 { withLoad.append(a.ms); frameOnly.append(b.ms); loadOnly.append(loadTime) }  // the first run warms up
    top = b.top
}

let a1 = summary(withLoad), a2 = summary(frameOnly), l1 = summary(loadOnly)
print("""
file: \(size) bytes, saved offset \(savedOffset), runs \(runs)
top line of the first frame: \(top.trimmingCharacters(in: .whitespaces))
(a) open at the saved offset + first frame, 200x60, with BookLoader.load: median \(format(a1.median)) ms, p95 \(format(a1.p95)) ms
(a) first frame only (document already loaded):               median \(format(a2.median)) ms, p95 \(format(a2.p95)) ms
(a) BookLoader.load alone (map + content hash):               median \(format(l1.median)) ms, p95 \(format(l1.p95)) ms
load average at the end: \((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?")
""")
