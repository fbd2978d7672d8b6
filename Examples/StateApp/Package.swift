// swift-tools-version:6.0
import PackageDescription

// A second program on Wonderland's library products only: what a Swift developer writes to
// get a terminal app that resumes where it left off.
func wonderland(_ products: String...) -> [Target.Dependency] {
    products.map { .product(name: $0, package: "wonderland") }
}

let package = Package(
    name: "StateApp",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "wonderland", path: "../.."),
    ],
    targets: [
        // Settings draws the settings screen from its schema; Defaults is the store it edits.
        .target(name: "StateAppKit",
                dependencies: wonderland("Screens", "Settings", "Terminal", "Restoration", "KeyedArchive", "PropertyList", "Defaults")),
        .executableTarget(name: "stateapp", dependencies: ["StateAppKit"] + wonderland("Screens", "Terminal", "Defaults")),
        .testTarget(name: "StateAppTests",
                    dependencies: ["StateAppKit"] + wonderland("ScreensTesting", "Screens", "Settings", "Terminal", "Restoration", "Defaults", "PropertyList")),
    ],
    swiftLanguageModes: [.v6]
)
