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

    private func index(of column: String) -> Int? {
        if let index = storage.firstIndex(where: { $0.column == column }) { return index }
        let lowered = column.fastLowercased
        return loweredColumns.firstIndex(of: lowered)
    }

    /// The value of a column; setting appends new columns, keeping order.
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get { index(of: column).map { storage[$0].value } }
        set {
            let value = newValue?.databaseValue ?? .null
            if let index = index(of: column) {
                storage[index].value = value
            } else {
                storage.append((column, value))
                loweredColumns.append(column.fastLowercased)
            }
        }
    }

    /// The column names, in order.
    public var columns: [String] { storage.map(\.column) }

    /// The values, in order.
    public var values: [DatabaseValue] { storage.map(\.value) }

    func databaseValue(forColumn column: String) -> DatabaseValue? {
        index(of: column).map { storage[$0].value }
    }
}
