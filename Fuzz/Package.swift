// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets, kept out of the root package because they are built with sanitizer flags.
// Convention (scripts/fuzz relies on it): every directory Fuzz/Sources/<Name>/ is one executable
// target <Name> whose main.swift exports LLVMFuzzerTestOneInput and runs
// `exit(runLibFuzzer(<that function>))`; its seed corpus is Fuzz/Corpus/<Name>/.
let package = Package(
    name: "wonderland-fuzz",
    dependencies: [
        .package(name: "wonderland", path: ".."),
    ],
    targets: [
        // Shared driver and oracles; outside Sources/ so they are not mistaken for fuzz targets.
        .target(name: "CLibFuzzer", path: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CLibFuzzer",
                .product(name: "PropertyList", package: "wonderland"),
                .product(name: "KeyedArchive", package: "wonderland"),
            ],
            path: "Support"
        ),
        .executableTarget(
            name: "FuzzXMLPropertyList",
            dependencies: ["FuzzSupport", .product(name: "PropertyList", package: "wonderland")]
        ),
        .executableTarget(
            name: "FuzzBinaryPropertyList",
            dependencies: ["FuzzSupport", .product(name: "PropertyList", package: "wonderland")]
        ),
        // The EPUB targets' shared harness (RAM folder, oracle, zip writer), apart from
        // FuzzSupport so the property-list targets do not link BookFront.
        .target(
            name: "FuzzBookSupport",
            dependencies: [.product(name: "BookFront", package: "wonderland")],
            path: "BookSupport"
        ),
        .executableTarget(
            name: "FuzzSettingsSchema",
            dependencies: [
                "FuzzSupport",
                .product(name: "Defaults", package: "wonderland"),
                .product(name: "Settings", package: "wonderland"),
                .product(name: "PropertyList", package: "wonderland"),
            ]
        ),
        .executableTarget(
            name: "FuzzEPUB",
            dependencies: ["FuzzSupport", "FuzzBookSupport"]
        ),
        .executableTarget(
            name: "FuzzEPUBContents",
            dependencies: ["FuzzSupport", "FuzzBookSupport"]
        ),
        .executableTarget(
            name: "FuzzInputDecoder",
            dependencies: ["FuzzSupport", .product(name: "Terminal", package: "wonderland")]
        ),
        .executableTarget(
            name: "FuzzGPSDReader",
            dependencies: ["FuzzSupport", .product(name: "MapFront", package: "wonderland")]
        ),
        .executableTarget(
            name: "FuzzPlistPrint",
            dependencies: [
                "FuzzSupport",
                .product(name: "PropertyList", package: "wonderland"),
                .product(name: "KeyedArchive", package: "wonderland"),
            ]
        ),
        .executableTarget(
            name: "FuzzArchivePrint",
            dependencies: [
                "FuzzSupport",
                .product(name: "PropertyList", package: "wonderland"),
                .product(name: "KeyedArchive", package: "wonderland"),
            ]
        ),
        .executableTarget(
            name: "FuzzDefaultsRoundTrip",
            dependencies: [
                "FuzzSupport",
                .product(name: "Defaults", package: "wonderland"),
                .product(name: "PropertyList", package: "wonderland"),
            ]
        ),
        .executableTarget(
            name: "FuzzChangeFile",
            dependencies: [
                "FuzzSupport",
                .product(name: "Cloud", package: "wonderland"),
                .product(name: "PropertyList", package: "wonderland"),
            ]
        ),
        .executableTarget(
            name: "KeyedUnarchiverFuzz",
            dependencies: [
                "FuzzSupport",
                .product(name: "PropertyList", package: "wonderland"),
                .product(name: "KeyedArchive", package: "wonderland"),
            ]
        ),
    ]
)
