import FoundationEssentials
import PropertyList

/// The bookkeeping of the collections' copies in the defaults file (`OlderReleaseCopy`): which
/// are due, when a save writes them, and the marks that tell this release's copy from an older
/// release's change.
///
/// Each copied entry has a mark beside it (`WLCopyMarks.<key>`: a hash of the entry as copied),
/// written in the same file write, so a look at the file tells exactly which entries this
/// release wrote — however far behind the database the copy is — and which another program
/// changed. An older release runs on this HOME after this one has quit, so copies are written
/// when the app quits or is suspended (`DefaultsStore.flush()`), at the first idle save after a
/// launch that found none, and otherwise at most every `interval` seconds: a note, a bookmark or
/// a page turn writes its row alone, as before the copies.
struct OlderReleaseCopies {
    static let marksPrefix = "WLCopyMarks."
    /// Seconds between copies written by the idle saves (a process killed loses at most this
    /// much of the copy, never of the collections).
    static let interval = 600.0

    private(set) var wholeDue: Set<String> = []
    private(set) var entriesDue: [String: Set<String>] = [:]
    private(set) var dueSince: Double?
    /// When copies were last written: a launch counts as one, the copy it found being as
    /// fresh as the last quit made it.
    var lastWritten: Double

    init(now: Double) { lastWritten = now }

    var isDue: Bool { !wholeDue.isEmpty || !entriesDue.isEmpty }

    mutating func scheduleWhole(_ key: String, now: Double) {
        wholeDue.insert(key)
        if dueSince == nil { dueSince = now }
    }

    mutating func schedule(_ names: Set<String>, of key: String, now: Double) {
        guard !names.isEmpty else { return }
        entriesDue[key, default: []].formUnion(names)
        if dueSince == nil { dueSince = now }
    }

    /// When an idle save should write what is due.
    func deadline(coalescingDelay: Double) -> Double? {
        dueSince.map { max($0 + coalescingDelay, lastWritten + Self.interval) }
    }

    /// What is due, no longer due.
    mutating func take() -> (whole: Set<String>, entries: [String: Set<String>]) {
        defer { wholeDue = []; entriesDue = [:]; dueSince = nil }
        return (wholeDue, entriesDue)
    }

    static func marksKey(_ key: String) -> String { marksPrefix + key }

    /// An entry's mark: a 64-bit FNV-1a hash of its binary property list after the database's
    /// salt, so a copy made from another database (a settings file from another machine) bears
    /// no mark this one knows, and moves in.
    static func mark(_ value: PropertyListValue, salt: UInt64) -> PropertyListValue {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let salted = withUnsafeBytes(of: salt.bigEndian) { Array($0) } + Array((try? BinaryPropertyListWriter.data(from: value)) ?? Data())
        for byte in salted {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return .integer(Int64(bitPattern: hash))
    }

    /// The entries of the file's copy another program changed or added: those without the
    /// mark this release wrote beside them.
    static func changedByOthers(_ entries: [String: PropertyListValue], marks: PropertyListValue?, salt: UInt64) -> [String: PropertyListValue] {
        guard case .dictionary(let known)? = marks else { return entries }
        return entries.filter { known[$0.key] != mark($0.value, salt: salt) }
    }

    /// The bytes of a copy, as the file would hold it.
    static func size(_ entries: [String: PropertyListValue]) -> Int {
        (try? BinaryPropertyListWriter.data(from: .dictionary(entries)).count) ?? 0
    }
}
