import Foundation

/// Decodes a Decodable record from a row: each coding key names a column.
/// Values that are ``DatabaseValueConvertible`` decode from their column;
/// other Decodable values decode from JSON stored in their column.
struct RowDecoder<Record: FetchableRecord>: Decoder {
    let row: Row
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // The records of a fetch are read from one live row: the state of
        // the last one serves the next (the same columns, the same record
        // type), and its column hint carries over.
        if codingPath.isEmpty, let kept = row.keyedDecodingState, kept.recordType == ObjectIdentifier(Record.self) {
            return KeyedDecodingContainer(KeyedContainer<Key>(state: kept))
        }
        let strategy = Record.databaseColumnDecodingStrategy
        let state = KeyedContainerState(
            row: row, codingPath: codingPath, snakeCase: strategy.convertsFromSnakeCase, customColumns: strategy.columnsByKey(in: row),
            recordType: ObjectIdentifier(Record.self))
        if codingPath.isEmpty, row.keepsDecodingState { row.keyedDecodingState = state }
        return KeyedDecodingContainer(KeyedContainer<Key>(state: state))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: codingPath, debugDescription: "a row decodes into a keyed container"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            Record.self, .init(codingPath: codingPath, debugDescription: "a row decodes into a keyed container"))
    }

    /// Reads columns through `row` and `column(for:)`, which need no
    /// metadata of the generic decoder: in unspecialized code, every call
    /// into `RowDecoder<Record>` would look its metadata up again.
    ///
    /// The standard library copies the container for every decoded value,
    /// through the value witnesses of this generic type: the container is
    /// one reference, to what its copies share, so that a copy is a retain.
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let state: KeyedContainerState
        var row: Row { state.row }
        var codingPath: [any CodingKey] { state.codingPath }

        var decoder: RowDecoder { RowDecoder(row: row, codingPath: codingPath) }

        func column(for key: Key) -> String {
            if let customColumns = state.customColumns { return customColumns[key.stringValue] ?? key.stringValue }
            return state.snakeCase ? snakeCased(key.stringValue) : key.stringValue
        }

        var allKeys: [Key] {
            if let customColumns = state.customColumns { return customColumns.keys.compactMap { Key(stringValue: $0) } }
            return row.columnNames.compactMap { Key(stringValue: $0) }
        }

        func contains(_ key: Key) -> Bool {
            row.hasColumn(column(for: key)) || scope(for: key) != nil || row.prefetchedRows[key.stringValue] != nil
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let index = row.index(forColumn: column(for: key)) else {
                // A scope of NULLs (an outer join that found nothing) is nil.
                if let scope = scope(for: key) { return !scope.containsNonNullValue }
                // Prefetched rows (even none) are a value: an empty array.
                return row.prefetchedRows[key.stringValue] == nil
            }
            return row.hasNull(atIndex: index)
        }

        /// The scope (named sub-row) a key decodes from, when the row has
        /// no column of that name: the shallowest of that name.
        func scope(for key: Key) -> Row? {
            guard !row.scopeRows.isEmpty else { return nil }
            return row.scopes[key.stringValue] ?? row.scopesTree[key.stringValue]
        }


        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decodeAny(type, forKey: key)
        }

        private func decodeAny<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let column = column(for: key)
            guard let index = row.index(forColumn: column) else {
                return try decodeMissingColumn(T.self, forKey: key, column: column)
            }
            let dbValue = row.databaseValue(atUncheckedIndex: index)
            if T.self == Date.self || T.self == Data.self {
                let decoded: Any? = T.self == Date.self
                    ? Record.databaseDateDecodingStrategy(for: column).decode(dbValue)
                    : Record.databaseDataDecodingStrategy(for: column).decode(dbValue)
                if let value = decoded as? T { return value }
                throw valueError(T.self, dbValue, key: key, column: column)
            }
            if let convertible = T.self as? any DatabaseValueConvertible.Type {
                if let value = convertible.fromDatabaseValue(dbValue) as? T { return value }
                throw valueError(T.self, dbValue, key: key, column: column)
            }
            // A nested value: JSON in the column, or the single value of a
            // type that decodes itself from one (a wrapper, a raw-representable
            // enum), as the encoder stores it.
            let jsonDecoder = Record.databaseJSONDecoder(for: column)
            switch dbValue.storage {
            case .string(let text):
                do {
                    return try jsonDecoder.decode(T.self, from: Data(text.utf8))
                } catch {
                    guard let fragment = try? JSONEncoder().encode(text), let value = try? jsonDecoder.decode(T.self, from: fragment) else {
                        throw error
                    }
                    return value
                }
            case .blob(let blob):
                return try jsonDecoder.decode(T.self, from: blob)
            case .int64(let integer):
                return try jsonDecoder.decode(T.self, from: Data(String(integer).utf8))
            case .double(let double):
                guard double.isFinite else {
                    throw DecodingError.typeMismatch(T.self, .init(codingPath: codingPath + [key], debugDescription: "column \(column) does not hold JSON"))
                }
                return try jsonDecoder.decode(T.self, from: Data("\(double)".utf8))
            case .null:
                throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath + [key], debugDescription: "column \(column) is NULL"))
            }
        }

        private func valueError<T>(_ type: T.Type, _ dbValue: DatabaseValue, key: Key, column: String) -> DecodingError {
            if dbValue.isNull {
                return DecodingError.valueNotFound(T.self, .init(codingPath: codingPath + [key], debugDescription: "column \(column) is NULL"))
            }
            return DecodingError.typeMismatch(T.self, .init(
                codingPath: codingPath + [key], debugDescription: "could not decode \(T.self) from \(dbValue) in column \(column)"))
        }

        /// A key with no column: a scope, prefetched rows, the row itself
        /// for a nested record, or a missing value.
        private func decodeMissingColumn<T: Decodable>(_ type: T.Type, forKey key: Key, column: String) throws -> T {
            if let scope = scope(for: key) {
                return try RowDecoder.decodeNested(T.self, from: scope, codingPath: codingPath + [key])
            }
            if let rows = row.prefetchedRows[key.stringValue] {
                // An array (or set) of the rows of `including(all:)`.
                return try T(from: PrefetchedRowsDecoder<Record>(rows: rows, codingPath: codingPath + [key]))
            }
            if let convertible = T.self as? any DatabaseValueConvertible.Type {
                if let missing = convertible.fromMissingColumn() as? T { return missing }
            } else if let recordType = T.self as? any FetchableRecord.Type, let record = try makeRecord(recordType, row) as? T {
                // A record with no column, scope or prefetch of its name is
                // the row itself: `var book: Book` beside its scopes.
                return record
            }
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no such column: \(column)"))
        }

        // The built-in types read straight from the statement, skipping
        // the dynamic casts of the generic path (which reports errors).
        @inline(__always)
        private func fast<T: DatabaseValueConvertible & StatementColumnConvertible & ColumnDecodingHandlesNull & Decodable>(
            _ type: T.Type, _ key: Key
        ) throws -> T {
            // A live row, keys as column names: one lookup in the
            // statement's names (from where the last one matched), one read.
            // Only the state's own fields are read: reaching through the
            // statement object retained and released it for every value.
            if let sqliteStatement = state.sqliteStatement {
                if let index = state.columnIndex(key.stringValue),
                   let value = T(sqliteStatement: sqliteStatement, index: CInt(index)) {
                    return value
                }
                return try decodeAny(T.self, forKey: key)
            }
            if let index = row.index(forColumn: column(for: key)),
               let value = row.convertedValue(atUncheckedIndex: index, as: T.self) {
                return value
            }
            // NULL or not convertible: the generic path throws the right
            // DecodingError.
            return try decodeAny(T.self, forKey: key)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try fast(type, key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try fast(type, key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try fast(type, key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try fast(type, key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try fast(type, key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try fast(type, key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try fast(type, key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try fast(type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try fast(type, key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try fast(type, key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try fast(type, key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try fast(type, key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try fast(type, key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try fast(type, key) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(
                [String: Any].self, .init(codingPath: codingPath + [key], debugDescription: "nested containers are decoded from JSON columns"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                [Any].self, .init(codingPath: codingPath + [key], debugDescription: "nested containers are decoded from JSON columns"))
        }

        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }
}

/// What the copies of a ``RowDecoder/KeyedContainer`` share: the row, the
/// coding path, and how keys name columns.
final class KeyedContainerState {
    let row: Row
    let codingPath: [any CodingKey]
    let snakeCase: Bool
    /// For a `.custom` column strategy: the column of each key.
    let customColumns: [String: String]?
    /// The statement whose current row is `row`, when keys name their
    /// columns as they are: built-in values then read straight from it.
    let statement: Statement?
    /// The statement's handle, alive as long as `statement` is.
    let sqliteStatement: SQLiteStatement?
    /// The statement's column names when each is unique whatever its case:
    /// an exact match is then the column.
    let exactNames: [String]
    /// Where the next key's column is looked for first: keys usually come
    /// in the order of the columns.
    var nextColumn = 0
    /// The record type whose strategies made this state.
    let recordType: ObjectIdentifier

    init(row: Row, codingPath: [any CodingKey], snakeCase: Bool, customColumns: [String: String]?, recordType: ObjectIdentifier) {
        (self.row, self.codingPath, self.snakeCase, self.customColumns) = (row, codingPath, snakeCase, customColumns)
        self.recordType = recordType
        let statement = snakeCase || customColumns != nil ? nil : row.statement
        self.statement = statement
        sqliteStatement = statement?.sqliteStatement
        if let statement {
            // Reading the names first tells whether two differ by case only.
            let names = statement.columnNames
            exactNames = statement.namesDifferOnlyByCase ? [] : names
        } else {
            exactNames = []
        }
    }

    /// The index of the column a key names (see ``Statement/index(ofColumn:)``).
    @inline(__always)
    func columnIndex(_ name: String) -> Int? {
        let next = nextColumn
        if next < exactNames.count, exactNames[next] == name {
            nextColumn = next + 1 == exactNames.count ? 0 : next + 1
            return next
        }
        return statement?.index(ofColumn: name)
    }
}

extension DatabaseColumnDecodingStrategy {
    /// For `.custom`: the column each key names in `row` (the first
    /// column that gives a key); nil for the other strategies.
    func columnsByKey(in row: Row) -> [String: String]? {
        guard case .custom(let key) = self else { return nil }
        var columns: [String: String] = [:]
        for column in row.columnNames {
            let name = key(column).stringValue
            if columns[name] == nil { columns[name] = column }
        }
        return columns
    }

    var convertsFromSnakeCase: Bool {
        if case .convertFromSnakeCase = self { return true }
        return false
    }
}

/// `playerID` → `player_id`, `homeURL` → `home_url`.
func snakeCased(_ key: String) -> String {
    var result = ""
    let characters = Array(key)
    for (index, character) in characters.enumerated() {
        if character.isUppercase {
            let previousIsLower = index > 0 && characters[index - 1].isLowercase
            let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
            if index > 0 && (previousIsLower || (nextIsLower && characters[index - 1].isUppercase)) {
                result += "_"
            }
            result += character.lowercased()
        } else {
            result.append(character)
        }
    }
    return result
}

extension RowDecoder {
    /// A value decoded from a whole row (a scope, a prefetched row):
    /// through its own `init(row:)` when it is a FetchableRecord, else as a
    /// Decodable value with this record's strategies.
    static func decodeNested<T: Decodable>(_ type: T.Type, from row: Row, codingPath: [any CodingKey]) throws -> T {
        if let recordType = T.self as? any FetchableRecord.Type, let record = try makeRecord(recordType, row) as? T {
            return record
        }
        return try T(from: RowDecoder(row: row, codingPath: codingPath))
    }
}

/// `R(row:)` for a record type known only at run time.
private func makeRecord<R: FetchableRecord>(_ type: R.Type, _ row: Row) throws -> R {
    try R(row: row)
}

/// How ``PrefetchedRowsDecoder`` makes the elements of one type. Outside
/// the generic decoder, so that using it instantiates no generic metadata.
enum PrefetchedElementKind {
    /// One selected value, from the first column.
    case value(any DatabaseValueConvertible.Type)
    /// A record, through its `init(row:)`.
    case record(any FetchableRecord.Type)
    /// Any other Decodable, from the row's columns.
    case decodable
}

/// Decodes the rows of a to-many association as an array or a set.
struct PrefetchedRowsDecoder<Record: FetchableRecord>: Decoder {
    let rows: [Row]
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch([Row].self, .init(codingPath: codingPath, debugDescription: "prefetched rows decode as an array or a set"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        RowsContainer(rows: rows, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch([Row].self, .init(codingPath: codingPath, debugDescription: "prefetched rows decode as an array or a set"))
    }

    struct RowsContainer: UnkeyedDecodingContainer {
        let rows: [Row]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        /// How elements of the last type decoded are made, found once per
        /// array: the casts that tell it cost two protocol-conformance
        /// lookups per element.
        var elementType: ObjectIdentifier?
        var elementKind = PrefetchedElementKind.decodable

        private mutating func kind<T>(of type: T.Type) -> PrefetchedElementKind {
            if elementType == ObjectIdentifier(T.self) { return elementKind }
            let kind: PrefetchedElementKind = if let convertible = T.self as? any DatabaseValueConvertible.Type {
                .value(convertible)
            } else if let recordType = T.self as? any FetchableRecord.Type {
                .record(recordType)
            } else {
                .decodable
            }
            (elementType, elementKind) = (ObjectIdentifier(T.self), kind)
            return kind
        }
        var count: Int? { rows.count }
        var isAtEnd: Bool { currentIndex >= rows.count }

        mutating func decodeNil() throws -> Bool { false }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath, debugDescription: "no more prefetched rows"))
            }
            let row = rows[currentIndex]
            currentIndex += 1
            switch kind(of: T.self) {
            case .value(let convertible):
                // Rows of one selected value (`including(all: ...select(column))`)
                // decode as that value, from the first column.
                let dbValue = row.count > 0 ? row.databaseValue(atUncheckedIndex: 0) : .null
                guard let value = convertible.fromDatabaseValue(dbValue) as? T else {
                    throw DecodingError.typeMismatch(T.self, .init(
                        codingPath: codingPath, debugDescription: "could not decode \(T.self) from \(dbValue) in a prefetched row"))
                }
                return value
            case .record(let recordType):
                if let record = try makeRecord(recordType, row) as? T { return record }
                return try T(from: RowDecoder<Record>(row: row, codingPath: codingPath))
            case .decodable:
                return try T(from: RowDecoder<Record>(row: row, codingPath: codingPath))
            }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(Row.self, .init(codingPath: codingPath, debugDescription: "prefetched rows hold records"))
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(Row.self, .init(codingPath: codingPath, debugDescription: "prefetched rows hold records"))
        }

        mutating func superDecoder() throws -> any Decoder {
            throw DecodingError.typeMismatch(Row.self, .init(codingPath: codingPath, debugDescription: "prefetched rows hold records"))
        }
    }
}
