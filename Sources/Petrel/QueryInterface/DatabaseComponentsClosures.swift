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
