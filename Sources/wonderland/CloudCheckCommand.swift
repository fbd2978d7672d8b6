import ArgumentParser
import Cloud
import CloudServer
import FoundationEssentials
import Platform
import TextSafety
import WonderlandApp

extension CloudCommand {
    /// `wonderland cloud check`: whether the sync server's database is fit for one member of a
    /// team, in plain words an admin or the user can act on. The sync helper runs the queries
    /// (the app links no PostgreSQL code) on a connection of its own, which creates nothing.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that the sync server's database is safe to share a server with other users; exit 1 on a problem.",
            discussion: """
                Connects to the server the store syncs through (as `wonderland cloud status` \
                does), creates nothing, and prints one line per finding: `problem:` for what \
                another role on the server could use against your store (it may connect to your \
                database, create in a schema on your search path, or made the store's tables \
                first), `warning:` for what is weaker than it should be (no TLS, MD5 passwords, a \
                role with more power than a device needs), `ok:` for a check that passed and \
                `info:` for facts such as how many devices the server has room for. Each problem \
                says the statement that fixes it.

                Exit status: 0 no problem found, 1 a problem found, 2 the store does not sync \
                through a server, 3 the server or the sync helper could not be reached.
                """
        )

        /// The server could not be reached: nothing was checked.
        static let unreachableStatus: Int32 = 3

        func run() throws {
            let place = Where.current()
            let address: PostgresSyncAddress
            let password: String?
            switch place.place.kind {
            case .server(let server, let lookup):
                address = server
                password = lookup.password
            case .folder(let folder):
                throw UsageProblem(message: "cloud check: the store syncs through the folder \(folder.path) (from \(place.place.source)), not a server; there is nothing to check")
            case .unusableServer(let reason):
                throw UsageProblem(message: "cloud check: the sync server cannot be used: \(place.place.redacting(reason))")
            }
            for line in place.lines { print(place.place.redacting(line)) }
            let backend = SyncHelperBackend(address: address, password: password, device: DeviceIdentifier.random())
            let findings: [ServerCheckFinding]
            do {
                findings = try backend.check()
            } catch let unavailable as BackendUnavailable {
                place.printError("cannot check the server: \(unavailable.reason)")
                throw ExitCode(Self.unreachableStatus)
            }
            for finding in findings { print(place.place.redacting(SafeText.visible(finding.description))) }
            let problems = findings.filter { $0.severity == .problem }.count
            let warnings = findings.filter { $0.severity == .warning }.count
            print(Self.summary(problems: problems, warnings: warnings, address: address))
            if problems > 0 { throw ExitCode.failure }
        }

        static func summary(problems: Int, warnings: Int, address: PostgresSyncAddress) -> String {
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            if problems == 0 && warnings == 0 { return "No problems: database \(address.database) is fit to share this server." }
            if problems == 0 { return "No problems, \(count(warnings, "warning"))." }
            return "\(count(problems, "problem")), \(count(warnings, "warning")): other roles on this server could read or disturb your store until the problems are fixed."
        }
    }
}
