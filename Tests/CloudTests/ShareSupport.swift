import Cloud
import Defaults
import Foundation
import PropertyList

/// A device of a heavy reader: its defaults hold many reading places, stamped as the reader
/// does, and its mirror keeps a bounded share of them in the shared in-memory cloud.
final class ReaderDevice {
    let defaults: InMemoryPreferenceStore
    let mirror: PreferenceMirror
    private(set) var backend: InMemoryBackend?

    static let share = EntryShare(maximumEntries: 200, maximumBytes: 256 * 1_024)
    static let rules: [SyncRule] = [
        .wholeKey("HPLocation", enabledBy: "HPSyncLocations", newestWins: true),
        .perEntry("WLReadingPositions", cloudPrefix: "WLReadingPosition.", enabledBy: "WLSyncReadingPosition", newestWins: true, share: share),
    ]
    static let syncOn: [String: PropertyListValue] = ["HPSyncLocations": .boolean(true), "WLSyncReadingPosition": .boolean(true)]

    init(_ name: String, cloud: InMemoryCloud, books: Int = 0, limits: KeyValueStoreLimits = .apple, rules: [SyncRule] = ReaderDevice.rules) {
        var values = Self.syncOn
        if books > 0 { values["WLReadingPositions"] = .dictionary(Self.places(books)) }
        defaults = InMemoryPreferenceStore(values: values)
        var box: (() -> UbiquitousKeyValueStore)?
        mirror = PreferenceMirror(defaults: defaults, rules: rules, startsWorker: false) { box!() }
        box = { [unowned self] in
            let backend = cloud.backend()
            self.backend = backend
            return UbiquitousKeyValueStore(.init(backend: backend, device: DeviceIdentifier(name)!, limits: limits))
        }
        mirror.activate()
    }

    /// One pass, then the news delivered, as the worker and the app's wake-up would.
    func sync() {
        mirror.store?.synchronize()
        mirror.processExternalChanges()
    }

    /// Book `index` read at second `index`: the higher the index, the more recent.
    static func book(_ index: Int) -> String { String(format: "%040x", index) }
    static func place(offset: Int, time: Double, device: String = "reader") -> PropertyListValue {
        .dictionary(["offset": .integer(Int64(offset)), "modified": .real(time), "device": .string(device)])
    }
    static func places(_ count: Int) -> [String: PropertyListValue] {
        var all: [String: PropertyListValue] = [:]
        for index in 0 ..< count { all[book(index)] = place(offset: index * 10, time: 1_000 + Double(index)) }
        return all
    }

    var positions: [String: PropertyListValue] {
        if case .dictionary(let all)? = defaults.object(forKey: "WLReadingPositions") { return all }
        return [:]
    }

    func read(_ book: String, to offset: Int, at time: Double) {
        var all = positions
        all[book] = Self.place(offset: offset, time: time)
        defaults.set(.dictionary(all), forKey: "WLReadingPositions")
    }

    func setPin(_ title: String, at time: Double) {
        defaults.set(.dictionary(["lat": .real(48.85), "long": .real(2.35), "title": .string(title),
                                  "modified": .real(time), "device": .string("reader")]), forKey: "HPLocation")
    }

    /// The books whose place is in the store.
    var syncedBooks: Set<String> {
        Set((mirror.store?.dictionaryRepresentation.keys ?? [:].keys).compactMap { key in
            key.hasPrefix("WLReadingPosition.") ? String(key.dropFirst("WLReadingPosition.".count)) : nil
        })
    }
}
