/// The column values of a record, in order, as ``EncodableRecord/encode(to:)``
/// writes them. Column lookup is case-insensitive.
public struct PersistenceContainer: RandomAccessCollection, Sendable {
    private(set) var storage: [(column: String, value: DatabaseValue)] = []
    /// The lowercased column names, for case-insensitive lookups without
    /// lowercasing every stored name at each lookup.
    private var loweredColumns: [String] = []

    public init() {}

    /// A container with the values of a record.
    public init(_ record: some EncodableRecord) throws {
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
        set {
            let value = newValue?.databaseValue ?? .null
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
