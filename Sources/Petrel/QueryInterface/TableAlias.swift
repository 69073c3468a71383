import Foundation

/// A name for a table in a statement, to refer to its columns: the
/// `excluded` row of an upsert, or a table of your own SQL.
///
/// ```swift
/// let upserted = try player.upsertAndFetch(db, updating: .noColumnUnlessSpecified) { excluded in
///     [Column("score").set(to: Column("score") + excluded[Column("score")])]
/// }
/// ```
@dynamicMemberLookup
public final class TableAlias<RowDecoder>: Sendable {
    /// The alias; nil lets the request choose one (the table name when
    /// it is free). Not public: `alias.name` is the `name` column of a
    /// record's alias.
    let aliasName: String?
    /// What columns of the alias are qualified with until the request
    /// that uses the alias compiles: the name, or a placeholder.
    let token: String

    /// An alias of any table: `TableAlias(name: "p")`.
    public init(name: String? = nil) where RowDecoder == Void {
        self.aliasName = name
        token = name ?? AliasToken.make()
    }

    /// The same alias, untyped (typed and untyped aliases of one token
    /// name the same table).
    init(token: String, aliasName: String?) where RowDecoder == Void {
        self.aliasName = aliasName
        self.token = token
    }

    /// An alias for a record type's table, whose columns can be read
    /// through key paths: `TableAlias<Player>().score`.
    public init(name: String? = nil, for type: RowDecoder.Type = RowDecoder.self) {
        self.aliasName = name
        token = name ?? AliasToken.make()
    }

    /// A column of the aliased table: `"alias"."column"`.
    public subscript(_ column: String) -> SQLExpression {
        var expression = SQLExpression(sql: SQL(elements: [.column(column, qualifier: token)]), isTerm: true)
        expression.columnName = column
        return expression
    }

    /// An expression whose columns are those of the aliased table:
    /// `alias[Column("score") + 1]` is `"alias"."score" + 1`.
    public subscript(_ expression: some SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm) -> SQLExpression {
        expression.sqlExpression.qualified(with: token)
    }

    /// A JSON expression whose columns are those of the aliased table:
    /// `alias[JSONColumn("info")]["score"]` is `"alias"."info" ->> 'score'`.
    public subscript(_ expression: some SQLJSONExpressible & SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm)
        -> AnySQLJSONExpressible
    {
        AnySQLJSONExpressible(sqlExpression: expression.sqlExpression.qualified(with: token))
    }

    /// A selection whose columns are those of the aliased table:
    /// `alias[AllColumns()]` is `"alias".*`.
    public subscript(_ selectable: some SQLSelectable) -> SQLSelection {
        let selection = selectable.sqlSelection
        var qualified = SQLSelection(sql: selection.sql.qualified(with: token), isAggregate: selection.isAggregate)
        qualified.excludedColumns = selection.excludedColumns
        return qualified
    }

    /// An ordering on the columns of the aliased table: `alias[Column("score").desc]`.
    public subscript(_ ordering: some SQLOrderingTerm) -> SQLOrdering {
        let ordering = ordering.sqlOrdering
        return SQLOrdering(sql: ordering.sql.qualified(with: token), reversedSQL: ordering.reversedSQL?.qualified(with: token))
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// What the alias's closures receive: the record's columns.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// A column of the record, qualified: `alias.score`.
    public subscript<T: SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm>(
        dynamicMember keyPath: KeyPath<DatabaseComponents, T>
    ) -> SQLExpression {
        self[RowDecoder.databaseComponents[keyPath: keyPath]]
    }

    /// A JSON column of the record, qualified: `alias.info["score"]`.
    public subscript<T: SQLJSONExpressible & SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm>(
        dynamicMember keyPath: KeyPath<DatabaseComponents, T>
    ) -> AnySQLJSONExpressible {
        self[RowDecoder.databaseComponents[keyPath: keyPath]]
    }

    /// A selectable of the record, qualified.
    public subscript<T: SQLSelectable>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>) -> SQLSelection {
        self[RowDecoder.databaseComponents[keyPath: keyPath]]
    }

    /// An ordering of the record, qualified.
    public subscript<T: SQLOrderingTerm>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>) -> SQLOrdering {
        self[RowDecoder.databaseComponents[keyPath: keyPath]]
    }
}

/// Placeholders for unnamed aliases: replaced by the alias the request
/// chooses when it compiles.
enum AliasToken {
    static let prefix = "\u{1}petrel-alias-"

    static func make() -> String {
        prefix + UUID().uuidString
    }
}

/// `TableAlias().exists`: the primary key of the alias's table is unknown
/// until a request that uses the alias compiles, so the test is written
/// with placeholder columns, resolved then. SQL built without a request
/// tests the rowid.
enum PrimaryKeyPlaceholder {
    static let exists = "\u{1}petrel-exists"
    static let absent = "\u{1}petrel-absent"

    /// For a placeholder column: whether it tests that a row exists (true)
    /// or is absent (false); nil for any other column.
    static func polarity(of column: String) -> Bool? {
        switch column {
        case exists: true
        case absent: false
        default: nil
        }
    }

    /// The columns that tell whether a row of the table exists, as GRDB
    /// tests them: the INTEGER PRIMARY KEY, else the rowid, else (WITHOUT
    /// ROWID) every primary key column; every column of a view that has
    /// no primary key; the rowid for a table the schema does not know (a
    /// common table expression named as it).
    static func keyColumns(_ table: String, _ db: Database) -> [String] {
        if let columns = try? db.primaryKey(table).fastColumns, !columns.isEmpty { return columns }
        // A view without a primary key (no schema source gives one): all
        // of its columns.
        if (try? db.viewExists(table)) == true, let columns = try? db.columns(in: table), !columns.isEmpty {
            return columns.map(\.name)
        }
        return ["rowid"]
    }

