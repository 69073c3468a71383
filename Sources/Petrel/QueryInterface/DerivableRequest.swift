/// What requests and associations share: filters, orderings, selections
/// and associations. Extend it to write request methods once for both:
///
/// ```swift
/// extension DerivableRequest<Author> {
///     func filter(countryCode: String) -> Self {
///         filter(Column("countryCode") == countryCode)
///     }
///     func orderByName() -> Self {
///         order(Column("name").collating(.localizedCaseInsensitiveCompare))
///     }
/// }
/// let authors = try Author.all().filter(countryCode: "DE").orderByName().fetchAll(db)
/// let books = try Book.including(required: Book.author.filter(countryCode: "FR")).fetchAll(db)
/// ```
public protocol DerivableRequest<RowDecoder> {
    associatedtype RowDecoder

    /// Keeps the rows that satisfy the predicate.
    func filter(_ predicate: some SQLExpressible) -> Self
    /// Replaces the ordering.
    func order(_ orderings: [any SQLOrderingTerm]) -> Self
    /// Replaces the selection.
    func select(_ selection: [any SQLSelectable]) -> Self
    /// Appends to the selection.
    func annotated(with selection: [any SQLSelectable]) -> Self
    func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder
    func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder
    func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder
    func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder
    func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder
    func annotated<A: Association>(withRequired association: A) -> Self where A.OriginRowDecoder == RowDecoder
    func annotated<A: Association>(withOptional association: A) -> Self where A.OriginRowDecoder == RowDecoder
}

extension DerivableRequest {
    /// Replaces the ordering.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self { order(orderings) }

    /// Replaces the selection.
    public func select(_ selection: any SQLSelectable...) -> Self { select(selection) }

    /// Appends to the selection.
    public func annotated(with selection: any SQLSelectable...) -> Self { annotated(with: selection) }

    /// Keeps the rows that satisfy a raw SQL predicate.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQLExpression(sql: sql, arguments: arguments))
    }

    /// Keeps the rows that satisfy an SQL literal predicate.
    public func filter(literal: SQL) -> Self {
        filter(SQLExpression(literal: literal))
    }
}

extension QueryInterfaceRequest: DerivableRequest {
    /// Appends to the selection.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        var request = self
        request.selection += selection.map(\.sqlSelection)
        return request
    }
}
