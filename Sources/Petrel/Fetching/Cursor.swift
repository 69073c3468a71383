/// A lazy, single-pass sequence whose iteration can throw.
///
/// Database cursors read one row per call to ``next()`` and are only valid
/// during the database access that created them:
///
/// ```swift
/// let scores = try Int.fetchCursor(db, sql: "SELECT score FROM player")
/// while let score = try scores.next() { ... }
/// ```
public protocol Cursor<Element>: AnyObject {
    /// The type of the elements the cursor returns.
    associatedtype Element

    /// The next element, or nil at the end.
    func next() throws -> Element?

    /// Calls `body` on each remaining element. Cursors may implement it
    /// more efficiently than repeated `next()` calls; adapters (`map`,
    /// `filter`, `enumerated`...) forward to their base's `forEach`, and
    /// collecting a cursor into an array or set goes through it.
    func forEach(_ body: (Element) throws -> Void) throws
}

extension Cursor {
    /// Calls `body` on each remaining element.
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() { try body(element) }
    }

    /// The first element that satisfies the predicate.
    public func first(where predicate: (Element) throws -> Bool) throws -> Element? {
        while let element = try next() {
            if try predicate(element) { return element }
        }
        return nil
    }

    /// True when an element satisfies the predicate.
    public func contains(where predicate: (Element) throws -> Bool) throws -> Bool {
        try first(where: predicate) != nil
    }

    /// True when the cursor has no more element. Consumes one element.
    public var isEmpty: Bool {
        get throws { try next() == nil }
    }

    /// Folds the elements.
    public func reduce<Result>(_ initial: Result, _ combine: (Result, Element) throws -> Result) throws -> Result {
        var result = initial
        while let element = try next() { result = try combine(result, element) }
        return result
    }

    /// Folds the elements into a mutable accumulator.
    public func reduce<Result>(into initial: Result, _ update: (inout Result, Element) throws -> Void) throws -> Result {
        var result = initial
        while let element = try next() { try update(&result, element) }
        return result
    }

    /// A lazy cursor of transformed elements.
    public func map<T>(_ transform: @escaping (Element) throws -> T) -> MapCursor<Self, T> {
        MapCursor(base: self, transform: transform)
    }

    /// A lazy cursor of the elements that satisfy the predicate.
    public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> FilterCursor<Self> {
        FilterCursor(base: self, isIncluded: isIncluded)
    }

    /// A lazy cursor of the non-nil transformed elements.
    public func compactMap<T>(_ transform: @escaping (Element) throws -> T?) -> CompactMapCursor<Self, T> {
        CompactMapCursor(base: self, transform: transform)
    }

    /// A lazy cursor of (offset, element) pairs.
    public func enumerated() -> EnumeratedCursor<Self> {
        EnumeratedCursor(base: self)
    }

    /// A lazy cursor of at most `maxLength` elements.
    public func prefix(_ maxLength: Int) -> PrefixCursor<Self> {
        PrefixCursor(base: self, remaining: maxLength)
    }

    /// A lazy cursor that skips the first `count` elements.
    public func dropFirst(_ count: Int = 1) -> DropFirstCursor<Self> {
        DropFirstCursor(base: self, toDrop: count)
    }

    /// The largest element according to the ordering.
    public func max(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var best = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(best, element) { best = element }
        }
        return best
    }

    /// The smallest element according to the ordering.
    public func min(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var best = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(element, best) { best = element }
        }
        return best
    }
}

extension Cursor where Element: Equatable {
    /// True when the cursor yields the element.
    public func contains(_ element: Element) throws -> Bool {
        try contains { $0 == element }
    }
}

extension Cursor where Element: Comparable {
    /// The largest element, reading the cursor to its end; nil when it has none.
    public func max() throws -> Element? { try max(by: <) }
    /// The smallest element, reading the cursor to its end; nil when it has none.
    public func min() throws -> Element? { try min(by: <) }
}