    /// Whether an outer join found a row: some key column is not NULL
    /// (`a IS NOT NULL OR b IS NOT NULL`), or, for `exists: false`, every
    /// one is NULL (`a IS NULL AND b IS NULL`).
    static func test(exists: Bool, of columns: [String], qualifier: String?) -> SQL {
        let tests = columns.map { column in
            SQL(elements: [.column(column, qualifier: qualifier)]) + SQL(sql: exists ? " IS NOT NULL" : " IS NULL")
        }
        if tests.count == 1 { return tests[0] }
        return tests.map { "(" + $0 + ")" }.joined(separator: exists ? " OR " : " AND ")
    }
}

extension SQL {
    /// The same SQL with the existence placeholders of each alias replaced
    /// by tests of its table's primary key.
    func resolvingPrimaryKeys(of aliasTables: [String: String], _ db: Database) -> SQL {
        func polarity(_ element: Element) -> Bool? {
            guard case .column(let name, _) = element else { return nil }
            return PrimaryKeyPlaceholder.polarity(of: name)
        }
        guard elements.contains(where: { polarity($0) != nil }) else { return self }
        var result: [Element] = []
        for element in elements {
            guard let exists = polarity(element), case .column(_, let qualifier) = element else {
                result.append(element)
                continue
            }
            let columns = qualifier.flatMap { aliasTables[$0] }.map { PrimaryKeyPlaceholder.keyColumns($0, db) } ?? ["rowid"]
            result += PrimaryKeyPlaceholder.test(exists: exists, of: columns, qualifier: qualifier).elements
        }
        return SQL(elements: result)
    }

    /// The same SQL with the columns of an alias unqualified, outside
    /// subqueries (still unresolved) and existence placeholders (which
    /// need the alias to find their table).
    func unqualifying(_ token: String) -> SQL {
        SQL(elements: elements.map { element in
            switch element {
            case .column(let column, token?) where PrimaryKeyPlaceholder.polarity(of: column) == nil:
                return .column(column, qualifier: nil)
            case .allColumns(token?):
                return .allColumns(qualifier: nil)
            default:
                return element
            }
        })
    }

    /// The same SQL with alias placeholders (and names) replaced.
    func renamingQualifiers(_ names: [String: String]) -> SQL {
        guard !names.isEmpty else { return self }
        return SQL(elements: elements.map { element in
            switch element {
            case .column(let column, let qualifier?):
                return .column(column, qualifier: names[qualifier] ?? qualifier)
            case .allColumns(let qualifier?):
                return .allColumns(qualifier: names[qualifier] ?? qualifier)
            default:
                return element
            }
        })
    }
}

extension QueryInterfaceRequest {
    /// Names the request's table with an untyped alias.
    public func aliased(_ alias: TableAlias<Void>) -> Self {
        var request = self
        request.alias = (alias.token, alias.aliasName)
        return request
    }
}

extension TableRecord {
    /// All records, their table named with an alias.
    public static func aliased(_ alias: TableAlias<Self>) -> QueryInterfaceRequest<Self> {
        all().aliased(alias)
    }

    /// All records, their table named with an untyped alias.
    public static func aliased(_ alias: TableAlias<Void>) -> QueryInterfaceRequest<Self> {
        all().aliased(alias)
    }
}

extension Association {
    /// Names the associated table with an untyped alias.
    public func aliased(_ alias: TableAlias<Void>) -> Self {
        var association = self
        association._core.request.alias = (alias.token, alias.aliasName)
        return association
    }
}

extension SQLExpression {
    /// The same expression, its columns qualified with an alias (or an
    /// alias placeholder); what it is (a column, JSON, an aggregate) stays.
    func qualified(with qualifier: String) -> SQLExpression {
        var result = SQLExpression(sql: sql.qualified(with: qualifier), isTerm: isTerm)
        result.columnName = columnName
        result.isAggregate = isAggregate
        result.jsonInterpretation = jsonInterpretation
        result.chain = chain.map { Chain(op: $0.op, operands: $0.operands.map { $0.qualified(with: qualifier) }) }
        return result
    }
}

extension TableAlias {
    /// True when the aliased table has a row: for `joining(optional:)`
    /// associations, `filter(alias.exists)` keeps rows that found one.
    ///
    /// The test is on the INTEGER PRIMARY KEY of the alias's table
    /// (`"author"."id" IS NOT NULL`), else its rowid, else, for a table
    /// WITHOUT ROWID, every column of its primary key: the record type's
    /// table, or for an untyped alias the table of the request that uses
    /// it.
    public var exists: SQLExpression {
        let token = token
        guard let record = RowDecoder.self as? any TableRecord.Type else {
            // An untyped alias learns its table from the request that uses
            // it: placeholders the compiled request resolves.
            return SQLExpression(
                sql: SQL(elements: [.column(PrimaryKeyPlaceholder.exists, qualifier: token)]), isTerm: false,
                negation: SQL(elements: [.column(PrimaryKeyPlaceholder.absent, qualifier: token)]))
        }
        let table = record.databaseTableName
        func test(_ exists: Bool) -> SQL {
            SQL(elements: [.subquery(DeferredSQL(make: { db in
                PrimaryKeyPlaceholder.test(exists: exists, of: PrimaryKeyPlaceholder.keyColumns(table, db), qualifier: token)
            }, parenthesized: false))])
        }
        return SQLExpression(sql: test(true), isTerm: false, negation: test(false))
    }
}
