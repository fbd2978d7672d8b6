import Foundation
import Testing
import PropertyList

// Converting in place rewrites the file itself: through a symbolic link, the file it points to;
// with the mode and owner it had.

private let value = PropertyListValue.dictionary(["kept": .boolean(true)])

private func isXML(_ path: String) throws -> Bool {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard data.starts(with: Data("<?xml".utf8)) else { return false }
    return try PropertyListReader.read(data).value == value
}

@Test func convertingThroughALinkRewritesItsTargetAndKeepsTheLink() throws {
    try withDirectory { directory in
        let folder = directory.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("target.plist").path
        try PropertyListSerializer.data(from: value, format: .binary).write(to: URL(fileURLWithPath: target))
        // A relative link to a relative link: each is resolved from its own folder.
        let first = folder.appendingPathComponent("first.plist").path
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: "target.plist")
        let second = directory.appendingPathComponent("second.plist").path
        try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: "real/first.plist")

        let run = try wonderland("convert", "--format", "xml", second)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(fileType(second) == S_IFLNK)
        #expect(fileType(first) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: second) == "real/first.plist")
        #expect(fileType(target) == S_IFREG)
        #expect(try isXML(target))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["first.plist", "target.plist"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["real", "second.plist"])
    }
}

@Test func convertingInPlaceKeepsTheMode() throws {
    try withDirectory { directory in
        for mode: mode_t in [0o600, 0o640, 0o444] {
            let file = directory.appendingPathComponent("mode-\(String(mode, radix: 8)).plist").path
            try PropertyListSerializer.data(from: value, format: .binary).write(to: URL(fileURLWithPath: file))
            try #require(chmod(file, mode) == 0)
            let run = try wonderland("convert", "--format", "xml", file)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(attributes(file)?.mode == mode)
            #expect(try isXML(file))
        }
    }
}

/// Root converting a user's file leaves it theirs.
@Test(.enabled(if: getuid() == 0, "changing a file's owner needs root"))
func convertingAnotherUsersFileKeepsItsOwner() throws {
    try withDirectory { directory in
        let file = directory.appendingPathComponent("theirs.plist").path
        try PropertyListSerializer.data(from: value, format: .binary).write(to: URL(fileURLWithPath: file))
        try #require(chown(file, 65534, 65534) == 0 && chmod(file, 0o640) == 0)
        let run = try wonderland("convert", "--format", "xml", file)
        #expect(run.status == 0, "\(run.stderr)")
        let kept = try #require(attributes(file))
        #expect(kept.owner == 65534 && kept.group == 65534 && kept.mode == 0o640)
        #expect(try isXML(file))
    }
}

/// Someone who may write a file but not give it away (not root) still converts it: the new file
/// is theirs, with the old mode.
@Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
               "becoming another user needs root and setpriv"))
func aUserWhoCannotKeepTheOwnerStillConverts() throws {
    // Under /tmp itself: the test's own temporary folder may be one nobody cannot enter.
    let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("plist-cmd-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
        try #require(chmod(directory.path, 0o777) == 0)
        let file = directory.appendingPathComponent("shared.plist").path
        try PropertyListSerializer.data(from: value, format: .binary).write(to: URL(fileURLWithPath: file))
        try #require(chmod(file, 0o666) == 0)
        let run = try run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                          ["--reuid=65534", "--regid=65534", "--clear-groups", try wonderlandBinary().path,
                           "plist", "convert", "--format", "xml", file])
        #expect(run.status == 0, "\(run.stderr)")
        let kept = try #require(attributes(file))
        #expect(kept.owner == 65534 && kept.mode == 0o666)
        #expect(try isXML(file))
    }
}
