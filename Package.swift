// swift-tools-version: 6.2
import PackageDescription

// Every target is built in the Swift 6 language mode (the tools version's
// default) with the same upcoming features, so no target drifts.
let commonSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // A concrete generic type's metadata (a `[String: Int]`, a `Set<Int64>`)
    // is made by a call that names its conformances, not from its mangled
    // name: from the name, Linux's runtime demangles it and looks each
    // conformance up by scanning every conformance record of the binary
    // (6,000 in petrel-search) the first time. That was 11% of a search
    // process (1.3-1.7 ms of 16; docs/performance/search.md). Release builds
    // only: debug builds keep the smaller code. Tools version 6.2 lets a
    // package that depends on Petrel by version build it with this flag.
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
                 .when(platforms: [.linux], configuration: .release)),
]

// On Linux the two command-line tools carry the Swift runtime and
// Foundation inside them: every search from the shell is a new process,
// and loading and relocating the shared Swift libraries took 5-6 ms of a
// 21 ms `petrel-search` (docs/performance/search.md). The executable's own
// module is compiled against the static libraries too, so that it links
// every archive they need (ICU data, CoreFoundation); lld, because gold
// warns about an archive member of the static Foundation that none of
// this code calls. Installed tools then need only the Debian libraries (SQLite, ICU, Snowball, zlib).
// PETREL_SHARED_SWIFT_RUNTIME=1 links them to the shared libraries instead:
// scripts/test-tsan does, since the thread sanitizer's allocator aborts on
// memory that the static libdispatch frees.
let sharedSwiftRuntime = Context.environment["PETREL_SHARED_SWIFT_RUNTIME"] == "1"
let staticSwiftRuntimeModules: [SwiftSetting] = sharedSwiftRuntime ? [] : [
    .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux])),
]
let staticSwiftRuntime: [LinkerSetting] = sharedSwiftRuntime ? [] : [
    .unsafeFlags(["-static-stdlib", "-use-ld=lld"], .when(platforms: [.linux])),
]
// petrel-search is also linked position-dependent (-no-pie): as a PIE, its
// 150,000 relative relocations were applied at every start, a page of
// pointers written (copied) at a time, 6 M of the loader's 9 M cycles;
// linked at a fixed address it has none of its own (measured: --version
// 10.0 -> 9.0 ms, a search of the 160 MB sample 20.6 -> 17.7 ms at p50).
// The libraries it loads, its stack and heap stay randomized; only its own
// image is at a known address. petrel-index, which reads untrusted
// documents and starts once per run, stays a PIE.
let positionDependentSearch: [LinkerSetting] = sharedSwiftRuntime ? [] : [
    .unsafeFlags(["-Xclang-linker", "-no-pie"], .when(platforms: [.linux])),
]
// petrel-search also carries Snowball's stemmers inside it (libstemmer.a,
// from libstemmer-dev as the shared one): loading libstemmer.so cost each
// start the relocation of its tables, 88 pages written by the loader, about
// 1 ms of a 9.5 ms search (docs/performance/search.md). Every other product
// links the shared library through CPetrelStemmerLinkage, which
// petrel-search does not depend on where it links the archive.
let staticStemmer: [LinkerSetting] = sharedSwiftRuntime ? [] : [
    .unsafeFlags(["-Xlinker", "-l:libstemmer.a"], .when(platforms: [.linux])),
]
let stemmerLinkage: Target.Dependency = "CPetrelStemmerLinkage"
let searchStemmerLinkage: Target.Dependency = sharedSwiftRuntime
    ? "CPetrelStemmerLinkage"
    : .target(name: "CPetrelStemmerLinkage", condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .windows, .android, .wasi, .openbsd]))

