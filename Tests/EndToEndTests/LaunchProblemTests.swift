import Foundation
import Testing

/// A command line the app cannot start with ends before the screen is taken: exit status 2
/// and one line saying why.
@Suite("Launch problems", .whenEndToEndIsAskedFor)
struct LaunchProblemTests {
    @Test("bad --location, missing --book, unknown option, missing value: status 2, one line", arguments: [
        (["--location", "abc"], "wonderland: --location “abc”: expected LAT,LON"),
        (["--book", "/no/such/book.txt"], "wonderland: --book “/no/such/book.txt”: no such file"),
        (["--frobnicate"], "wonderland: Unknown option '--frobnicate'"),
        (["--location"], "wonderland: Missing value for '--location"),
    ])
    func problemBeforeTheScreen(_ arguments: [String], _ expected: String) throws {
        let home = try HomeFolder()
        // Standard input is not a terminal here: reaching the terminal would fail differently.
        let result = try Subprocess.run(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home.url.path)", "LANG=C.UTF-8",
                                         try TmuxSession.locateBinary()] + arguments)
        #expect(result.status == 2, "\(result.output)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 1, "\(result.output)")
        #expect(lines.first?.hasPrefix(expected) == true, "\(result.output)")
    }

    @Test("defaults write takes a value starting with - when it is not a type option")
    func negativeValue() throws {
        let home = try HomeFolder()
        let run = { (arguments: [String]) in
            try Subprocess.run(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home.url.path)", "LANG=C.UTF-8",
                                try TmuxSession.locateBinary(), "defaults"] + arguments)
        }
        #expect(try run(["write", "WLPlace", "-33.8,151.2"]).status == 0)
        #expect(try run(["read", "WLPlace"]).output == "-33.8,151.2\n")
        #expect(try run(["write", "WLPlace", "-float", "-33.8"]).status == 0)
        #expect(try run(["read", "WLPlace"]).output == "-33.8\n")
        let bad = try run(["write", "WLPlace", "-bogus", "x"])
        #expect(bad.status != 0 && bad.output.contains("unknown type flag -bogus"), "\(bad.output)")
    }
}
