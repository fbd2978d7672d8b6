import Foundation
import Defaults
import PropertyList

/// A fresh folder per test standing in for $XDG_CONFIG_HOME, removed afterwards.
func withConfigHome<T>(_ body: (URL) throws -> T) rethrows -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

func defaultsFile(in configHome: URL) -> URL {
    DefaultsStore.standardFileURL(environment: ["XDG_CONFIG_HOME": configHome.path])
}

/// A store on the test's file; the clock is a variable the test moves by hand.
final class TestClock {
    var now: Double = 1000
}

func makeStore(
    _ configHome: URL, arguments: [String: PropertyListValue] = [:], clock: TestClock = TestClock(),
    watch: Bool = true, inotify: Bool = true
) -> DefaultsStore {
    DefaultsStore.standard(
        environment: ["XDG_CONFIG_HOME": configHome.path], argumentDomain: arguments,
        options: .init(watchesForChanges: watch, usesInotify: inotify, safetyPollInterval: 1e9, clock: { clock.now })
    )
}

func fileContents(_ url: URL) throws -> [String: PropertyListValue] {
    guard case .dictionary(let values) = try PropertyListReader.value(from: Data(contentsOf: url)) else { return [:] }
    return values
}

/// Records what change observers are told.
final class ChangeLog {
    var batches: [Set<String>] = []
    var token: PreferenceObservation?

    init(_ store: DefaultsStore) {
        token = store.addChangeObserver { [unowned self] keys in self.batches.append(keys) }
    }

    var all: Set<String> { batches.reduce(into: []) { $0.formUnion($1) } }
}

/// Writes the defaults file as another program (an older release) would: whole, in XML.
func writeDefaultsFile(_ values: [String: PropertyListValue], in configHome: URL) throws {
    try XMLPropertyListWriter.data(from: .dictionary(values)).write(to: defaultsFile(in: configHome))
}
