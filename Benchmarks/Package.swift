// swift-tools-version: 6.1
//
// Benchmarks for Petrel, in their own package so that Petrel's products never
// depend on GRDB or on the benchmark harness. Release mode only:
//
//   scripts/bench                          # ratio table: raw SQLite C calls vs Petrel vs GRDB 7.10.0
//   swift package benchmark                # the same workloads through ordo-one/benchmark
import Foundation
import PackageDescription

// A path dependency is identified by its folder name, which depends on where
// the repository was cloned: compute it.
let petrelIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "PetrelBenchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Shared fixtures and the raw C baseline (SQLite through GRDB's
        // system-library module, so no third copy of the SQLite module map).
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        .target(
            name: "PetrelWorkloads",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Petrel", package: petrelIdentity),
                .product(name: "PetrelICU", package: petrelIdentity),
            ]
        ),
        .target(
            name: "GRDBWorkloads",
            dependencies: ["BenchmarkSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .executableTarget(
            name: "petrel-bench",
            dependencies: [
                "BenchmarkSupport", "PetrelWorkloads", "GRDBWorkloads",
                .product(name: "Petrel", package: petrelIdentity),
                .product(name: "PetrelICU", package: petrelIdentity),
            ]
        ),
        // In-process search latency on an index built by petrel-index
        // (scripts/bench-search runs it).
        .executableTarget(
            name: "petrel-search-bench",
            dependencies: [.product(name: "PetrelIndex", package: petrelIdentity)]
        ),
        // What Swift's Codable and argument arrays cost by themselves, beside
        // raw C: the floors of two petrel-bench goals.
        .executableTarget(
            name: "petrel-floors",
            dependencies: ["BenchmarkSupport", .product(name: "Petrel", package: petrelIdentity)]
        ),
        // Everyday operations, one source compiled against each library
        // (GRDBEverydayOps links PetrelEverydayOps' file), timed side by side.
        .target(
            name: "PetrelEverydayOps",
            dependencies: [.product(name: "Petrel", package: petrelIdentity)]
        ),
        .target(
            name: "GRDBEverydayOps",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")]
        ),
        .executableTarget(
            name: "petrel-everyday",
            dependencies: ["PetrelEverydayOps", "GRDBEverydayOps"]
        ),
        // Read throughput of a DatabasePool against a DatabaseQueue, two
        // readers beside a writer.
        .executableTarget(
            name: "petrel-pool-bench",
            dependencies: [.product(name: "Petrel", package: petrelIdentity)]
        ),
        .executableTarget(
            name: "PetrelBenchmarks",
            dependencies: [
                "BenchmarkSupport", "PetrelWorkloads", "GRDBWorkloads",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PetrelBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
