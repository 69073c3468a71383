// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for Petrel's parsers, extractors and tokenizers, one
// executable each. A package of its own, so that Petrel's own build never
// sees the sanitizer flags: scripts/fuzz builds it with
//
//     swift build -c release -Xswiftc -sanitize=fuzzer,address
//
// which instruments Petrel's Swift modules too (coverage and address
// checks). Each target defines `LLVMFuzzerTestOneInput` and an `@main`
// that hands it to libFuzzer's driver (CPetrelFuzzDriver).
let fuzzTargets = ["fuzz-query", "fuzz-options", "fuzz-extract", "fuzz-text-tokenizer", "fuzz-icu-tokenizer"]

let package = Package(
    name: "PetrelFuzz",
    dependencies: [
        .package(name: "Petrel", path: ".."),
    ],
    targets: [
        .target(name: "CPetrelFuzzDriver"),
    ] + fuzzTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "CPetrelFuzzDriver",
                .product(name: "PetrelIndex", package: "Petrel"),
                .product(name: "PetrelText", package: "Petrel"),
                .product(name: "PetrelICU", package: "Petrel"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    },
    swiftLanguageModes: [.v6]
)
