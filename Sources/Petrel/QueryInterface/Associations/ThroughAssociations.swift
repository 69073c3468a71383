import Foundation

// MARK: - Through associations

/// A to-many association through another: an author has many publishers
/// through her books.
public struct HasManyThroughAssociation<Origin, Destination>: AssociationToMany {
    /// The type of the rows the association starts from.
    public typealias OriginRowDecoder = Origin
    /// The type of the rows the association leads to.
    public typealias RowDecoder = Destination
    public var _core: _AssociationCore
}

/// A to-one association through another: a book has one country through
/// its author.
public struct HasOneThroughAssociation<Origin, Destination>: AssociationToOne {
    /// The type of the rows the association starts from.
    public typealias OriginRowDecoder = Origin
    /// The type of the rows the association leads to.
    public typealias RowDecoder = Destination
    public var _core: _AssociationCore
}

extension HasManyThroughAssociation: DerivableRequest {}
extension HasOneThroughAssociation: DerivableRequest {}

extension TableRecord {
    /// Rows reached through another association: `Author.hasMany(Publisher.self, through: books, using: Book.publisher)`.
    /// The key defaults to the target association's key, in the plural.
    public static func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
    ) -> HasManyThroughAssociation<Self, Target.RowDecoder> where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder {
        HasManyThroughAssociation(_core: _AssociationCore(.hasMany, through: pivot._core, using: target._core, key: key ?? _AssociationCore.pluralKey(of: target._core)))
    }

    /// The row reached through two to-one associations: `Book.hasOne(Country.self, through: author, using: Author.country)`.
    public static func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
    ) -> HasOneThroughAssociation<Self, Target.RowDecoder> where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder {
        HasOneThroughAssociation(_core: _AssociationCore(.hasOne, through: pivot._core, using: target._core, key: key ?? target._core.key))
    }
}
