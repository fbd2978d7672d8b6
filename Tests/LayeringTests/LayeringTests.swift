import Foundation
import Testing

/// The module graph as ARCHITECTURE.md draws it, held against what Package.swift declares and
/// what every source file imports. A new arrow must be written into the table first.
@Suite("Layering")
struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// What the table in ARCHITECTURE.md allows, by module: our modules, and outside ones.
    struct Rule {
        var ours: Set<String>
        var outside: Set<String>
    }

    /// Modules every Swift file may use without a row saying so.
    static let implicit: Set<String> = ["Swift", "_Concurrency", "_StringProcessing"]

    static func rules() throws -> [String: Rule] {
        let text = try String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        guard let start = text.range(of: "\n## Layers, checked\n") else {
            throw Failure("ARCHITECTURE.md has no “Layers, checked” section")
        }
        let body = String(text[start.upperBound...]).components(separatedBy: "\n## ").first ?? ""
        var rules: [String: Rule] = [:]
        for line in body.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| Module") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, !cells[1].hasPrefix("---") else { continue }
            rules[cells[1]] = Rule(ours: names(cells[2]), outside: names(cells[3]))
        }
        return rules
    }

    static func names(_ cell: String) -> Set<String> {
        Set(cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 != "—" && !$0.isEmpty })
    }

    /// The modules under Sources/, one folder each.
    static func sourceModules() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Package.swift as SwiftPM reads it: each target's dependencies by name.
    static func declaredDependencies() throws -> [String: [String]] {
        guard let targets = try dumpedPackage()["targets"] as? [[String: Any]] else { throw Failure("the package has no targets") }
        var result: [String: [String]] = [:]
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            let dependencies = target["dependencies"] as? [[String: Any]] ?? []
            result[name] = dependencies.compactMap { dependency in
                (dependency.values.first as? [Any])?.first as? String
            }
        }
        return result
    }

    /// `swift package dump-package`: the manifest as SwiftPM evaluated it.
    static func dumpedPackage() throws -> [String: Any] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("layering-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A scratch path of its own, so it never waits on the lock of the build running these tests.
        process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let package = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw Failure("`swift package dump-package` failed (status \(process.terminationStatus))") }
        return package
    }

    /// The modules a Swift file imports, attributes and access levels aside
    /// (`@preconcurrency import X`, `internal import X`, `import struct X.Y`).
    static func imports(in source: String) -> Set<String> {
        var found: Set<String> = []
        for raw in source.split(separator: "\n", omittingEmptySubsequences: true) {
            var words = raw.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains(first) {
                words.removeFirst()
            }
            guard words.first == "import", words.count >= 2 else { continue }
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
            let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            found.insert(String(path.split(separator: ".").first ?? ""))
        }
        return found
    }

    @Test("every module under Sources has a row, and every row a module")
    func everyModuleHasARow() throws {
        let rules = try Self.rules()
        let modules = Set(try Self.sourceModules())
        #expect(modules.subtracting(rules.keys).sorted() == [], "modules with no row in ARCHITECTURE.md's table")
        #expect(Set(rules.keys).subtracting(modules).sorted() == [], "rows for modules that do not exist")
    }

    @Test("Package.swift declares no dependency the table does not draw")
    func packageFollowsTheTable() throws {
        let rules = try Self.rules()
        let declared = try Self.declaredDependencies()
        for module in try Self.sourceModules() {
            guard let rule = rules[module] else { continue }
            let extra = Set(declared[module] ?? []).subtracting(rule.ours).subtracting(rule.outside)
            #expect(extra.sorted() == [], "\(module) depends on \(extra.sorted()) in Package.swift; ARCHITECTURE.md does not draw that arrow")
        }
    }

    @Test("no source file imports a module its row does not allow")
    func importsFollowTheTable() throws {
        let rules = try Self.rules()
        let sources = Self.root.appendingPathComponent("Sources")
        for module in try Self.sourceModules() {
            guard let rule = rules[module] else { continue }
            let allowed = rule.ours.union(rule.outside).union(Self.implicit).union([module])
            let folder = sources.appendingPathComponent(module)
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
                .filter { $0.hasSuffix(".swift") } ?? []
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let extra = Self.imports(in: text).subtracting(allowed)
                #expect(extra.sorted() == [], "Sources/\(module)/\(file) imports \(extra.sorted()), which its row in ARCHITECTURE.md does not allow")
            }
        }
    }

    @Test("the import reader sees through attributes and access levels")
    func importReader() {
        let source = """
        @preconcurrency import Alpha
        internal import Beta
        import struct Gamma.Thing
        #if canImport(Delta)
        import Delta
        #endif
        // import Commented
        let important = 1
        """
        #expect(Self.imports(in: source) == ["Alpha", "Beta", "Gamma", "Delta"])
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
