/// The column values of a record, in order, as ``EncodableRecord/encode(to:)``
/// writes them. Column lookup is case-insensitive.
public struct PersistenceContainer: RandomAccessCollection, Sendable {
    private(set) var storage: [(column: String, value: DatabaseValue)] = []
    /// The lowercased column names, for case-insensitive lookups without
    /// lowercasing every stored name at each lookup.
    private var loweredColumns: [String] = []
    /// The columns the record encoded last time, in order: while the
    /// record sets them in the same order, each one is appended without
    /// lowercasing or searching.
    private var template: ContainerTemplate?
    /// True while `storage` is exactly a prefix of `template`.
    private var followsTemplate = true

    public init() {}

    /// A container with the values of a record.
    public init(_ record: some EncodableRecord) throws {
        try record.encode(to: &self)
    }

    /// A container with the values of a record that probably encodes the
    /// template's columns, in its order.
    init(_ record: some EncodableRecord, template: ContainerTemplate) throws {
        self.template = template
        storage.reserveCapacity(template.columns.count)
        loweredColumns.reserveCapacity(template.columns.count)
        try record.encode(to: &self)
    }

    public var startIndex: Int { storage.startIndex }
    public var endIndex: Int { storage.endIndex }

    public subscript(position: Int) -> (String, DatabaseValue) {
        (storage[position].column, storage[position].value)
    }

    /// Stored names never differ only by case (the setter merges them), so
    /// the lowercased lookup finds the same index an exact one would.
    private func index(of column: String) -> Int? {
        loweredColumns.firstIndex(of: column.fastLowercased)
    }

    /// The value of a column; setting appends new columns, keeping order.
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get { databaseValue(forColumn: column) }
        set { set(newValue?.databaseValue ?? .null, forColumn: column) }
    }

    /// The value of a column, typed: setting a concrete type skips the
    /// boxing of the untyped subscript (`container["score"] = score`).
    public subscript<Value: DatabaseValueConvertible>(_ column: String) -> Value? {
        get { databaseValue(forColumn: column).flatMap(Value.fromDatabaseValue) }
        set { set(newValue?.databaseValue ?? .null, forColumn: column) }
    }

    private mutating func set(_ value: DatabaseValue, forColumn column: String) {
        if followsTemplate, let template {
            let position = storage.count
            if position < template.columns.count, template.columns[position] == column {
                storage.append((column, value))
                loweredColumns.append(template.loweredColumns[position])
                return
            }
            followsTemplate = false
        }
        let lowered = column.fastLowercased
        if let index = loweredColumns.firstIndex(of: lowered) {
            storage[index].value = value
        } else {
            if storage.isEmpty {
                // Records usually have a handful of columns: grow once.
                storage.reserveCapacity(8)
                loweredColumns.reserveCapacity(8)
            }
            storage.append((column, value))
            loweredColumns.append(lowered)
        }
    }

    /// True when the container holds exactly the template's columns, in order.
    func hasColumns(of template: ContainerTemplate) -> Bool {
        if followsTemplate, self.template === template { return storage.count == template.columns.count }
        return hasColumns(template.columns)
    }

    /// True when the container's columns are exactly `columns`, in order.
    func hasColumns(_ columns: [String]) -> Bool {
        columns.count == storage.count && zip(columns, storage).allSatisfy { $0 == $1.column }
    }

    /// The values, in order, without copying them into a new array.
    var lazyValues: LazyMapSequence<[(column: String, value: DatabaseValue)], DatabaseValue> {
        storage.lazy.map(\.value)
    }

    /// The column names, in order.
    public var columns: [String] { storage.map(\.column) }

    /// The values, in order.
    public var values: [DatabaseValue] { storage.map(\.value) }

    func databaseValue(forColumn column: String) -> DatabaseValue? {
        index(of: column).map { storage[$0].value }
    }
}

/// The columns a record type encoded last time; see
/// `PersistenceContainer.init(_:template:)`.
final class ContainerTemplate: Sendable {
    let columns: [String]
    let loweredColumns: [String]

    init(columns: [String]) {
        self.columns = columns
        loweredColumns = columns.map { $0.lowercased() }
    }
}
