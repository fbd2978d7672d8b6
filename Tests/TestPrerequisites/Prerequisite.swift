import Foundation
import Testing

/// A program or data from outside the package that a test needs, and how to get it. Plain
/// `swift test` skips a test whose prerequisite is missing, with a comment saying so; scripts/test
/// installs them all and sets WONDERLAND_REQUIRE_TOOLS=1, under which a missing one fails instead.
/// Each test target lists its own prerequisites in an extension of this type.
public struct Prerequisite: Sendable {
    /// What the skip comment names.
    public let name: String
    /// How to get it, as the skip comment says.
    public let remedy: String
    /// Whether it is on this machine; asked when the test is about to run.
    public let isPresent: @Sendable () -> Bool

    /// A prerequisite of any kind: its name, how to get it, and how to tell it is here.
    public init(name: String, remedy: String, isPresent: @escaping @Sendable () -> Bool) {
        self.name = name
        self.remedy = remedy
        self.isPresent = isPresent
    }

    /// A program the test starts by name, looked for on PATH as the shell would.
    public static func program(_ name: String, remedy: String) -> Prerequisite {
        Prerequisite(name: name, remedy: remedy) {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
        }
    }

    /// A file the test uses at a fixed path: a program it starts by path, or installed data.
    public static func file(_ path: String, named name: String? = nil, remedy: String) -> Prerequisite {
        Prerequisite(name: name ?? path, remedy: remedy) { FileManager.default.fileExists(atPath: path) }
    }
}

/// Why a test did not run although scripts/test asked for every prerequisite.
public struct MissingPrerequisite: Error, CustomStringConvertible {
    /// What was missing, and why it counts as a failure.
    public let description: String
}

extension Trait where Self == ConditionTrait {
    /// Runs the test when every one of `prerequisites` is here, and otherwise skips it naming
    /// what is missing and how to get it — or, under WONDERLAND_REQUIRE_TOOLS=1, fails it, so a
    /// machine scripts/test set up wrongly is never taken for one where everything passed.
    public static func requires(_ prerequisites: Prerequisite...) -> Self {
        let missing = prerequisites.filter { !$0.isPresent() }
        let reason = missing.map { "\($0.name) is missing: \($0.remedy)" }.joined(separator: "; ")
        return .enabled(Comment(rawValue: reason)) {
            guard !missing.isEmpty else { return true }
            guard ProcessInfo.processInfo.environment["WONDERLAND_REQUIRE_TOOLS"] == "1" else { return false }
            throw MissingPrerequisite(description: "\(reason) (WONDERLAND_REQUIRE_TOOLS=1: nothing may be skipped)")
        }
    }
}


extension Prerequisite {
    /// Python, which the interop tests compare with (plistlib) and several scripts are written in.
    public static let python3 = program("python3", remedy: "scripts/setup installs it (Debian's python3)")
    /// openssl, with which scripts/pg-server makes a throw-away server's certificate.
    public static let openssl = program("openssl", remedy: "scripts/setup postgresql installs it")
    /// A PostgreSQL server where scripts/pg-server looks for one.
    public static let postgresServer = Prerequisite(name: "a PostgreSQL server in /usr/lib/postgresql/*/bin",
                                                    remedy: "scripts/setup postgresql installs it (Debian's postgresql)") {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.contains { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/postgres") }
    }
}
