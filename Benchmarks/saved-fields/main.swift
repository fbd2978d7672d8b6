import BookFront
import Defaults
import Foundation
import MapFront
import PropertyList
#if canImport(Glibc)
import Glibc
#endif

// Saves what the user saves, through the same owners the app uses, on a defaults file shared
// with other processes: the tool the multi-process tests spawn, and a benchmark of an "at once"
// save.
//
// The three worker modes take an optional START (Unix seconds): the store is opened (and the
// file read) first, then the worker waits until START, so every worker starts from the same file
// and their saves overlap.
//
//   saved-fields notes FILE WORKER COUNT       COUNT note saves on ten characters of its own
//                                              (`c<WORKER>-<n>`), each saved at once.
//   saved-fields bookmarks FILE WORKER COUNT   COUNT bookmarks added to one book every worker
//                                              shares (offset WORKER*100000+n), each saved at once.
//   saved-fields positions FILE WORKER COUNT   COUNT page turns in its own book (`book-<WORKER>`),
//                                              saved as the app saves them (coalesced), then quits.
//   saved-fields save-and-wait FILE KIND N     one "at once" save (KIND: pin, map-type, tracking,
//                                              note, bookmark-add, bookmark-delete) of value N,
//                                              prints "saved" and waits to be killed.
//   saved-fields bench FILE COUNT              COUNT note saves; prints the median and p90 time.
//   saved-fields dump FILE                     what is saved, read through the owners, a line each.

let arguments = Array(CommandLine.arguments.dropFirst())

func store(_ path: String) -> DefaultsStore {
    // As in the app: watching the file, coalescing what is not saved at once, the collections
    // in their database (beside the file here).
    DefaultsStore(fileURL: URL(fileURLWithPath: path), options: .init(collectionsPath: collectionsPath(besides: path)))
}

/// Beside the defaults file, unless SAVED_FIELDS_COLLECTIONS names the database (the app's,
/// when a test reads what the app saved).
func collectionsPath(besides path: String) -> String {
    if let named = ProcessInfo.processInfo.environment["SAVED_FIELDS_COLLECTIONS"], !named.isEmpty { return named }
    return URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("collections.sqlite").path
}

/// Sleeps until the shared start time, if one was given.
func waitForStart() {
    guard arguments.count == 5, let start = Double(arguments[4]) else { return }
    let delay = start - Date().timeIntervalSince1970
    if delay > 0 { usleep(useconds_t(min(delay, 10) * 1_000_000)) }
}

func notes(file: String, worker: Int, count: Int) throws {
    let store = store(file)
    let notes = CharacterNotes(store: store)
    waitForStart()
    for step in 0 ..< count {
        store.processExternalChanges()
        try notes.save("worker \(worker) edit \(step)", for: "c\(worker)-\(step % 10)")
    }
}

func bookmarks(file: String, worker: Int, count: Int) throws {
    let store = store(file)
    let storage = ReaderStorage(store: store)
    waitForStart()
    for step in 0 ..< count {
        store.processExternalChanges()
        let marks = try storage.bookmarks(forBook: "shared-book")
        try storage.setBookmarks(marks + [Bookmark(offset: worker * 100_000 + step, title: "w\(worker) #\(step)")], forBook: "shared-book")
    }
}

func positions(file: String, worker: Int, count: Int) throws {
    let store = store(file)
    let positions = ReadingPositions(store: store)
    waitForStart()
    for step in 0 ..< count {
        store.processExternalChanges()
        positions.move(to: step * 10, inBook: "book-\(worker)")
        store.flushIfDue()
    }
    try store.flush()  // what quitting does
}

