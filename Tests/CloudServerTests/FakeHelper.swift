import CloudServer
import Foundation

/// A stand-in for `wonderland-sync-server`: a python3 script with `read()` (the app's next
/// request, as a dictionary; exits when stdin ends), `send(value)` (a well-formed frame) and
/// `raw(bytes)` (anything at all), followed by the test's own lines.
final class FakeHelper {
    let folder: URL
    let path: String

    init(_ body: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-fake-helper-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("wonderland-sync-server").path
        let script = """
            #!/usr/bin/env python3
            import json, os, struct, sys, time, plistlib
            FOLDER = \(String(reflecting: folder.path))
            def read():
                head = sys.stdin.buffer.read(4)
                if len(head) < 4:
                    sys.exit(0)
                (length,) = struct.unpack(">I", head)
                return plistlib.loads(sys.stdin.buffer.read(length))
            def raw(data):
                sys.stdout.buffer.write(data)
                sys.stdout.buffer.flush()
            def send(value):
                body = plistlib.dumps(value, fmt=plistlib.FMT_BINARY)
                raw(struct.pack(">I", len(body)) + body)
            def ready():
                read()
                send({"reply": "ready", "protocol": \(SyncHelperRequest.protocolVersion)})

            """ + body + "\n"
        // Closed on exec: a program another test starts meanwhile must not hold the script open
        // for writing, or running it fails with "Text file busy".
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard file >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(file) }
        let bytes = Array(script.utf8)
        guard write(file, bytes, bytes.count) == bytes.count else { throw CocoaError(.fileWriteUnknown) }
    }

    /// What the script wrote into its folder under `name`.
    func written(_ name: String) -> String? {
        try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}