extension Cursor {
    /// The elements after the leading ones that satisfy the predicate.
    public func drop(while predicate: @escaping (Element) throws -> Bool) -> DropWhileCursor<Self> {
        DropWhileCursor(self, predicate: predicate)
    }

    /// The leading elements that satisfy the predicate.
    public func prefix(while predicate: @escaping (Element) throws -> Bool) -> PrefixWhileCursor<Self> {
        PrefixWhileCursor(self, predicate: predicate)
    }

    /// All remaining elements but the last `n`.
    public func dropLast(_ n: Int) throws -> [Element] {
        precondition(n >= 0, "Can't drop a negative number of elements from a cursor")
        let all = try Array(self)
        return Array(all.dropLast(n))
    }

    /// All remaining elements but the last one.
    public func dropLast() throws -> [Element] {
        try dropLast(1)
    }

    /// The last `maxLength` remaining elements.
    public func suffix(_ maxLength: Int) throws -> [Element] {
        precondition(maxLength >= 0, "Can't take a suffix of negative length from a cursor")
        var buffer: [Element] = []
        buffer.reserveCapacity(Swift.min(maxLength, 64))
        while let element = try next() {
            guard maxLength > 0 else { continue }
            if buffer.count == maxLength { buffer.removeFirst() }
            buffer.append(element)
        }
        return buffer
    }

    /// The concatenated cursors that `transform` returns.
    public func flatMap<SegmentOfResult: Cursor>(
        _ transform: @escaping (Element) throws -> SegmentOfResult
    ) -> FlattenCursor<MapCursor<Self, SegmentOfResult>> {
        map(transform).joined()
    }

    /// The concatenated sequences that `transform` returns.
    public func flatMap<SegmentOfResult: Sequence>(
        _ transform: @escaping (Element) throws -> SegmentOfResult
    ) -> FlattenCursor<MapCursor<Self, AnyCursor<SegmentOfResult.Element>>> {
        map { try AnyCursor(iterator: transform($0).makeIterator()) }.joined()
    }
}

extension Cursor where Element: Cursor {
    /// The elements of the cursors, one after the other.
    public func joined() -> FlattenCursor<Self> {
        FlattenCursor(self)
    }
}

extension Cursor where Element: Sequence {
    /// The elements of the sequences, one after the other.
    public func joined() -> FlattenCursor<MapCursor<Self, AnyCursor<Element.Element>>> {
        map { AnyCursor(iterator: $0.makeIterator()) }.joined()
    }
}

extension Cursor where Element: StringProtocol {
    /// The strings, concatenated with the separator.
    public func joined(separator: String = "") throws -> String {
        var result = ""
        var isFirst = true
        while let element = try next() {
            if !isFirst { result += separator }
            result += element
            isFirst = false
        }
        return result
    }
}

/// Sequences whose elements give cursors.
extension Sequence {
    /// The concatenated cursors that `transform` returns for each element.
    public func flatMap<SegmentOfResult: Cursor>(
        _ transform: @escaping (Element) throws -> SegmentOfResult
    ) -> FlattenCursor<MapCursor<AnyCursor<Element>, SegmentOfResult>> {
        AnyCursor(iterator: makeIterator()).flatMap(transform)
    }
}

/// Collections that cursors fill.
extension RangeReplaceableCollection {
    /// Appends the remaining elements of a cursor.
    public mutating func append(contentsOf cursor: some Cursor<Element>) throws {
        try cursor.forEach { append($0) }
    }

    /// Collects the remaining elements of a cursor: `try Array(cursor)`.
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        try cursor.forEach { append($0) }
    }

    /// Collects the remaining elements of a cursor, reserving capacity first.
    public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
        self.init()
        reserveCapacity(minimumCapacity)
        try cursor.forEach { append($0) }
    }
}

