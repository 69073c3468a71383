import Foundation

/// A custom SQL function or aggregate written in Swift.
///
/// ```swift
/// let succ = DatabaseFunction("succ", argumentCount: 1, pure: true) { dbValues in
///     Int.fromDatabaseValue(dbValues[0]).map { $0 + 1 }
/// }
/// db.add(function: succ)
/// try Int.fetchOne(db, sql: "SELECT succ(1)") // 2
/// ```
///
/// An error thrown by the function becomes an SQL error: a ``DatabaseError``
/// keeps its code and message, any other error reports its description.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/create_function.html>
public final class DatabaseFunction: Identifiable, Sendable {
    /// Functions are identified by name (case-insensitive) and argument count.
    public struct ID: Hashable, Sendable {
        let name: String
        let argumentCount: CInt
    }

    /// The SQL name of the function.
    public let name: String

    public var id: ID { ID(name: name.lowercased(), argumentCount: nArg) }

    let nArg: CInt
    let isPure: Bool
    let kind: Kind

    enum Kind: Sendable {
        case function(@Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
        case aggregate(@Sendable () -> any DatabaseAggregate)
    }

    /// Creates a function.
    ///
    /// - Parameters:
    ///   - name: The SQL name.
    ///   - argumentCount: The number of arguments; nil (the default) accepts any number.
    ///   - pure: True when the result depends only on the arguments, so that
    ///     SQLite may use the function in indexes and factor calls out
    ///     (`SQLITE_DETERMINISTIC`).
    ///   - function: The implementation; nil results are NULL.
    public init(
        _ name: String, argumentCount: Int? = nil, pure: Bool = false,
        function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?
    ) {
        self.name = name
        nArg = argumentCount.map { CInt($0) } ?? -1
        isPure = pure
        kind = .function(function)
    }

    /// Creates an aggregate: a fresh `Aggregate()` accumulates each group.
    ///
    /// ```swift
    /// struct MySum: DatabaseAggregate {
    ///     var sum = 0
    ///     mutating func step(_ dbValues: [DatabaseValue]) { sum += Int.fromDatabaseValue(dbValues[0]) ?? 0 }
    ///     func finalize() -> (any DatabaseValueConvertible)? { sum }
    /// }
    /// db.add(function: DatabaseFunction("mySum", argumentCount: 1, aggregate: MySum.self))
    /// ```
    public init<Aggregate: DatabaseAggregate>(
        _ name: String, argumentCount: Int? = nil, pure: Bool = false, aggregate: Aggregate.Type
    ) {
        self.name = name
        nArg = argumentCount.map { CInt($0) } ?? -1
        isPure = pure
        kind = .aggregate { Aggregate() }
    }
}

/// The state of an aggregate function over one group of rows. See
/// ``DatabaseFunction/init(_:argumentCount:pure:aggregate:)``.
public protocol DatabaseAggregate: SendableMetatype {
    /// A new, empty aggregation.
    init()

    /// Accumulates the arguments of one row.
    mutating func step(_ dbValues: [DatabaseValue]) throws

    /// The result of the aggregation; nil is NULL.
    func finalize() throws -> (any DatabaseValueConvertible)?
}

extension DatabaseFunction {
    private static func stringFunction(_ name: String, _ transform: @escaping @Sendable (String) -> String) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: 1, pure: true) { dbValues in
            guard case .string(let string) = dbValues[0].storage else { return nil }
            return transform(string)
        }
    }

    /// `swiftCapitalizedString(x)`: Swift's `String.capitalized`.
    public static let capitalize = stringFunction("swiftCapitalizedString") { $0.capitalized }
    /// `swiftLowercaseString(x)`: Swift's `String.lowercased()`.
    public static let lowercase = stringFunction("swiftLowercaseString") { $0.lowercased() }
    /// `swiftUppercaseString(x)`: Swift's `String.uppercased()`.
    public static let uppercase = stringFunction("swiftUppercaseString") { $0.uppercased() }
    /// `swiftLocalizedCapitalizedString(x)`: `String.localizedCapitalized` (current locale).
    public static let localizedCapitalize = stringFunction("swiftLocalizedCapitalizedString") { $0.localizedCapitalized }
    /// `swiftLocalizedLowercaseString(x)`: `String.localizedLowercase` (current locale).
    public static let localizedLowercase = stringFunction("swiftLocalizedLowercaseString") { $0.localizedLowercase }
    /// `swiftLocalizedUppercaseString(x)`: `String.localizedUppercase` (current locale).
    public static let localizedUppercase = stringFunction("swiftLocalizedUppercaseString") { $0.localizedUppercase }

    /// Registered on every connection, under the names GRDB uses, so that
    /// schemas and queries written for GRDB work here.
    static let builtIns: [DatabaseFunction] = [
        capitalize, lowercase, uppercase, localizedCapitalize, localizedLowercase, localizedUppercase,
        FTS4BM25.function,
    ]
}

