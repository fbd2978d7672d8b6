import FileSafety
import Foundation
import Testing

@Suite("Bounded file reads")
struct BoundedFileTests {
    let folder: URL
    let small = FileLimit(bytes: 1024, name: "a test file")

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-bounded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func failure(reading path: String, limit: FileLimit? = nil) -> BoundedFile.Failure? {
        do {
            _ = try BoundedFile.read(path: path, limit: limit ?? small)
            return nil
        } catch {
            return error
        }
    }

    @Test("a regular file within the limit is read whole, up to exactly the limit")
    func regularFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Data((0 ..< 1024).map { UInt8($0 % 251) })
        try bytes.write(to: URL(fileURLWithPath: path("exact")))
        #expect(try BoundedFile.read(path: path("exact"), limit: small) == bytes)
        try Data().write(to: URL(fileURLWithPath: path("empty")))
        #expect(try BoundedFile.read(path: path("empty"), limit: small) == Data())
        try (bytes + Data([1])).write(to: URL(fileURLWithPath: path("one-over")))
        #expect(failure(reading: path("one-over")) == .tooLarge(path: path("one-over"), size: 1025, limit: small))
    }

    @Test("a missing file, and a path through a file, say so")
    func missing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(failure(reading: path("nothing")) == .missing(path: path("nothing")))
        try Data("x".utf8).write(to: URL(fileURLWithPath: path("file")))
        #expect(failure(reading: path("file/child")) == .unreadable(path: path("file/child"), code: ENOTDIR))
        #expect(failure(reading: path("file/child"))?.predicate == "cannot be read: Not a directory")
    }

    @Test("a FIFO with no writer is refused at once, without blocking")
    func fifo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(path("fifo"), 0o600) == 0)
        let refused = failure(reading: path("fifo"))
        #expect(refused == .notRegularFile(path: path("fifo"), kind: .fifo))
        #expect(refused?.reason == "it is a FIFO (named pipe), not a regular file")
    }

    @Test("a symlink to /dev/zero is followed and refused as a device, nothing read")
    func deviceThroughSymlink() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(atPath: path("zero"), withDestinationPath: "/dev/zero")
        #expect(failure(reading: path("zero")) == .notRegularFile(path: path("zero"), kind: .characterDevice))
    }

    @Test("a folder and a socket are named for what they are")
    func folderAndSocket() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: false)
        #expect(failure(reading: path("sub")) == .notRegularFile(path: path("sub"), kind: .directory))

        let socketPath = path("sock")
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in socketPath.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0, "cannot bind a socket in \(folder.path)")
        #expect(failure(reading: socketPath) == .notRegularFile(path: socketPath, kind: .socket))
    }

    @Test("a 3 GB sparse file is refused by its size before a byte is read")
    func sparseGiant() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let descriptor = open(path("sparse"), O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(descriptor, 3 << 30) == 0)
        close(descriptor)
        let refused = failure(reading: path("sparse"), limit: .userPropertyList)
        #expect(refused == .tooLarge(path: path("sparse"), size: 3 << 30, limit: .userPropertyList))
        #expect(refused?.predicate == "is 3 GB, more than the 256 MB allowed for a property list")
    }

    @Test("reading an open stream stops one byte past the limit")
    func streamPastTheLimit() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let payload = [UInt8](repeating: 7, count: 2000)
        #expect(payload.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == 2000)
        close(ends[1])
        #expect(throws: BoundedFile.Failure.tooLarge(path: "stdin", size: nil, limit: small)) {
            try BoundedFile.readAll(descriptor: ends[0], path: "stdin", limit: small)
        }
        // What was left in the pipe was not read: at most the limit and one byte were taken.
        var rest = [UInt8](repeating: 0, count: 4096)
        #expect(rest.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) } == 2000 - 1025)
    }

    @Test("withRegularFile hands over the descriptor and the size it checked")
    func openedForTheCaller() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("hello world".utf8).write(to: URL(fileURLWithPath: path("text")))
        let head = try BoundedFile.withRegularFile(path: path("text"), limit: small) { descriptor, size in
            #expect(size == 11)
            return try BoundedFile.readPrefix(descriptor: descriptor, count: 5, path: path("text"))
        }
        #expect(head == Data("hello".utf8))
        #expect(throws: BoundedFile.Failure.notRegularFile(path: "/dev/null", kind: .characterDevice)) {
            try BoundedFile.withRegularFile(path: "/dev/null", limit: small) { _, _ in }
        }
    }

    @Test("sizes read as people say them, never rounding up to a limit", arguments: [
        (1, "1 byte"), (512, "512 bytes"), (1024, "1 KB"), (16 << 20, "16 MB"), (3 << 30, "3 GB"),
        ((16 << 20) + (1 << 19), "16.5 MB"), ((16 << 20) + 1, "16.0 MB"), (1536, "1.5 KB"),
    ] as [(Int64, String)])
    func byteCounts(_ bytes: Int64, _ text: String) {
        #expect(ByteCountText.describe(bytes) == text)
    }

    /// Whether the reader meets an empty pipe depends on which thread runs first; the write waits
    /// for the reader to start, and this is tried many times, so without the wait some try fails.
    @Test("a non-blocking descriptor is read to its end: a read that would block waits for the bytes")
    func nonBlockingDescriptor() throws {
        for _ in 0..<50 {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            let readEnd = ends[0]
            _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
            let result = ResultBox()
            Thread {
                result.started.signal()
                result.data = try? BoundedFile.readAll(descriptor: readEnd, path: "pipe", limit: FileLimit(bytes: 16, name: "a test pipe"))
                result.done.signal()
            }.start()
            result.started.wait()
            _ = "later".withCString { write(ends[1], $0, 5) }
            close(ends[1])
            result.done.wait()
            close(readEnd)
            #expect(result.data == Data("later".utf8))
        }
    }
}

private final class ResultBox: @unchecked Sendable {
    var data: Data?
    let started = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
}