/// Sets made from cursors.
extension Set {
    /// Collects the remaining elements of a cursor.
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        self.init()
        try cursor.forEach { insert($0) }
    }

    /// Collects the remaining elements of a cursor, reserving capacity first.
    public init<C: Cursor>(_ cursor: C, minimumCapacity: Int) throws where C.Element == Element {
        self.init(minimumCapacity: minimumCapacity)
        try cursor.forEach { insert($0) }
    }

    /// The set with the remaining elements of the cursor added.
    public func union(_ cursor: some Cursor<Element>) throws -> Set<Element> {
        var result = self
        while let element = try cursor.next() { result.insert(element) }
        return result
    }

    /// The elements of the set that the cursor also yields.
    public func intersection(_ cursor: some Cursor<Element>) throws -> Set<Element> {
        var result: Set<Element> = []
        while let element = try cursor.next() {
            if contains(element) { result.insert(element) }
        }
        return result
    }

    /// Adds the remaining elements of the cursor to the set.
    public mutating func formUnion(_ cursor: some Cursor<Element>) throws {
        while let element = try cursor.next() { insert(element) }
    }

    /// Keeps only the elements of the set that the cursor also yields.
    public mutating func formIntersection(_ cursor: some Cursor<Element>) throws {
        self = try intersection(cursor)
    }
}

/// Dictionaries made from cursors.
extension Dictionary {
    /// Groups the remaining elements of a cursor by key.
    public init<C: Cursor>(grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element] {
        try self.init(minimumCapacity: 0, grouping: cursor, by: keyForValue)
    }

    /// Groups the remaining elements of a cursor by key, reserving capacity first.
    public init<C: Cursor>(minimumCapacity: Int, grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element] {
        self.init(minimumCapacity: minimumCapacity)
        while let element = try cursor.next() {
            try self[keyForValue(element), default: []].append(element)
        }
    }

    /// The pairs of a cursor as a dictionary. A duplicate key throws
    /// (where `Dictionary(uniqueKeysWithValues:)` of a sequence traps).
    public init(uniqueKeysWithValues keysAndValues: some Cursor<(Key, Value)>) throws {
        try self.init(minimumCapacity: 0, uniqueKeysWithValues: keysAndValues)
    }

    /// The same, reserving capacity first.
    public init(minimumCapacity: Int, uniqueKeysWithValues keysAndValues: some Cursor<(Key, Value)>) throws {
        self.init(minimumCapacity: minimumCapacity)
        while let (key, value) = try keysAndValues.next() {
            if updateValue(value, forKey: key) != nil {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Dictionary(uniqueKeysWithValues:): duplicate key \(key)")
            }
        }
    }
}

// MARK: - Cursor adapters

/// A type-erased cursor.
public final class AnyCursor<Element>: Cursor {
    private let nextElement: () throws -> Element?

    public init<C: Cursor>(_ base: C) where C.Element == Element {
        nextElement = base.next
    }

    /// A cursor whose elements the closure returns, until it returns nil.
    public init(_ next: @escaping () throws -> Element?) {
        nextElement = next
    }

    /// A cursor over the elements of an iterator.
    public init<I: IteratorProtocol>(iterator: I) where I.Element == Element {
        var iterator = iterator
        nextElement = { iterator.next() }
    }

    /// A cursor over the elements of a sequence.
    public convenience init<S: Sequence>(_ sequence: S) where S.Element == Element {
        self.init(iterator: sequence.makeIterator())
    }

    public func next() throws -> Element? { try nextElement() }
}

/// See ``Cursor/map(_:)``.
public final class MapCursor<Base: Cursor, Element>: Cursor {
    let base: Base
    let transform: (Base.Element) throws -> Element
    init(base: Base, transform: @escaping (Base.Element) throws -> Element) {
        self.base = base
        self.transform = transform
    }
    public func next() throws -> Element? {
        try base.next().map(transform)
    }
    public func forEach(_ body: (Element) throws -> Void) throws {
        try base.forEach { try body(transform($0)) }
    }
}

