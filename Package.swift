// swift-tools-version:6.0
import PackageDescription

/// Linker settings of a release executable that is one static file. `swift build -c release`
/// compiles against the toolchain's shared Foundation, whose modules do not name the static
/// libraries FoundationEssentials itself needs, so they are named here; with
/// `--static-swift-stdlib` they are named twice, which the linker takes as once (DECISIONS D265).
/// Linker settings of a release executable that links the Swift runtime and Foundation into
/// itself and only the C library and its neighbours dynamically: the sync helper, whose NIO
/// resolves host names through the C library's name services, which a static C library cannot
/// load reliably. The static Foundation's own libraries are named for the same reason as above.
let staticSwiftLibraries: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-Xlinker", "-lFoundationInternationalization", "-Xlinker", "-lCoreFoundation",
                  "-Xlinker", "-l_FoundationICU", "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-l_FoundationCShims"],
                 .when(platforms: [.linux], configuration: .release)),
]

let staticExecutable: [LinkerSetting] = [
    .unsafeFlags(["-static-executable", "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-l_FoundationCShims"],
                 .when(platforms: [.linux], configuration: .release)),
]

// Layering (see ARCHITECTURE.md): only Terminal imports CNcursesw and only BookFront CZlib;
// Screens knows nothing of fronts; PropertyList -> KeyedArchive are pure value code with no
// terminal dependency.
let package = Package(
    name: "wonderland",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "wonderland", targets: ["wonderland"]),
        // Installed beside `wonderland`: the app starts it when a Sync Server is set.
        .executable(name: "wonderland-sync-server", targets: ["wonderland-sync-server"]),
        // For the fuzz package in Fuzz/, which depends on this one by path.
        .library(name: "PropertyList", targets: ["PropertyList"]),
        .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
        .library(name: "Defaults", targets: ["Defaults"]),
        .library(name: "SavedCollections", targets: ["SavedCollections"]),
        .library(name: "BookFront", targets: ["BookFront"]),
        .library(name: "MapFront", targets: ["MapFront"]),
        .library(name: "Cloud", targets: ["Cloud"]),
        // The UI layers, for programs of their own (Examples/StateApp is one) and their tests.
        .library(name: "Terminal", targets: ["Terminal"]),
        .library(name: "Screens", targets: ["Screens"]),
        .library(name: "Settings", targets: ["Settings"]),
        .library(name: "Restoration", targets: ["Restoration"]),
        .library(name: "ScreensTesting", targets: ["ScreensTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The synced store's server backend: a PostgreSQL client, with TLS and logging, on a
        // connection made with NIO itself (keepalive, TLS before anything is said).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CNcursesw",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncursesw5-dev"])]
        ),
        // zlib's raw inflate and CRC-32, for the EPUB reader's zip archives.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // SQLite, for the collections that grow with use (notes, bookmarks, reading places).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // What text from outside must become before a terminal or a log sees it; no dependencies.
        .target(name: "TextSafety"),
        // What the operating system and the standard library lack, written once: locks, waits on
        // the monotonic clock, wake-up pipes, file events, the user's folders, printf-style
        // numbers, trimming, local time. The C library only.
        .target(name: "Platform"),
        .target(name: "Terminal", dependencies: ["CNcursesw", "TextSafety", "Platform"]),
        .target(name: "PropertyList", dependencies: ["Platform"]),
        .target(name: "KeyedArchive", dependencies: ["PropertyList", "Platform"]),
        .target(name: "FileSafety", dependencies: ["Platform"]),
        // The collections database: one row per entry, shared by processes; knows no owner.
        .target(name: "SavedCollections", dependencies: ["CSQLite", "PropertyList", "FileSafety", "TextSafety", "Platform"]),
        .target(name: "Defaults", dependencies: ["SavedCollections", "PropertyList", "KeyedArchive", "FileSafety", "Platform"]),
        .target(name: "Restoration", dependencies: ["PropertyList", "KeyedArchive", "FileSafety", "TextSafety", "Platform"]),
        .target(name: "Screens", dependencies: ["Terminal", "TextSafety", "Restoration", "PropertyList", "KeyedArchive", "Platform"]),
        // The Settings.bundle schema, its loading, and the screens that edit a preference store
        // through it, so that Screens needs nothing of Defaults.
        .target(name: "Settings", dependencies: ["Screens", "Terminal", "Restoration", "Defaults", "PropertyList", "KeyedArchive", "FileSafety", "Platform"]),
        // A pilot that drives an Application on a headless terminal, and checks on what it shows.
        .target(name: "ScreensTesting", dependencies: ["Screens", "Terminal"]),
        // The synced key-value store and its backends; knows nothing of screens or fronts.
        .target(name: "Cloud", dependencies: ["PropertyList", "FileSafety", "Defaults", "Platform"]),
        // The sync server as the app sees it: its address, its password, and the helper process
        // that talks to it over pipes. No NIO, no full Foundation.
        .target(name: "CloudServer", dependencies: ["Cloud", "PropertyList", "FileSafety", "Platform"]),
        // The synced store's PostgreSQL backend: the only module that knows of NIO and SQL.
        .target(name: "CloudPostgres", dependencies: [
            "Cloud", "CloudServer", "FileSafety", "Platform",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOTLS", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The fronts: each knows its own world and draws through Screens; neither imports the other.
        .target(name: "MapFront", dependencies: ["Screens", "Terminal", "Restoration", "Defaults", "PropertyList", "KeyedArchive", "FileSafety", "Platform"]),
        .target(name: "BookFront", dependencies: ["Screens", "Terminal", "Restoration", "Defaults", "PropertyList", "KeyedArchive", "FileSafety", "Platform", "CZlib"]),
        .target(name: "WonderlandApp", dependencies: ["Screens", "Settings", "Terminal", "TextSafety", "Restoration", "Defaults", "PropertyList", "KeyedArchive", "FileSafety",
                                                      "MapFront", "BookFront", "Cloud", "CloudServer", "Platform"]),
        .executableTarget(
            name: "wonderland",
            dependencies: [
                "WonderlandApp", "Screens", "Settings", "Terminal", "TextSafety", "PropertyList", "KeyedArchive", "Restoration", "Defaults", "SavedCollections", "Cloud", "CloudServer", "FileSafety", "Platform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The release product is one static file: no dynamic loader, libraries or relocations
            // at each start (DECISIONS D210). Debug builds link dynamically, which is faster.
            linkerSettings: staticExecutable
        ),
        // The server backend in a process of its own, so the app never links NIO or the full
        // Foundation: framed requests on stdin, answers on stdout.
        .executableTarget(name: "wonderland-sync-server", dependencies: ["CloudPostgres", "CloudServer", "Cloud", "PropertyList", "Platform"],
                          linkerSettings: staticSwiftLibraries),
        .executableTarget(
            name: "bench-plist",
            dependencies: ["PropertyList"],
            path: "Benchmarks/bench-plist"
        ),
        .executableTarget(
            name: "bench-archive",
            dependencies: ["PropertyList", "KeyedArchive"],
            path: "Benchmarks/bench-archive"
        ),
        .executableTarget(
            name: "bench-defaults",
            dependencies: ["Defaults", "PropertyList"],
            path: "Benchmarks/bench-defaults"
        ),
        .executableTarget(
            name: "bench-book-load",
            dependencies: ["BookFront"],
            path: "Benchmarks/bench-book-load"
        ),
        .executableTarget(
            name: "bench-restoration",
            dependencies: ["WonderlandApp", "Restoration", "Screens", "Terminal", "PropertyList", "FileSafety"],
            path: "Benchmarks/bench-restoration"
        ),
        .executableTarget(
            name: "bench-map",
            dependencies: ["MapFront", "Screens", "Terminal"],
            path: "Benchmarks/bench-map"
        ),
        .executableTarget(
            name: "bench-characters",
            dependencies: ["BookFront"],
            path: "Benchmarks/bench-characters"
        ),
        .executableTarget(
            name: "bench-wrap",
            dependencies: ["BookFront"],
            path: "Benchmarks/bench-wrap",
            linkerSettings: staticExecutable
        ),
        .executableTarget(
            name: "bench-book",
            dependencies: ["BookFront", "Screens", "Terminal", "Defaults", "PropertyList"],
            path: "Benchmarks/bench-book"
        ),
        .executableTarget(
            name: "cloud-hammer",
            dependencies: ["Cloud", "CloudServer", "CloudPostgres", "PropertyList"],
            path: "Benchmarks/cloud-hammer"
        ),
        // Saves through the fields' owners on a shared defaults file: spawned by the
        // multi-process tests, and the "saved at once" benchmark.
        .executableTarget(
            name: "saved-fields",
            dependencies: ["BookFront", "MapFront", "Defaults", "PropertyList"],
            path: "Benchmarks/saved-fields"
        ),
        .executableTarget(
            name: "bench-cloud-merge",
            dependencies: ["Cloud", "PropertyList"],
            path: "Benchmarks/bench-cloud-merge"
        ),
        // Hostile files built byte by byte, shared by the tests of the readers and of `wonderland plist`.
        .target(name: "PropertyListTestSupport", path: "Tests/PropertyListTestSupport"),
        // What a test needs from outside the package (gpsd, a PostgreSQL server, python3, …):
        // skipped when missing under plain `swift test`, a failure under scripts/test.
        .target(name: "TestPrerequisites", path: "Tests/TestPrerequisites"),
        .testTarget(name: "PropertyListTests", dependencies: ["TestPrerequisites", "PropertyList", "PropertyListTestSupport"], resources: [.copy("Crafted")]),
        .testTarget(name: "KeyedArchiveTests", dependencies: ["TestPrerequisites", "KeyedArchive", "PropertyList", "PropertyListTestSupport"]),
        .testTarget(name: "EndToEndTests"),
        // Reads Package.swift, the imports and ARCHITECTURE.md's table; depends on nothing of ours.
        .testTarget(name: "LayeringTests"),
        .testTarget(name: "CloudTests", dependencies: ["TestPrerequisites", "Cloud", "PropertyList", "Defaults"]),
        .testTarget(name: "CloudServerTests", dependencies: ["TestPrerequisites", "CloudServer", "Cloud", "PropertyList", "Platform"]),
        .testTarget(name: "CloudPostgresTests", dependencies: ["TestPrerequisites", "CloudPostgres", "CloudServer", "Cloud", "PropertyList", "Platform"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "TextSafety"]),
        .testTarget(name: "ScreensTests", dependencies: ["TestPrerequisites", "Screens", "ScreensTesting", "Terminal", "TextSafety"]),
        .testTarget(name: "SettingsTests", dependencies: ["Settings", "Screens", "ScreensTesting", "Terminal", "Restoration", "Defaults", "PropertyList"]),
        .testTarget(name: "WonderlandAppTests", dependencies: ["WonderlandApp", "BookFront", "MapFront", "Screens", "Settings", "ScreensTesting", "Terminal", "Restoration", "Defaults", "PropertyList", "KeyedArchive", "Cloud", "CloudServer"]),
        .testTarget(name: "DefaultsTests", dependencies: ["TestPrerequisites", "Defaults", "PropertyList", "KeyedArchive", "FileSafety", "PropertyListTestSupport", "SavedCollections"]),
        .testTarget(name: "SavedCollectionsTests", dependencies: ["TestPrerequisites", "SavedCollections", "PropertyList"]),
        .testTarget(name: "FileSafetyTests", dependencies: ["FileSafety"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "MapFrontTests", dependencies: ["TestPrerequisites", "MapFront", "Screens", "Settings", "ScreensTesting", "Terminal", "Defaults", "PropertyList", "KeyedArchive", "Restoration", "FileSafety"],
                    // Read by path: gpsfake replays it.
                    exclude: ["Fixtures/paris-walk.nmea"]),
        // CZlib: the zip reader's tests deflate their own entries.
        .testTarget(name: "BookFrontTests", dependencies: ["BookFront", "Screens", "ScreensTesting", "Terminal", "Defaults", "PropertyList", "KeyedArchive", "Restoration", "CZlib"]),
        .testTarget(name: "RestorationTests", dependencies: ["Restoration", "PropertyList", "KeyedArchive", "FileSafety", "PropertyListTestSupport", "TextSafety"]),
    ],
    swiftLanguageModes: [.v6]
)

/// Every target a library product carries, its dependencies included.
let targetsOfLibraries: Set<String> = {
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var found = Set<String>()
    var pending = package.products.compactMap { $0 as? Product.Library }.flatMap(\.targets)
    while let name = pending.popLast() {
        guard let target = byName[name], found.insert(name).inserted else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            default: break
            }
        }
    }
    return found
}()

// Release code asks for a concrete generic type's metadata through its accessor, passing the
// conformances it already knows, instead of through the type's mangled name, which the runtime
// demangles and checks against every conformance record on first use (DECISIONS D225). Only
// targets no library product carries: SwiftPM refuses a product with unsafe flags to a package
// that depends on this one by URL (DECISIONS D266).
for target in package.targets where !targetsOfLibraries.contains(target.name)
    && (target.type == .regular || target.type == .executable) {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)),
    ]
}
