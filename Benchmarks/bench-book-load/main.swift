import Foundation
import BookFront

// Opens each book given and prints what the loader made of it: title, id, chapters, notes,
// the time to open it and the process's peak resident memory. Used by scripts/check-book (the
// real default book) and to measure opening big files.
//   bench-book-load [--repeat N] [--chapters] PATH...
var arguments = Array(CommandLine.arguments.dropFirst())
var repeats = 1
var listChapters = false
var paths: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--repeat": repeats = Int(arguments.isEmpty ? "1" : arguments.removeFirst()) ?? 1
    case "--chapters": listChapters = true
    default: paths.append(argument)
    }
}

func peakResidentMB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kilobytes / 1024
}

var failed = false
for path in paths {
    var best = Double.infinity
    var document: BookDocument?
    do {
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            document = try BookLoader.load(path: path)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
    } catch {
        print("error: \(error)")
        failed = true
        continue
    }
    guard let document else { continue }
    print("path: \(path)")
    print("title: \(document.title)")
    print("id: \(document.id)")
    print("format: \(document.format.rawValue), bytes: \(document.text.count), chapters: \(document.chapters.count), emphasis: \(document.emphasis.count)")
    if listChapters {
        for chapter in document.chapters { print("chapter: \(chapter.offset) \(chapter.title)") }
    }
    for note in document.notes { print("note: \(note)") }
    print(String(format: "open: %.2f ms (best of %d), peak resident: %.1f MB", best, repeats, peakResidentMB()))
}
exit(failed ? 1 : 0)
