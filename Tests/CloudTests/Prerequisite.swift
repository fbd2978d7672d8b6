import Foundation
import TestPrerequisites

extension Prerequisite {
    /// A PostgreSQL server where scripts/pg-server looks for one, and what else that script runs.
    static let postgresServer = Prerequisite(name: "a PostgreSQL server in /usr/lib/postgresql/*/bin",
                                             remedy: "scripts/setup postgresql installs it (Debian's postgresql)") {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.contains { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/postgres") }
    }
    static let openssl = program("openssl", remedy: "scripts/setup postgresql installs it")
    static let python3 = program("python3", remedy: "scripts/setup installs it")
}
