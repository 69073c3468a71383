// The closures of requests and associations are those of
// `DerivableRequest` (DerivableRequest.swift); these change the fetched type
// or start from a record type.

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Replaces the selection and the fetched type: `select({ max($0.score) }, as: Int.self)`.
    public func select<T>(_ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T> {
        try select([selection(RowDecoder.databaseComponents)]).asRequest(of: T.self)
    }

    /// Replaces the selection with several values and the fetched type.
    public func select<T>(_ selection: (DatabaseComponents) throws -> [any SQLSelectable], as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T> {
        try select(selection(RowDecoder.databaseComponents)).asRequest(of: T.self)
    }
}

extension TableRecord {
    /// A request of the records where the predicate, built from the record's columns, is true:
    /// `Player.filter { $0.score > 1000 }`.
    public static func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> QueryInterfaceRequest<Self> {
        try all().filter(predicate)
    }
    /// A request of the records that selects a value built from the record's columns.
    public static func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> {
        try all().select(selection)
    }
    /// A request of the records that selects values built from the record's columns.
    public static func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> {
        try all().select(selection)
    }
    /// A request of values of type `T` built from the record's columns:
    /// `Player.select({ max($0.score) }, as: Int.self)`.
    public static func select<T>(_ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T> {
        try all().select(selection, as: type)
    }
    /// A request of values of type `T` built from several of the record's columns.
    public static func select<T>(_ selection: (DatabaseComponents) throws -> [any SQLSelectable], as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T> {
        try all().select(selection, as: type)
    }
    /// A request of the records with one more value built from their columns.
    public static func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> {
        try all().annotated(with: selection)
    }
    /// A request of the records with more values built from their columns.
    public static func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> {
        try all().annotated(with: selection)
    }
    /// A request of the records in an order built from their columns: `Player.order(\.score)`.
    public static func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> QueryInterfaceRequest<Self> {
        try all().order(ordering)
    }
    /// A request of the records in an order built from several of their columns.
    public static func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> QueryInterfaceRequest<Self> {
        try all().order(orderings)
    }
}
