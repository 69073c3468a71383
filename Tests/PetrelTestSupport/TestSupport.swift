import Foundation
import Petrel
import Testing

// Helpers shared by the test targets (a regular target, used only by tests).

/// Where a test database lives: tests run against both.
public enum StorageKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory
    case file

    public var testDescription: String { rawValue }
}

/// A temporary directory removed when the value is deinitialized.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("petrel-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A queue plus the directory that holds its file, kept alive together.
public struct TestDatabase {
    public let queue: DatabaseQueue
    public let directory: TemporaryDirectory
    public let path: String?

    public init(_ kind: StorageKind, configuration: Configuration = Configuration()) throws {
        directory = try TemporaryDirectory()
        switch kind {
        case .memory:
            path = nil
            queue = try DatabaseQueue(configuration: configuration)
        case .file:
            let path = directory.path("db.sqlite")
            self.path = path
            queue = try DatabaseQueue(path: path, configuration: configuration)
        }
    }
}

/// Runs `body` and returns the DatabaseError it throws, failing the test otherwise.
public func databaseError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> DatabaseError? {
    do {
        try body()
        Issue.record("expected a DatabaseError, got none", sourceLocation: sourceLocation)
    } catch let error as DatabaseError {
        return error
    } catch {
        Issue.record("expected a DatabaseError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Records the SQL of every statement a connection runs, for asserting
/// generated SQL character for character.
public final class SQLRecorder: @unchecked Sendable {
    public init() {}
    // Sendable invariant: `statements` is only touched under `lock`.
    private let lock = NSLock()
    private var statements: [String] = []

    public func start(_ db: Database) {
        db.trace { [self] event in
            if case .statement(let statement) = event {
                lock.withLock { statements.append(statement.sql) }
            }
        }
    }

    public var sql: [String] { lock.withLock { statements } }

    public func contains(_ sql: String) -> Bool { self.sql.contains(sql) }
}

/// Runs SQLite's integrity check on a full-text table.
public func checkIntegrity(_ db: Database, _ table: String) throws {
    try db.execute(sql: "INSERT INTO \(table.quotedDatabaseIdentifier)(\(table.quotedDatabaseIdentifier)) VALUES('integrity-check')")
}

/// A thread-safe list, for what callbacks on other threads collect.
public final class Collected<T: Sendable>: @unchecked Sendable {
    // Sendable invariant: `items` is only accessed under `lock`.
    private let lock = NSLock()
    private var items: [T] = []

    public init() {}

    public func append(_ item: T) { lock.withLock { items.append(item) } }

    public var all: [T] { lock.withLock { items } }
}

/// A tokenizer that gives its base's tokens through `tokenize` alone,
/// hiding any faster path the base offers (tokens as bytes): the reference
/// that tests of those paths compare with.
public struct TokensOnly<Base: TextTokenizer>: TextTokenizer {
    public let base: Base
    public init(_ base: Base) { self.base = base }
    public func tokenize(_ text: String, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        try base.tokenize(text, for: reason, emit: emit)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test when `available` holds. In CI (`CI` set), where the
    /// scripts install every prerequisite, the test runs regardless, so a
    /// missing prerequisite fails it instead of skipping it unseen.
    public static func requires(_ available: @autoclosure @escaping @Sendable () -> Bool, _ comment: Comment) -> Self {
        .enabled(comment) { available() || ProcessInfo.processInfo.environment["CI"] != nil }
    }
}

/// Writes an executable script (`#!/bin/sh` and `body`) at `path`.
///
/// The file is open (close-on-exec) only while it is written: a program
/// another test starts meanwhile does not inherit it, since a copy of a
/// descriptor open for writing, kept by a long-running process, would make
/// every run of the script fail with "Text file busy".
public func writeScript(_ body: String, to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    let bytes = Array(("#!/bin/sh\n" + body + "\n").utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    guard written == bytes.count, chmod(path, 0o755) == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
}

/// A small deterministic random generator (SplitMix64), so random tests repeat.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
