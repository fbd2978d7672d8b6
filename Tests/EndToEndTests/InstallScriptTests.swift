import Foundation
import Testing

/// `scripts/install` with the binaries of this build: what it puts under a prefix, that the
/// installed app runs and finds its helper there, and that `--uninstall` takes exactly that away.
@Suite("scripts/install", .whenEndToEndIsAskedFor)
struct InstallScriptTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let owned = [
        "bin/wonderland", "libexec/wonderland/wonderland-sync-server", "share/man/man1/wonderland.1",
        "share/bash-completion/completions/wonderland", "share/zsh/site-functions/_wonderland",
        "share/fish/vendor_completions.d/wonderland.fish",
    ]

    static func install(_ arguments: [String], home: URL) throws -> (status: Int32, output: String) {
        let binaries = URL(fileURLWithPath: try TmuxSession.locateBinary()).deletingLastPathComponent().path
        return try Subprocess.run(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home.path)", "LANG=C.UTF-8",
                                   repository.appendingPathComponent("scripts/install").path, "--bin-dir", binaries] + arguments)
    }

    static func files(under folder: URL) -> [String] {
        let walker = FileManager.default.enumerator(atPath: folder.path)
        var found: [String] = []
        while let path = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder), !isFolder.boolValue {
                found.append(path)
            }
        }
        return found.sorted()
    }

    @Test("installs each file in its place, the app runs from there and finds its helper, and uninstall removes only those")
    func installAndUninstall() throws {
        let home = try HomeFolder()
        let prefix = home.url.appendingPathComponent("opt/wl")
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("share/man/man1"), withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: prefix.appendingPathComponent("share/man/man1/other.1"))

        let installed = try Self.install(["--prefix", prefix.path], home: home.url)
        #expect(installed.status == 0, "\(installed.output)")
        let present = Self.files(under: prefix)
        for file in Self.owned { #expect(present.contains(file), "\(file) not installed: \(present)") }
        #expect(installed.output.contains("is not on PATH"), "says how to reach the app: \(installed.output)")
        #expect(access(prefix.appendingPathComponent("bin/wonderland").path, X_OK) == 0)

        let version = try Subprocess.run([prefix.appendingPathComponent("bin/wonderland").path, "--version"])
        #expect(version.status == 0)
        #expect(version.output.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(version.output)")
        // The helper is found in libexec: the app names it when it cannot connect, not as missing.
        let settings = ["/usr/bin/env", "-i", "HOME=\(home.url.path)", "PATH=/usr/bin:/bin", prefix.appendingPathComponent("bin/wonderland").path]
        #expect(try Subprocess.run(settings + ["defaults", "write", "WLSyncServer", "postgres://alice@127.0.0.1:9/db?sslmode=disable"]).status == 0)
        let status = try Subprocess.run(settings + ["cloud", "status"])
        #expect(status.output.contains("Reached:"), "\(status.output)")
        #expect(!status.output.contains("cannot be run"), "the installed app did not find its helper: \(status.output)")

        let removed = try Self.install(["--prefix", prefix.path, "--uninstall"], home: home.url)
        #expect(removed.status == 0, "\(removed.output)")
        #expect(Self.files(under: prefix) == ["share/man/man1/other.1"], "left or took too much: \(Self.files(under: prefix))")
        #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("libexec/wonderland").path))
    }
}
