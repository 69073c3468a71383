import Foundation

// MARK: - Declaring associations

extension TableRecord {
    /// This record's table holds a foreign key to `Destination`'s: a book
    /// belongs to an author. The key (the scope of decoded rows) is the
    /// destination table's name.
    ///
    /// ```swift
    /// struct Book: TableRecord { static let author = belongsTo(Author.self) }
    /// ```
    public static func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> BelongsToAssociation<Self, Destination> {
        BelongsToAssociation(_core: makeCore(.belongsTo, Destination.databaseTableName, Destination.databaseSelection, key: key ?? Inflection.singular(Destination.databaseTableName), foreignKey))
    }

    /// `Destination`'s table holds a foreign key to this record's table,
    /// with at most one row per record.
    public static func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasOneAssociation<Self, Destination> {
        HasOneAssociation(_core: makeCore(.hasOne, Destination.databaseTableName, Destination.databaseSelection, key: key ?? Inflection.singular(Destination.databaseTableName), foreignKey))
    }

    /// `Destination`'s table holds a foreign key to this record's table: an
    /// author has many books. The key is the destination table's name in
    /// the plural (`books`).
    public static func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasManyAssociation<Self, Destination> {
        HasManyAssociation(_core: makeCore(.hasMany, Destination.databaseTableName, Destination.databaseSelection, key: key ?? Inflection.pluralKey(Destination.databaseTableName), foreignKey))
    }

    /// The same, for a table without a record type.
    public static func belongsTo<Destination>(_ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<Self, Destination> {
        BelongsToAssociation(_core: makeCore(.belongsTo, destination.tableName, [.allColumns], key: key ?? Inflection.singular(destination.tableName), foreignKey))
    }

    /// The same, for a table without a record type.
    public static func hasOne<Destination>(_ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil) -> HasOneAssociation<Self, Destination> {
        HasOneAssociation(_core: makeCore(.hasOne, destination.tableName, [.allColumns], key: key ?? Inflection.singular(destination.tableName), foreignKey))
    }

    /// The same, for a table without a record type.
    public static func hasMany<Destination>(_ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil) -> HasManyAssociation<Self, Destination> {
        HasManyAssociation(_core: makeCore(.hasMany, destination.tableName, [.allColumns], key: key ?? Inflection.pluralKey(destination.tableName), foreignKey))
    }

    private static func makeCore(
        _ kind: _AssociationCore.Kind, _ table: String, _ selection: [any SQLSelectable], key: String, _ foreignKey: ForeignKey?
    ) -> _AssociationCore {
        _AssociationCore(kind, from: databaseTableName, to: table, selection: selection, key: key, foreignKey)
    }
}

extension _AssociationCore {
    /// A direct association between two tables.
    init(
        _ kind: Kind, from originTable: String, to destinationTable: String, selection: [any SQLSelectable], key: String,
        _ foreignKey: ForeignKey?
    ) {
        self.init(
            kind: kind, key: key, originTable: originTable, destinationTable: destinationTable, foreignKey: foreignKey,
            request: QueryInterfaceRequest<Row>(table: destinationTable, selection: selection.map(\.sqlSelection)))
    }

    /// An association through a pivot association.
    init(_ kind: Kind, through pivot: _AssociationCore, using target: _AssociationCore, key: String) {
        self.init(
            kind: kind, key: key, originTable: pivot.originTable, destinationTable: target.destinationTable,
            foreignKey: nil, request: target.request)
        through = [pivot, target]
    }

    /// The default key of a to-many through association: the target's key,
    /// in the plural.
    static func pluralKey(of target: _AssociationCore) -> String {
        target.isToMany ? target.key : Inflection.pluralKey(target.key)
    }
}
