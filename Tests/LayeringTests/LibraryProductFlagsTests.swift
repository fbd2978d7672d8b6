import Foundation
import Testing

/// A package that depends on this one by URL gets none of its products if a target they carry
/// has unsafe flags (SwiftPM refuses them), so no library product may reach one.
@Suite("Library products for other packages")
struct LibraryProductFlagsTests {
    @Test("no target a library product carries, dependencies included, has unsafe flags")
    func noUnsafeFlagsInLibraries() throws {
        let package = try LayeringTests.dumpedPackage()
        let targets = try #require(package["targets"] as? [[String: Any]])
        let products = try #require(package["products"] as? [[String: Any]])
        let byName = Dictionary(targets.compactMap { target in (target["name"] as? String).map { ($0, target) } }, uniquingKeysWith: { first, _ in first })
        let dependencies = try LayeringTests.declaredDependencies()
        let libraries = products.filter { ($0["type"] as? [String: Any])?["library"] != nil }
        #expect(!libraries.isEmpty)
        var carried = Set<String>()
        var pending = libraries.flatMap { $0["targets"] as? [String] ?? [] }
        while let name = pending.popLast() {
            guard byName[name] != nil, carried.insert(name).inserted else { continue }
            pending += dependencies[name] ?? []
        }
        #expect(carried.contains("Platform") && carried.contains("PropertyList"))
        for name in carried.sorted() {
            let settings = try JSONSerialization.data(withJSONObject: byName[name]?["settings"] ?? [])
            #expect(!String(decoding: settings, as: UTF8.self).contains("unsafeFlags"), "\(name) has unsafe flags and a library product carries it")
        }
    }

    @Test("the app's own module keeps its release flags")
    func appModuleKeepsItsFlags() throws {
        let package = try LayeringTests.dumpedPackage()
        let targets = try #require(package["targets"] as? [[String: Any]])
        let app = try #require(targets.first { $0["name"] as? String == "WonderlandApp" })
        let settings = try JSONSerialization.data(withJSONObject: app["settings"] ?? [])
        #expect(String(decoding: settings, as: UTF8.self).contains("disable-concrete-type-metadata-mangled-name-accessors"))
    }
}
