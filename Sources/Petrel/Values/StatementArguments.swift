import CPetrelSQLite

/// The values bound to a statement's parameters: positional (`?`) and named
/// (`:name`, `$name`, `@name`).
///
/// ```swift
/// try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 1000])
/// try db.execute(sql: "INSERT INTO player (name, score) VALUES (:name, :score)",
///                arguments: ["name": "Arthur", "score": 1000])
/// ```
///
/// Named parameters that have no named value take the next positional value,
/// so both kinds can be mixed.
public struct StatementArguments: Hashable, Sendable, CustomStringConvertible,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Positional values, in order.
    @usableFromInline var values: [DatabaseValue]
    /// Named values, keyed by name without the prefix character.
    @usableFromInline var namedValues: [String: DatabaseValue]

    /// True when there is no value at all.
    public var isEmpty: Bool { values.isEmpty && namedValues.isEmpty }

    /// No arguments.
    public init() {
        values = []
        namedValues = [:]
    }

    /// Positional arguments.
    public init<S: Sequence>(_ sequence: S) where S.Element == (any DatabaseValueConvertible)? {
        values = sequence.map { $0?.databaseValue ?? .null }
        namedValues = [:]
    }

    /// Positional arguments from values of a single type.
    public init<S: Sequence>(_ sequence: S) where S.Element: DatabaseValueConvertible {
        values = sequence.map { $0.databaseValue }
        namedValues = [:]
    }

    /// Named arguments.
    public init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        values = []
        namedValues = dictionary.mapValues { $0?.databaseValue ?? .null }
    }

    /// Positional arguments from an array of any values; nil when an element
    /// is not ``DatabaseValueConvertible`` (or `NSNull`).
    public init?(_ array: [Any]) {
        var values: [DatabaseValue] = []
        values.reserveCapacity(array.count)
        for element in array {
            guard let value = DatabaseValue(value: element) else { return nil }
            values.append(value)
        }
        self.values = values
        namedValues = [:]
    }

    /// Named arguments from a dictionary of any values (an `NSDictionary`
    /// bridges to one); nil when a key is not a string or a value is not
    /// convertible.
    public init?(_ dictionary: [AnyHashable: Any]) {
        var named: [String: DatabaseValue] = [:]
        for (key, element) in dictionary {
            guard let key = key.base as? String, let value = DatabaseValue(value: element) else { return nil }
            named[key] = value
        }
        values = []
        namedValues = named
    }

    @inlinable
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        // Index-based access borrows each optional existential instead of
        // copying it out of the array, which costs a value-witness round trip.
        // A `switch` on each element opens the existential in place; optional
        // chaining (`elements[i]?.databaseValue`) copies the optional
        // existential through its value witnesses first, which measured
        // about 1.3x slower for the whole conversion.
        var values: [DatabaseValue] = []
        values.reserveCapacity(elements.count)
        for index in elements.indices {
            switch elements[index] {
            case .some(let element): values.append(element.databaseValue)
            case .none: values.append(.null)
            }
        }
        self.values = values
        namedValues = Dictionary()
    }

    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        values = []
        namedValues = Dictionary(elements.map { ($0.0, $0.1?.databaseValue ?? .null) }, uniquingKeysWith: { $1 })
    }

    /// Appends positional values and merges named values; on a name
    /// conflict the appended value wins, and the values it replaced are
    /// returned (as GRDB does).
    @discardableResult
    public mutating func append(contentsOf other: StatementArguments) -> [String: DatabaseValue] {
        values.append(contentsOf: other.values)
        var replaced: [String: DatabaseValue] = [:]
        for (name, value) in other.namedValues {
            if let old = namedValues.updateValue(value, forKey: name) { replaced[name] = old }
        }
        return replaced
    }

    /// Concatenation. Named arguments must not conflict (precondition).
    public static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result += rhs
        return result
    }

    /// Concatenation where the right-hand named values win on conflict.
    public static func &+ (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result.values.append(contentsOf: rhs.values)
        result.namedValues.merge(rhs.namedValues) { _, new in new }
        return result
    }

    /// Appends. Named arguments must not conflict (precondition).
    public static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
        let conflicts = lhs.append(contentsOf: rhs)
        precondition(conflicts.isEmpty, "Named arguments conflict: \(conflicts.keys.sorted())")
    }

    /// `["Arthur", 1000]`, `["name": "Arthur"]`, or both.
    public var description: String {
        let positional = values.map(\.description)
        let named = namedValues.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.description)" }
        return "[" + (positional + named).joined(separator: ", ") + "]"
    }

    // MARK: - Binding

    /// Values for each parameter of a statement, in parameter order, or the
    /// reason they do not fit.
    func resolve(for parameterNames: [String?]) -> Result<[DatabaseValue], ArgumentsMismatch> {
        var resolved: [DatabaseValue] = []
        resolved.reserveCapacity(parameterNames.count)
        var positional = values.makeIterator()
        var consumed = 0
        for name in parameterNames {
            if let name, let value = namedValues[name] {
                resolved.append(value)
            } else if let value = positional.next() {
                consumed += 1
                resolved.append(value)
            } else if let name {
                return .failure(.missingNamed(name))
            } else {
                return .failure(.count(given: values.count))
            }
        }
        if consumed < values.count {
            return .failure(.count(given: values.count))
        }
        return .success(resolved)
    }

    /// Removes and returns the leading positional values that a statement of a
    /// multi-statement string consumes.
    mutating func consume(for parameterNames: [String?]) -> Result<[DatabaseValue], ArgumentsMismatch> {
        var resolved: [DatabaseValue] = []
        var used = 0
        for name in parameterNames {
            if let name, let value = namedValues[name] {
                resolved.append(value)
            } else if used < values.count {
                resolved.append(values[used])
                used += 1
            } else if let name {
                return .failure(.missingNamed(name))
            } else {
                return .failure(.count(given: values.count))
            }
        }
        values.removeFirst(used)
        return .success(resolved)
    }
}

enum ArgumentsMismatch: Error {
    /// GRDB's message names the number of arguments given, not the
    /// number expected.
    case count(given: Int)
    case missingNamed(String)

    var message: String {
        switch self {
        case let .count(given):
            "wrong number of statement arguments: \(given)"
        case let .missingNamed(name):
            "missing statement argument: \(name)"
        }
    }
}

/// `databaseQuestionMarks(count: 3) // "?,?,?"`
public func databaseQuestionMarks(count: Int) -> String {
    Array(repeating: "?", count: max(0, count)).joined(separator: ",")
}
