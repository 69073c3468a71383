// swift-tools-version: 6.1
import PackageDescription

// Every target is built in the Swift 6 language mode (the tools version's
// default) with the same upcoming features, so no target drifts.
let commonSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Petrel",
    products: [
        .library(name: "Petrel", targets: ["Petrel"]),
        .library(name: "PetrelText", targets: ["PetrelText"]),
    ],
    targets: [
        // The system SQLite (libsqlite3-dev), plus a few inline helpers for
        // the parts of the C API Swift cannot import (SQLITE_TRANSIENT, the
        // variadic sqlite3_db_config).
        .systemLibrary(
            name: "CPetrelSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Tokenizers and token filters in plain Swift: no C, no database.
        .target(
            name: "PetrelText",
            swiftSettings: commonSwiftSettings
        ),
        .target(
            name: "Petrel",
            dependencies: ["CPetrelSQLite", "PetrelText"],
            swiftSettings: commonSwiftSettings
        ),
        // Stage-one demo used by scripts/demo until petrel-index lands.
        .executableTarget(
            name: "petrel-demo",
            dependencies: ["Petrel"],
            path: "Examples/petrel-demo",
            swiftSettings: commonSwiftSettings
        ),
        .testTarget(
            name: "PetrelTests",
            dependencies: ["Petrel"],
            swiftSettings: commonSwiftSettings
        ),
        .testTarget(
            name: "PetrelTextTests",
            dependencies: ["PetrelText"],
            swiftSettings: commonSwiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