let package = Package(
    name: "Petrel",
    products: [
        .library(name: "Petrel", targets: ["Petrel", "CPetrelStemmerLinkage"]),
        .library(name: "PetrelText", targets: ["PetrelText", "CPetrelStemmerLinkage"]),
        .library(name: "PetrelICU", targets: ["PetrelICU", "CPetrelStemmerLinkage"]),
        .library(name: "PetrelIndex", targets: ["PetrelIndex", "CPetrelStemmerLinkage"]),
        // PetrelIndex on PostgreSQL through postgres-nio: a product of its
        // own, so that an app embedding PetrelIndex on SQLite never builds
        // SwiftNIO.
        .library(name: "PetrelPostgres", targets: ["PetrelPostgres", "CPetrelStemmerLinkage"]),
        // `import GRDBSQLite` for code written for GRDB, which reaches
        // SQLite's C API through that module on Linux. Opt-in, and never a
        // dependency of Petrel: a target that also depends on GRDB (whose
        // own GRDBSQLite module it then sees) must not use it, as clang
        // refuses two module maps that define one module name. The target
        // has a name of its own because SwiftPM refuses two targets of one
        // name in a package graph, even when a product leaves one out.
        .library(name: "GRDBSQLite", targets: ["PetrelGRDBSQLite"]),
        // libpetrel.so: Petrel's tokenizers and functions as a loadable
        // SQLite extension, for the sqlite3 shell, Python and other hosts.
        .library(name: "petrel", type: .dynamic, targets: ["PetrelExtension", "CPetrelStemmerLinkage"]),
        .executable(name: "petrel-index", targets: ["petrel-index"]),
        .executable(name: "petrel-search", targets: ["petrel-search"]),
        // Their twins for indexes on PostgreSQL, which the two tools run in
        // their place for --database (PetrelCommandSupport's PostgresTwin).
        .executable(name: "petrel-index-postgres", targets: ["petrel-index-postgres"]),
        .executable(name: "petrel-search-postgres", targets: ["petrel-search-postgres"]),
        .executable(name: "petrel-serve", targets: ["petrel-serve"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation` (scripts/docs); a command
        // plugin, linked into no product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // Property-based tests of the parsers and value conversions; used by
        // the test targets only.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        // The PostgreSQL store (PetrelPostgres) only.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The HTTP server of petrel-serve (PetrelServe) alone; no trait, so
        // that swift-configuration is not built for a server that reads no
        // configuration files.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // NIOCore's Channel, for the port the server was given (port 0).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        // HTTPField names for the headers petrel-serve sets.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The loggers of the PostgreSQL store (a handler that prints
        // nothing: libraries never print) and of the server.
        .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
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
        // The same system SQLite as the module GRDBSQLite (its module map
        // names it so), for the `GRDBSQLite` product alone.
        .systemLibrary(
            name: "PetrelGRDBSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Snowball's stemmers (libstemmer-dev), which ship no pkg-config file:
        // the header only. The library is linked by CPetrelStemmerLinkage
        // (shared) or, in petrel-search, as an archive (staticStemmer).
        .systemLibrary(
            name: "CPetrelStemmer",
            providers: [.apt(["libstemmer-dev"])]
        ),
        // Links the shared libstemmer: every product and test that holds
        // PetrelText depends on it, except petrel-search on Linux.
        .target(
            name: "CPetrelStemmerLinkage",
            linkerSettings: [.linkedLibrary("stemmer")]
        ),
        // Tokenizers and token filters in Swift, no database; C only for
        // the Snowball stemmers, behind one bridge file.
        .target(
            name: "PetrelText",
            dependencies: ["CPetrelStemmer"],
            swiftSettings: commonSwiftSettings
        ),
        .target(
            name: "Petrel",
            dependencies: ["CPetrelSQLite", "PetrelText"],
            swiftSettings: commonSwiftSettings
        ),
        // The system ICU (libicu-dev), behind a C header with no ICU type:
        // Foundation carries its own ICU, and a Swift module that sees
        // Foundation cannot also import the system ICU headers. libicui18n
        // (collation, transliteration, regular expressions, charset
        // detection) is not linked: petrel_icu.c loads it (dlopen) at first
        // use, so that petrel-search, which uses none of it, does not load
        // it at each start.
        .target(
            name: "CPetrelICU",
            dependencies: ["CPetrelLoader"],
            linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),
        // Loads a shared library and looks up its functions the first time
        // a C bridge needs them (CPetrelArchive, CPetrelMail, CPetrelXML,
        // CPetrelICU's libicui18n): see petrel_loader.h.
        .target(
            name: "CPetrelLoader",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(
            name: "PetrelICU",
            dependencies: ["Petrel", "PetrelText", "CPetrelICU"],
            swiftSettings: commonSwiftSettings
        ),
        // zlib (zlib1g-dev), for gzip-compressed documents.
        .systemLibrary(
            name: "CPetrelZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // libarchive (libarchive-dev): zip, tar and 7z members, and the
        // zip packages of OOXML, ODF and EPUB, read from memory. Not
        // linked: petrel_archive.c loads it (dlopen) at the first archive,
        // so that petrel-search does not load it at each start.
        .target(
            name: "CPetrelArchive",
            dependencies: ["CPetrelLoader"]
        ),
        // Mail messages through GMime 3 (libgmime-3.0-dev), behind a C
        // header with no GMime or GLib type: decoded headers and
        // transfer-decoded MIME parts. It declares the GMime functions it
        // calls itself (gmime_declarations.h), since GLib's pkg-config
        // flags are ones SwiftPM refuses with a warning.
        // GMime is not linked: petrel_mail.c loads it (dlopen) when the
        // first message is parsed, so that a program that reads no mail
        // (petrel-search) does not load GMime and GLib at each start.
        .target(
            name: "CPetrelMail",
            dependencies: ["CPetrelLoader"]
        ),
        // libxml2's streaming reader behind a C header with no libxml2
        // type: the XML of OOXML, ODF and EPUB documents, with no network,
        // DTD loading or entity expansion. libxml2 (libxml2.so.2) is not
        // linked: petrel_xml.c loads it (dlopen) at the first document, so
        // that petrel-search does not load it at each start, and declares
        // the functions it calls itself (libxml2_declarations.h).
        .target(
            name: "CPetrelXML",
            dependencies: ["CPetrelLoader"]
        ),
        // Folder trees into one FTS5 index: walking, ignore rules, text
        // extraction, incremental updates.
        .target(
            name: "PetrelIndex",
            dependencies: ["Petrel", "PetrelICU", "PetrelText", "CPetrelZlib", "CPetrelArchive", "CPetrelMail", "CPetrelXML"],
            swiftSettings: commonSwiftSettings
        ),
        // PetrelIndex's store on PostgreSQL: the same analysis and ranking,
        // the tokens kept as tsvector literals.
        .target(
            name: "PetrelPostgres",
            dependencies: ["PetrelIndex", .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log")],
            swiftSettings: commonSwiftSettings
        ),
        // The extension's entry point, and every SQLite routine it calls
        // routed through the host's routine table (sqlite3ext.h), so that
        // it works with whichever copy of SQLite the host runs.
        .target(
            name: "CPetrelSQLiteExtension",
            dependencies: ["CPetrelSQLite"]
        ),
        .target(
            name: "PetrelExtension",
            dependencies: ["Petrel", "PetrelICU", "PetrelIndex", "CPetrelSQLiteExtension"],
            swiftSettings: commonSwiftSettings
        ),
        // The C library's allocator settings (glibc's mallopt), which only
        // an executable chooses.
        .systemLibrary(name: "CPetrelMalloc"),
        // What both command-line tools share: the exit-status contract,
        // checked writes to stdout, terminal-safe text, argument values,
        // the allocator's settings.
        .target(
            name: "PetrelCommandSupport",
            dependencies: ["PetrelIndex", "CPetrelMalloc", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: commonSwiftSettings
        ),
        // The two commands, as libraries: each is built twice, once for
        // SQLite indexes alone (petrel-index, petrel-search: nothing of
        // SwiftNIO to load at each start) and once with PetrelPostgres
        // (the -postgres twins, which the first run for --database).
        .target(
            name: "PetrelIndexTool",
            dependencies: ["PetrelIndex", "PetrelCommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: commonSwiftSettings
        ),
        .target(
            name: "PetrelSearchTool",
            dependencies: ["PetrelIndex", "PetrelCommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: commonSwiftSettings
        ),
        // What the twins add: PostgresIndex behind the commands.
        .target(
            name: "PetrelPostgresTools",
            dependencies: ["PetrelIndex", "PetrelPostgres", "PetrelCommandSupport"],
            swiftSettings: commonSwiftSettings
        ),
        .executableTarget(
            name: "petrel-index",
            dependencies: [stemmerLinkage, "PetrelIndexTool", "PetrelCommandSupport"],
            swiftSettings: commonSwiftSettings + staticSwiftRuntimeModules,
            linkerSettings: staticSwiftRuntime
        ),
        .executableTarget(
            name: "petrel-search",
            dependencies: [searchStemmerLinkage, "PetrelSearchTool", "PetrelCommandSupport"],
            swiftSettings: commonSwiftSettings + staticSwiftRuntimeModules,
            linkerSettings: staticSwiftRuntime + positionDependentSearch + staticStemmer
        ),
        .executableTarget(
            name: "petrel-index-postgres",
            dependencies: [stemmerLinkage, "PetrelIndexTool", "PetrelPostgresTools"],
            swiftSettings: commonSwiftSettings + staticSwiftRuntimeModules,
            linkerSettings: staticSwiftRuntime
        ),
        .executableTarget(
            name: "petrel-search-postgres",
            dependencies: [stemmerLinkage, "PetrelSearchTool", "PetrelPostgresTools"],
            swiftSettings: commonSwiftSettings + staticSwiftRuntimeModules,
            linkerSettings: staticSwiftRuntime
        ),
        // The search page and JSON API of petrel-serve, on Hummingbird: a
        // library so that tests start the server in process. petrel-search
        // and petrel-index never link it.
        .target(
            name: "PetrelServe",
            dependencies: ["PetrelIndex", "PetrelCommandSupport", .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "Logging", package: "swift-log")],
            exclude: ["openapi.yaml"],
            swiftSettings: commonSwiftSettings
        ),
        // A server starts once: it links the shared Swift runtime. (The
        // static settings of the two tools leave ICU symbols of the static
        // Foundation that Hummingbird's modules pull in unresolved.)
        .executableTarget(
            name: "petrel-serve",
            dependencies: [stemmerLinkage, "PetrelServe", "PetrelIndex", "PetrelCommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: commonSwiftSettings
        ),
        // Helpers shared by the test targets.
        .target(
            name: "PetrelTestSupport",
            dependencies: [stemmerLinkage, "Petrel"],
            path: "Tests/PetrelTestSupport",
            swiftSettings: commonSwiftSettings
        ),
        .testTarget(
            name: "PetrelTests",
            dependencies: ["Petrel", "PetrelTestSupport", "PetrelGRDBSQLite"],
            swiftSettings: commonSwiftSettings
        ),
        .testTarget(
            name: "PetrelICUTests",
            dependencies: ["PetrelICU", "PetrelText", "PetrelTestSupport"],
            swiftSettings: commonSwiftSettings
        ),
        .testTarget(
            name: "PetrelIndexTests",
            dependencies: ["PetrelIndex", "PetrelTestSupport", .product(name: "PropertyBased", package: "swift-property-based")],
            // Expected outputs of petrel-search, the office documents of
            // OfficeExtractionTests and scripts that make test files, read
            // through #filePath.
            exclude: ["Golden", "Fixtures"],
            swiftSettings: commonSwiftSettings
        ),
        // PetrelPostgres against real PostgreSQL 15 servers the tests start
        // themselves (initdb and pg_ctl as an unprivileged user).
        .testTarget(
            name: "PetrelPostgresTests",
            dependencies: ["PetrelPostgres", "PetrelIndex", "PetrelTestSupport"],
            swiftSettings: commonSwiftSettings
        ),
        .testTarget(
            name: "PetrelCommandSupportTests",
            dependencies: ["PetrelCommandSupport", "PetrelSearchTool", "PetrelIndex", "PetrelTestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: commonSwiftSettings
        ),
        .testTarget(
            name: "PetrelServeTests",
            dependencies: ["PetrelServe", "PetrelIndex", "PetrelCommandSupport", "PetrelTestSupport"],
            // The Selenium script of the browser tests, run by python3.
            exclude: ["Browser"],
            swiftSettings: commonSwiftSettings
        ),
        .testTarget(
            name: "PetrelTextTests",
            dependencies: [stemmerLinkage, "PetrelText"],
            swiftSettings: commonSwiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
