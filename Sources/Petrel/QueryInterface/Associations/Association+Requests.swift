import Foundation

// MARK: - Using associations in requests

extension QueryInterfaceRequest {
    /// Fetches each row with its associated row, in the association's
    /// scope; rows without one are left out.
    ///
    /// ```swift
    /// struct BookInfo: Decodable, FetchableRecord { var book: Book; var author: Author }
    /// let infos = try Book.including(required: Book.author).asRequest(of: BookInfo.self).fetchAll(db)
    /// ```
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        adding(association._core, isRequired: true, includesColumns: true)
    }

    /// Fetches each row with its associated row when there is one (the
    /// scope holds NULLs otherwise, which decode as nil).
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        adding(association._core, isRequired: false, includesColumns: true)
    }

    /// Keeps the rows that have an associated row, without selecting it.
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        adding(association._core, isRequired: true, includesColumns: false)
    }

    /// Joins the associated rows (to filter or order on them) without
    /// leaving out the rows that have none.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        adding(association._core, isRequired: false, includesColumns: false)
    }

    /// Fetches each row with all its associated rows, fetched by one more
    /// query and decoded into an array property named after the key.
    ///
    /// ```swift
    /// struct AuthorInfo: Decodable, FetchableRecord { var author: Author; var books: [Book] }
    /// let infos = try Author.including(all: Author.books).asRequest(of: AuthorInfo.self).fetchAll(db)
    /// ```
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        var request = self
        request.prefetches.append(association._core)
        return request
    }

    /// The request with one more join: what every `including` and
    /// `joining` method, of requests and of associations, does.
    ///
    /// The same association (same key, same table) joined twice is joined
    /// once: required if either is, selected if either is, with the
    /// conditions of both. A through association joins as its pivot (with
    /// the target inside), so that the pivot included on its own too is
    /// the same join.
    func adding(_ core: _AssociationCore, isRequired: Bool, includesColumns: Bool, annotatesParent: Bool = false) -> Self {
        adding(core.throughJoin(isRequired: isRequired, includesColumns: includesColumns, annotatesParent: annotatesParent)
            ?? JoinSpec(core: core, isRequired: isRequired, includesColumns: includesColumns, annotatesParent: annotatesParent))
    }

    /// Adds a join, merged with a join of the same association if there is one.
    func adding(_ join: JoinSpec) -> Self {
        var request = self
        if let index = request.joins.firstIndex(where: { $0.canMerge(with: join) }) {
            request.joins[index] = request.joins[index].merged(with: join)
        } else {
            request.joins.append(join)
        }
        return request
    }

    /// Appends the columns the association selects to the selection, with
    /// no scope: `Player.annotated(withRequired: Player.team.select(Column("color")))`
    /// fetches `player.*, team.color`. Rows without an associated row are
    /// left out.
    public func annotated<A: Association>(withRequired association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        adding(association._core, isRequired: true, includesColumns: true, annotatesParent: true)
    }

    /// The same, keeping rows without an associated row (NULL columns).
    public func annotated<A: Association>(withOptional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        adding(association._core, isRequired: false, includesColumns: true, annotatesParent: true)
    }
}

extension TableRecord {
    /// A request of the records that have an associated row, each with it (`JOIN`).
    public static func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().including(required: association)
    }

    /// A request of the records, each with its associated row or nil (`LEFT JOIN`).
    public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().including(optional: association)
    }

    /// A request of the records that have an associated row, without selecting it (`JOIN`).
    public static func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().joining(required: association)
    }

    /// A request of the records, joined to the association without selecting it (`LEFT JOIN`).
    public static func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().joining(optional: association)
    }

    /// A request of the records, each with every row of the to-many association
    /// (fetched by a second request).
    public static func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().including(all: association)
    }

    /// A request of the records that have an associated row, with its selected columns (`JOIN`).
    public static func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().annotated(withRequired: association)
    }

    /// A request of the records, with the association's selected columns or NULLs (`LEFT JOIN`).
    public static func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().annotated(withOptional: association)
    }

    /// The rows associated with this record: `author.request(for: Author.books)`.
    ///
    /// For a through association, the destination table is joined to the
    /// pivots, from the last to the one that holds the record's key:
    /// `SELECT c.* FROM c JOIN b ON (b.cId = c.id) AND (b.aId = 1)`.
    public func request<A: Association>(for association: A) -> QueryInterfaceRequest<A.RowDecoder> where A.OriginRowDecoder == Self, Self: EncodableRecord {
        var request = association._core.request.asRequest(of: A.RowDecoder.self)
        let origin = (try? PersistenceContainer(self)) ?? PersistenceContainer()
        // The rows linked to the record by the first association of the
        // path: the destination's own, or the first pivot's.
        let path = association._core.path
        let linked = QueryFilter.associatedWith(core: path[0], origin: origin)
        guard let pivots = _AssociationCore.pivotJoins(path, refiningFirstPivot: { $0.filters.append(linked) }) else {
            request.filters.append(linked)
            return request
        }
        return request.adding(pivots)
    }
}
