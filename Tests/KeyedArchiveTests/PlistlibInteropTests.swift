import Foundation
import TestPrerequisites
import Testing
import KeyedArchive
import PropertyList

/// Loads `data` with python3's plistlib and checks it is a keyed archive whose every UID, in
/// `$top` and in `$objects`, points inside `$objects`. Returns python's one-line verdict.
private func plistlibVerdict(_ data: Data) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("ka-\(UUID().uuidString).plist")
    try data.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let script = """
    import plistlib, sys
    archive = plistlib.loads(open(sys.argv[1], "rb").read())
    assert archive["$archiver"] == "NSKeyedArchiver" and archive["$version"] == 100000
    objects = archive["$objects"]
    assert objects[0] == "$null"
    count = 0
    def walk(value):
        global count
        if isinstance(value, plistlib.UID):
            assert value.data < len(objects), f"UID {value.data} out of range"
            count += 1
        elif isinstance(value, dict):
            for item in value.values(): walk(item)
        elif isinstance(value, list):
            for item in value: walk(item)
    walk(archive["$top"])
    walk(objects)
    print(f"OK {len(objects)} objects {count} uids")
    """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, file.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
}

@Test(.requires(.python3), arguments: [PropertyListFormat.binary, .xml])
func plistlibReadsOurArchiveAndEveryUIDResolves(format: PropertyListFormat) throws {
    let data = try KeyedArchiver.archivedData(withRootObject: sampleTree(), format: format)
    let verdict = try plistlibVerdict(data)
    #expect(verdict.hasPrefix("OK "), "\(verdict)")
}

@Test(.requires(.python3)) func plistlibReadsOurPlainValueArchive() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: ["k": [Date(timeIntervalSinceReferenceDate: 0)]])
    #expect(try plistlibVerdict(data) == "OK 8 objects 7 uids")
}