func saveAndWait(file: String, kind: String, value: Int) throws {
    let store = store(file)
    switch kind {
    case "pin": try MapPin.save(MapPin(latitude: Double(value % 80), longitude: 2, title: "pin \(value)"), to: store)
    case "map-type": try MapPreferences.write(MapType(rawValue: value % 3) ?? .standard, to: store)
    case "tracking": try MapPreferences.write(TrackingMode(rawValue: value % 3) ?? .none, to: store)
    case "note": try CharacterNotes(store: store).save("note \(value)", for: "alice")
    case "bookmark-add":
        let storage = ReaderStorage(store: store)
        try storage.setBookmarks(try storage.bookmarks(forBook: "book") + [Bookmark(offset: value, title: "mark \(value)")], forBook: "book")
    case "bookmark-delete":
        let storage = ReaderStorage(store: store)
        try storage.setBookmarks(try storage.bookmarks(forBook: "book").filter { $0.offset != value }, forBook: "book")
    default: throw Usage()
    }
    var line = "saved\n"
    line.withUTF8 { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    while true { pause() }
}

func bench(file: String, count: Int) throws {
    let store = store(file)
    let notes = CharacterNotes(store: store)
    var times: [Double] = []
    for step in 0 ..< count {
        let start = DefaultsStore.monotonicNow()
        try notes.save("edit \(step)", for: "alice")
        times.append(DefaultsStore.monotonicNow() - start)
    }
    times.sort()
    let ms = { (value: Double) in String(format: "%.2f ms", value * 1000) }
    print("\(count) saves at once (set + flush: lock, re-read, merge, write, fsync, rename, folder fsync)")
    print("median \(ms(times[times.count / 2]))  p90 \(ms(times[times.count * 9 / 10]))  max \(ms(times.last ?? 0))")
}

func dump(file: String) throws {
    let store = DefaultsStore(fileURL: URL(fileURLWithPath: file), options: .init(watchesForChanges: false, collectionsPath: collectionsPath(besides: file)))
    var lines: [String] = []
    let notes = CharacterNotes(store: store)
    if case .dictionary(let all)? = store.object(forKey: CharacterNotes.storeKey) {
        for id in all.keys.sorted() {
            lines.append("note \(id) \(notes.note(for: id))")
            for other in notes.otherVersions(for: id) { lines.append("other-version \(id) \(other)") }
        }
    }
    let storage = ReaderStorage(store: store)
    if case .dictionary(let all)? = store.object(forKey: ReaderStorage.bookmarksKey) {
        for id in all.keys.sorted() { lines.append("bookmarks \(id) " + (try storage.bookmarks(forBook: id)).map { String($0.offset) }.joined(separator: ",")) }
    }
    if case .dictionary(let all)? = store.object(forKey: ReadingPositions.storeKey) {
        for id in all.keys.sorted() { lines.append("position \(id) \(storage.positions.position(forBook: id).map(String.init) ?? "unreadable")") }
    }
    if let pin = MapPin.load(from: store) { lines.append("pin \(pin.title)") }
    let preferences = MapPreferences(store: store)
    if store.object(forKey: MapDefaultsKey.mapType) != nil { lines.append("map-type \(preferences.mapType.rawValue)") }
    if store.object(forKey: MapDefaultsKey.followHeading) != nil { lines.append("tracking \(preferences.tracking.rawValue)") }
    print(lines.joined(separator: "\n"))
}

struct Usage: Error, CustomStringConvertible {
    var description: String { "usage: saved-fields notes|bookmarks|positions FILE WORKER COUNT | save-and-wait FILE KIND N | bench FILE COUNT | dump FILE" }
}

do {
    switch (arguments.first, arguments.count) {
    case ("notes"?, 4), ("notes"?, 5): try notes(file: arguments[1], worker: Int(arguments[2]) ?? 0, count: Int(arguments[3]) ?? 0)
    case ("bookmarks"?, 4), ("bookmarks"?, 5): try bookmarks(file: arguments[1], worker: Int(arguments[2]) ?? 0, count: Int(arguments[3]) ?? 0)
    case ("positions"?, 4), ("positions"?, 5): try positions(file: arguments[1], worker: Int(arguments[2]) ?? 0, count: Int(arguments[3]) ?? 0)
    case ("save-and-wait"?, 4): try saveAndWait(file: arguments[1], kind: arguments[2], value: Int(arguments[3]) ?? 0)
    case ("dump"?, 2): try dump(file: arguments[1])
    case ("bench"?, 3): try bench(file: arguments[1], count: Int(arguments[2]) ?? 100)
    default: throw Usage()
    }
} catch {
    FileHandle.standardError.write(Data("saved-fields: \(error)\n".utf8))
    exit(1)
}
