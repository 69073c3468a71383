// Requests written with closures over a record's columns:
// `Player.filter { $0.score > 1000 }.order(\.name).select { [$0.id, $0.name] }`.
// The closure receives the record's `DatabaseComponents` (its `Columns`
// enum by default); key paths into it work as closures.

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Keeps the rows that satisfy the predicate: `filter { $0.score > 1000 }`.
    public func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> Self {
        try filter(predicate(RowDecoder.databaseComponents).sqlExpression)
    }

    /// Replaces the selection with one value: `select { $0.name }`.
    public func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try select([selection(RowDecoder.databaseComponents)])
    }

    /// Replaces the selection: `select { [$0.id, $0.name] }`.
    public func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try select(selection(RowDecoder.databaseComponents))
    }

    /// Replaces the selection and the fetched type: `select({ max($0.score) }, as: Int.self)`.
    public func select<T>(_ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T> {
        try select([selection(RowDecoder.databaseComponents)]).asRequest(of: T.self)
    }

    /// Replaces the selection with several values and the fetched type.
    public func select<T>(_ selection: (DatabaseComponents) throws -> [any SQLSelectable], as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T> {
        try select(selection(RowDecoder.databaseComponents)).asRequest(of: T.self)
    }

    /// Appends a value to the selection.
    public func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try annotated(with: [selection(RowDecoder.databaseComponents)])
    }

    /// Appends values to the selection.
    public func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try annotated(with: selection(RowDecoder.databaseComponents))
    }

    /// Replaces the ordering: `order { $0.score.desc }` or `order(\.score)`.
    public func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        try order([ordering(RowDecoder.databaseComponents)])
    }

    /// Replaces the ordering with several terms.
    public func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        try order(orderings(RowDecoder.databaseComponents))
    }

    /// `GROUP BY` one expression.
    public func group(_ expression: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        try group([expression(RowDecoder.databaseComponents)])
    }

    /// `GROUP BY` several expressions.
    public func group(_ expressions: (DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
        try group(expressions(RowDecoder.databaseComponents))
    }

    /// `HAVING` a predicate.
    public func having(_ predicate: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        try having(predicate(RowDecoder.databaseComponents).sqlExpression)
    }
}

extension TableRecord {
    public static func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> QueryInterfaceRequest<Self> {
        try all().filter(predicate)
    }
    public static func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> {
        try all().select(selection)
    }
    public static func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> {
        try all().select(selection)
    }
    public static func select<T>(_ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T> {
        try all().select(selection, as: type)
    }
    public static func select<T>(_ selection: (DatabaseComponents) throws -> [any SQLSelectable], as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T> {
        try all().select(selection, as: type)
    }
    public static func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> {
        try all().annotated(with: selection)
    }
    public static func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> {
        try all().annotated(with: selection)
    }
    public static func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> QueryInterfaceRequest<Self> {
        try all().order(ordering)
    }
    public static func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> QueryInterfaceRequest<Self> {
        try all().order(orderings)
    }
}

extension Association where RowDecoder: TableRecord {
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Only the associated rows that satisfy the predicate.
    public func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> Self {
        try filter(predicate(RowDecoder.databaseComponents).sqlExpression)
    }

    /// Selects one value of the associated rows.
    public func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try select([selection(RowDecoder.databaseComponents)])
    }

    /// Selects these values of the associated rows.
    public func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try select(selection(RowDecoder.databaseComponents))
    }

    /// Appends a value to the associated rows.
    public func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try annotated(with: [selection(RowDecoder.databaseComponents)])
    }

    /// Appends values to the associated rows.
    public func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try annotated(with: selection(RowDecoder.databaseComponents))
    }

    /// Orders the associated rows.
    public func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        try order([ordering(RowDecoder.databaseComponents)])
    }

    /// Orders the associated rows by several terms.
    public func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        try order(orderings(RowDecoder.databaseComponents))
    }
}