/// See ``Cursor/filter(_:)``.
public final class FilterCursor<Base: Cursor>: Cursor {
    let base: Base
    let isIncluded: (Base.Element) throws -> Bool
    init(base: Base, isIncluded: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
    }
    public func next() throws -> Base.Element? {
        while let element = try base.next() {
            if try isIncluded(element) { return element }
        }
        return nil
    }
    public func forEach(_ body: (Base.Element) throws -> Void) throws {
        try base.forEach { if try isIncluded($0) { try body($0) } }
    }
}

/// See ``Cursor/compactMap(_:)``.
public final class CompactMapCursor<Base: Cursor, Element>: Cursor {
    let base: Base
    let transform: (Base.Element) throws -> Element?
    init(base: Base, transform: @escaping (Base.Element) throws -> Element?) {
        self.base = base
        self.transform = transform
    }
    public func next() throws -> Element? {
        while let element = try base.next() {
            if let transformed = try transform(element) { return transformed }
        }
        return nil
    }
    public func forEach(_ body: (Element) throws -> Void) throws {
        try base.forEach { if let transformed = try transform($0) { try body(transformed) } }
    }
}

/// See ``Cursor/enumerated()``.
public final class EnumeratedCursor<Base: Cursor>: Cursor {
    let base: Base
    var offset = 0
    init(base: Base) { self.base = base }
    public func next() throws -> (offset: Int, element: Base.Element)? {
        guard let element = try base.next() else { return nil }
        defer { offset += 1 }
        return (offset, element)
    }
    public func forEach(_ body: ((offset: Int, element: Base.Element)) throws -> Void) throws {
        try base.forEach { element in
            defer { offset += 1 }
            try body((offset, element))
        }
    }
}

/// See ``Cursor/prefix(_:)``.
public final class PrefixCursor<Base: Cursor>: Cursor {
    let base: Base
    var remaining: Int
    init(base: Base, remaining: Int) {
        self.base = base
        self.remaining = remaining
    }
    public func next() throws -> Base.Element? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        return try base.next()
    }
}

/// See ``Cursor/dropFirst(_:)``.
public final class DropFirstCursor<Base: Cursor>: Cursor {
    let base: Base
    var toDrop: Int
    init(base: Base, toDrop: Int) {
        self.base = base
        self.toDrop = toDrop
    }
    public func next() throws -> Base.Element? {
        while toDrop > 0 {
            toDrop -= 1
            guard try base.next() != nil else { return nil }
        }
        return try base.next()
    }
}

/// The elements of a cursor after the leading ones that satisfy a predicate.
public final class DropWhileCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let predicate: (Base.Element) throws -> Bool
    private var isDropping = true

    init(_ base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    public func next() throws -> Base.Element? {
        while isDropping {
            guard let element = try base.next() else { return nil }
            if try !predicate(element) {
                isDropping = false
                return element
            }
        }
        return try base.next()
    }
}

/// The leading elements of a cursor that satisfy a predicate.
public final class PrefixWhileCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let predicate: (Base.Element) throws -> Bool
    private var isDone = false

    init(_ base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    public func next() throws -> Base.Element? {
        guard !isDone, let element = try base.next() else { return nil }
        guard try predicate(element) else {
            isDone = true
            return nil
        }
        return element
    }
}

/// The elements of the cursors of a cursor, one after the other.
public final class FlattenCursor<Base: Cursor>: Cursor where Base.Element: Cursor {
    private let base: Base
    private var current: Base.Element?

    init(_ base: Base) {
        self.base = base
    }

    public func next() throws -> Base.Element.Element? {
        while true {
            if let current, let element = try current.next() { return element }
            guard let nextCursor = try base.next() else { return nil }
            current = nextCursor
        }
    }
}

extension DatabaseCursor {
    /// The tables and columns the cursor's statement reads.
    public var databaseRegion: DatabaseRegion { statement.databaseRegion }
}
