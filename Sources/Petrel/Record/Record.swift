import Foundation

/// A base class for records, for code written in GRDB's older style:
/// subclasses override ``init(row:)``, ``encode(to:)`` and
/// ``databaseTableName``, and get fetching, persistence and change
/// tracking.
///
/// ```swift
/// final class Player: Record {
///     var id: Int64?
///     var name: String
///     init(name: String) { self.name = name; super.init() }
///     required init(row: Row) throws {
///         id = row["id"]; name = row["name"]
///         try super.init(row: row)
///     }
///     override class var databaseTableName: String { "player" }
///     override func encode(to container: inout PersistenceContainer) throws {
///         container["id"] = id; container["name"] = name
///     }
///     override func didInsert(_ inserted: InsertionSuccess) {
///         super.didInsert(inserted); id = inserted.rowID
///     }
/// }
/// ```
///
/// A record fetched from the database, or just saved, has no changes;
/// ``hasDatabaseChanges`` tells when its properties differ from the
/// database, and ``updateChanges(_:)`` writes only the columns that do.
/// Prefer structs that adopt the record protocols in new code: a `Record`
/// is a mutable class, not `Sendable`.
open class Record {
    /// The row the record was fetched from or last saved as; nil for a
    /// record not known to be in the database.
    private var referenceRow: Row?

    /// A record not known to be in the database: every column counts as changed.
    public init() {}

    /// Subclasses read their properties from the row, then call
    /// `super.init(row:)`.
    public required init(row: Row) throws {
        if row.isFetched { referenceRow = row.copy() }
    }

    /// The table; by default the class name with its leading capitals
    /// lowercased (`Player` → `player`).
    open class var databaseTableName: String {
        TableRecordNaming.defaultTableName(for: self)
    }

    /// The conflict resolution of inserts and updates.
    open class var persistenceConflictPolicy: PersistenceConflictPolicy { PersistenceConflictPolicy() }

    /// What requests select by default.
    open class var databaseSelection: [any SQLSelectable] { [.allColumns] }

    /// Subclasses write their columns.
    open func encode(to container: inout PersistenceContainer) throws {}

    // MARK: Change tracking

    /// True when a column differs from the reference row (always true for
    /// a record that was not fetched or saved).
    public var hasDatabaseChanges: Bool {
        guard let changes = try? databaseChanges else { return true }
        return !changes.isEmpty
    }

    /// The changed columns, with their old values (nil when there is no
    /// reference row).
    public var databaseChanges: [String: DatabaseValue?] {
        get throws {
            let container = try PersistenceContainer(self)
            var changes: [String: DatabaseValue?] = [:]
            for (column, value) in container {
                guard let referenceRow else {
                    changes[column] = .some(nil)
                    continue
                }
                let old: DatabaseValue? = referenceRow.hasColumn(column) ? referenceRow[column] : nil
                if old != value { changes[column] = .some(old) }
            }
            return changes
        }
    }

    /// Updates the changed columns only, and only if there are any;
    /// returns whether the database was updated.
    @discardableResult
    public final func updateChanges(_ db: Database) throws -> Bool {
        let columns = try databaseChanges.keys
        guard !columns.isEmpty else { return false }
        try update(db, columns: Array(columns))
        return true
    }

    private func resetChanges(_ container: PersistenceContainer) {
        referenceRow = Row(columnNames: container.columns, values: container.values)
    }

    // MARK: Persistence callbacks (call super when overriding the around ones)

    /// Called before the record is inserted; throw to cancel. Does nothing by default.
    open func willInsert(_ db: Database) throws {}

    /// Wraps the insertion and then takes the inserted values as the record's
    /// unchanged state; an override must call `super`.
    open func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        let inserted = try insert()
        resetChanges(inserted.persistenceContainer)
    }

    /// Called after a successful insertion, with the new rowid. Does nothing by default.
    open func didInsert(_ inserted: InsertionSuccess) {}

    /// Called before the record is updated, with the columns to update; throw to cancel.
    /// Does nothing by default.
    open func willUpdate(_ db: Database, columns: Set<String>) throws {}

    /// Wraps the update and then takes the written values as the record's unchanged
    /// state; an override must call `super`.
    open func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        let updated = try update()
        resetChanges(updated.persistenceContainer)
    }

    /// Called after a successful update. Does nothing by default.
    open func didUpdate(_ updated: PersistenceSuccess) {}

    /// Called before the record is saved; throw to cancel. Does nothing by default.
    open func willSave(_ db: Database) throws {}

    /// Wraps the save; an override must call `super`.
    open func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try save()
    }

    /// Called after a successful save. Does nothing by default.
    open func didSave(_ saved: PersistenceSuccess) {}

    /// Called before the record is deleted; throw to cancel. Does nothing by default.
    open func willDelete(_ db: Database) throws {}

    /// Wraps the deletion and then forgets the record's unchanged state: every column
    /// counts as changed again. An override must call `super`.
    open func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        _ = try delete()
        referenceRow = nil
    }

    /// Called after the deletion, with whether a row was deleted. Does nothing by default.
    open func didDelete(deleted: Bool) {}
}

extension Record: TableRecord, FetchableRecord, PersistableRecord {}
