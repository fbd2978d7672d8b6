import Foundation
import Platform
import Testing

@Suite("File events")
struct FileEventsTests {
    /// Long enough for any machine; the kernel queues an event before the call that caused it
    /// returns, so a passing test never waits at all.
    static let patience = 60.0

    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-events-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func names(_ events: FileEvents) -> [String] {
        var names: [String] = []
        events.drain { names.append($0.name) }
        return names
    }

    @Test("a file created, then changed, in a watched folder is seen")
    func createdAndChanged() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = try #require(FileEvents())
        let watch = try #require(events.addWatch(folder.path, mask: UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MODIFY)))
        let wakes = WakePipe()
        #expect(!events.drain { _ in })

        let file = folder.appendingPathComponent("defaults.plist")
        try Data("one".utf8).write(to: file)
        #expect(wakes.wait(for: events.descriptor, timeout: Self.patience) == .ready)
        var seen: [FileEvents.Event] = []
        #expect(events.drain { seen.append($0) })
        #expect(seen.contains { $0.name == "defaults.plist" && $0.mask & UInt32(IN_CREATE) != 0 })
        #expect(seen.allSatisfy { $0.watch == watch && !$0.endsWatch && !$0.overflowed })

        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data("two".utf8))
        try handle.close()
        #expect(wakes.wait(for: events.descriptor, timeout: Self.patience) == .ready)
        #expect(Self.names(events).contains("defaults.plist"))
        #expect(Self.names(events).isEmpty)
    }

    @Test("a wait on the events ends with a wake when nothing changes")
    func wokenWhileWatching() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = try #require(FileEvents())
        _ = try #require(events.addWatch(folder.path, mask: UInt32(IN_CREATE)))
        let wakes = WakePipe()
        #expect(startThread(name: "waker") { wakes.wake() })
        #expect(wakes.wait(for: events.descriptor, timeout: nil) == .woken)
        #expect(wakes.drain())
        #expect(!events.drain { _ in })
    }

    @Test("a watched folder that goes ends its watch")
    func folderGone() throws {
        let folder = try Self.makeFolder()
        let events = try #require(FileEvents())
        let watch = try #require(events.addWatch(folder.path, mask: UInt32(IN_DELETE_SELF | IN_MOVE_SELF)))
        try FileManager.default.removeItem(at: folder)
        #expect(WakePipe().wait(for: events.descriptor, timeout: Self.patience) == .ready)
        var ended = false
        events.drain { if $0.watch == watch && $0.endsWatch { ended = true } }
        #expect(ended)
    }

    @Test("a folder that is not there, or not a folder's path, gets no watch")
    func noWatch() throws {
        let events = try #require(FileEvents())
        #expect(events.addWatch("/nonexistent/wl-\(UUID().uuidString)", mask: UInt32(IN_CREATE)) == nil)
        #expect(events.addWatch("", mask: UInt32(IN_CREATE)) == nil)
        #expect(events.addWatch("relative-\(UUID().uuidString)", mask: UInt32(IN_CREATE)) == nil)
    }

    @Test("a removed watch reports nothing more but its end")
    func removedWatch() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = try #require(FileEvents())
        let watch = try #require(events.addWatch(folder.path, mask: UInt32(IN_CREATE)))
        events.removeWatch(watch)
        try Data().write(to: folder.appendingPathComponent("after"))
        var seen: [FileEvents.Event] = []
        events.drain { seen.append($0) }
        #expect(seen.allSatisfy { $0.endsWatch && $0.name.isEmpty })
    }
}
