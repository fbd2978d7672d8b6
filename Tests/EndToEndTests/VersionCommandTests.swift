import Foundation
import Testing

/// `wonderland --version` prints the version alone on one line and exits 0, with or without
/// `-Key value` defaults beside it, and never takes the screen.
@Suite("Version command", .whenEndToEndIsAskedFor)
struct VersionCommandTests {
    @Test("--version, alone or after -Key value pairs: one version line, status 0", arguments: [
        ["--version"], ["-HPMapType", "2", "--version"],
    ])
    func versionLine(_ arguments: [String]) throws {
        let home = try HomeFolder()
        let result = try Subprocess.run(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home.url.path)", "LANG=C.UTF-8",
                                         try TmuxSession.locateBinary()] + arguments)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+\n$"#, options: .regularExpression) != nil, "\(result.output)")
    }
}
