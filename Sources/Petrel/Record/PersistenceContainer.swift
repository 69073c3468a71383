/// The column values of a record, in order, as ``EncodableRecord/encode(to:)``
/// writes them. Column lookup is case-insensitive.
///
/// A container made for an insert may follow a template: the columns the
/// record type encoded last time. While the record sets exactly those
/// columns in that order, the container only appends values; it builds its
/// own column lists (and their lowercased forms, for lookups) the first time
/// the record departs from the template.
public struct PersistenceContainer: RandomAccessCollection, Sendable {
    /// The values, in column order.
    public private(set) var values: [DatabaseValue] = []
    /// Where the column names come from. One reference besides `values`:
    /// the insert callbacks copy the container several times per record.
    private var columnSource: ColumnSource = .own([])

    private enum ColumnSource {
        /// The column of `values[i]` is `template.columns[i]`.
        case template(ContainerTemplate)
        /// The columns, with their lowercased forms for case-insensitive
        /// lookups.
        case own([(name: String, lowered: String)])
    }

    /// An empty container, for a record to fill in `encode(to:)`.
    public init() {}

    /// A container with the values of a record.
    public init(_ record: some EncodableRecord) throws {
        try record.encode(to: &self)
    }

    /// A container with the values of a record that probably encodes the
    /// template's columns, in its order.
    init(_ record: some EncodableRecord, template: ContainerTemplate) throws {
        columnSource = .template(template)
        values.reserveCapacity(template.columns.count)
        try record.encode(to: &self)
    }

    /// A container with the values of a record, following `template` when
    /// there is one (see ``init(_:template:)``).
    init(_ record: some EncodableRecord, templateIfAny template: ContainerTemplate?) throws {
        if let template {
            try self.init(record, template: template)
        } else {
            try self.init(record)
        }
    }

    public var startIndex: Int { values.startIndex }
    public var endIndex: Int { values.endIndex }

    public subscript(position: Int) -> (String, DatabaseValue) {
        (column(at: position), values[position])
    }

    private func column(at position: Int) -> String {
        switch columnSource {
        case .template(let template): template.columns[position]
        case .own(let columns): columns[position].name
        }
    }

    /// The value of a column; setting appends new columns, keeping order.
    @_disfavoredOverload
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get { databaseValue(forColumn: column) }
        set { set(newValue?.databaseValue ?? .null, forColumn: column) }
    }

    /// The value of a column; setting appends new columns, keeping order.
    @_disfavoredOverload
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { databaseValue(forColumn: column.name) }
        set { set(newValue?.databaseValue ?? .null, forColumn: column.name) }
    }

    /// The value of a column, typed: setting a value of a concrete type
    /// (`container["score"] = score`) skips the boxing of the untyped
    /// subscript, which is chosen for `nil` and existential values.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: String) -> Value? {
        get { databaseValue(forColumn: column).flatMap(Value.fromDatabaseValue) }
        set {
            if let newValue {
                set(newValue.databaseValue, forColumn: column)
            } else {
                set(.null, forColumn: column)
            }
        }
    }

    @usableFromInline
    mutating func set(_ value: DatabaseValue, forColumn column: String) {
        if follows(column, at: values.count) {
            values.append(value)
            return
        }
        // A column set again (the rowid of an inserted record) keeps the
        // template.
        if let index = templateIndex(of: column) {
            values[index] = value
            return
        }
        if case .template(let template) = columnSource {
            let position = values.count
            // Leaves the template: the columns filled so far become the
            // container's own, which all later columns join.
            columnSource = .own(Array(zip(template.columns, template.loweredColumns).prefix(position)))
        }
        guard case .own(var columns) = columnSource else { return }
        columnSource = .own([])  // keeps `columns` uniquely referenced
        let lowered = column.fastLowercased
        if let index = columns.firstIndex(where: { $0.lowered == lowered }) {
            values[index] = value
        } else {
            if values.isEmpty {
                // Records usually have a handful of columns: grow once.
                values.reserveCapacity(8)
                columns.reserveCapacity(8)
            }
            values.append(value)
            columns.append((column, lowered))
        }
        columnSource = .own(columns)
    }

    /// Whether the container follows a template whose column at `position`
    /// is `column`. Apart from `set`, which appends to `values`: a method
    /// that does not mutate reads the template in place, where `set` held a
    /// reference to it (a retain and a release per value) across the append.
    private func follows(_ column: String, at position: Int) -> Bool {
        guard case .template(let template) = columnSource else { return false }
        return position < template.columns.count && template.columns[position] == column
    }

    /// Where a column already set is, while the container follows a template.
    private func templateIndex(of column: String) -> Int? {
        guard case .template(let template) = columnSource else { return nil }
        if let index = template.columns[..<values.count].firstIndex(of: column) { return index }
        let lowered = column.fastLowercased
        return template.loweredColumns[..<values.count].firstIndex(of: lowered)
    }

    /// True when the container holds exactly the template's columns, in order.
    func hasColumns(of template: ContainerTemplate) -> Bool {
        if case .template(let followed) = columnSource, followed === template {
            return values.count == template.columns.count
        }
        return hasColumns(template.columns)
    }

    /// True when the container's columns are exactly `columns`, in order.
    func hasColumns(_ columns: [String]) -> Bool {
        columns.count == values.count && columns.indices.allSatisfy { columns[$0] == column(at: $0) }
    }

    /// The column names, in order.
    public var columns: [String] {
        switch columnSource {
        case .template(let template): Array(template.columns[..<values.count])
        case .own(let columns): columns.map(\.name)
        }
    }

    @usableFromInline
    func databaseValue(forColumn column: String) -> DatabaseValue? {
        switch columnSource {
        case .template:
            return templateIndex(of: column).map { values[$0] }
        case .own(let columns):
            let lowered = column.fastLowercased
            return columns.firstIndex { $0.lowered == lowered }.map { values[$0] }
        }
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