/// A string comparison function usable in SQL (`COLLATE name`).
///
/// ```swift
/// let collation = DatabaseCollation("localized_standard") { $0.localizedStandardCompare($1) }
/// db.add(collation: collation)
/// try db.execute(sql: "CREATE TABLE file (name TEXT COLLATE localized_standard)")
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/create_collation.html>
public final class DatabaseCollation: Identifiable, Sendable {
    /// Collations are identified by name, case-insensitively.
    public struct ID: Hashable, Sendable {
        let lowercasedName: String
    }

    /// The SQL name of the collation.
    public let name: String

    public var id: ID { ID(lowercasedName: name.lowercased()) }

    let compare: @Sendable (String, String) -> ComparisonResult

    /// Creates a collation from a comparison function.
    public init(_ name: String, function: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        compare = function
    }

    /// `swiftCompare`: Swift's unicode-aware `<` and `==` on `String`.
    public static let unicodeCompare = DatabaseCollation("swiftCompare") { lhs, rhs in
        lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
    }
    /// `swiftCaseInsensitiveCompare`: `String.caseInsensitiveCompare`.
    public static let caseInsensitiveCompare = DatabaseCollation("swiftCaseInsensitiveCompare") {
        $0.caseInsensitiveCompare($1)
    }
    /// `swiftLocalizedCaseInsensitiveCompare`: `String.localizedCaseInsensitiveCompare`.
    public static let localizedCaseInsensitiveCompare = DatabaseCollation("swiftLocalizedCaseInsensitiveCompare") {
        $0.localizedCaseInsensitiveCompare($1)
    }
    /// `swiftLocalizedCompare`: `String.localizedCompare`.
    public static let localizedCompare = DatabaseCollation("swiftLocalizedCompare") {
        $0.localizedCompare($1)
    }
    /// `swiftLocalizedStandardCompare`: `String.localizedStandardCompare` (numbers compare by value).
    public static let localizedStandardCompare = DatabaseCollation("swiftLocalizedStandardCompare") {
        $0.localizedStandardCompare($1)
    }

    static let builtIns: [DatabaseCollation] = [
        unicodeCompare, caseInsensitiveCompare, localizedCaseInsensitiveCompare, localizedCompare,
        localizedStandardCompare,
    ]
}

extension Database {
    /// The name of a collation known to SQLite.
    public struct CollationName: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `BINARY`: byte order.
        public static let binary = CollationName(rawValue: "BINARY")
        /// `NOCASE`: ASCII case-insensitive.
        public static let nocase = CollationName(rawValue: "NOCASE")
        /// `RTRIM`: ignores trailing spaces.
        public static let rtrim = CollationName(rawValue: "RTRIM")
    }

    /// Rebuilds the indexes that use a collation (`REINDEX`).
    public func reindex(collation: CollationName) throws {
        // A plain name is written bare, as SQLite's documentation writes it.
        let name = collation.rawValue
        let isPlain = name.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        try execute(sql: "REINDEX \(isPlain ? name : name.quotedDatabaseIdentifier)")
    }

    /// Rebuilds the indexes that use a collation (`REINDEX`).
    public func reindex(collation: DatabaseCollation) throws {
        try reindex(collation: CollationName(rawValue: collation.name))
    }
}
