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
    associatedtype Element

    /// The next element, or nil at the end.
    func next() throws -> Element?
}

extension Cursor {
    /// Calls `body` on each element.
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
    public func max() throws -> Element? { try max(by: <) }
    public func min() throws -> Element? { try min(by: <) }
}

extension Cursor where Element: Sequence {
    /// The concatenated elements of the sequences.
    public func joined() throws -> [Element.Element] {
        var result: [Element.Element] = []
        while let element = try next() { result.append(contentsOf: element) }
        return result
    }
}

extension Array {
    /// Collects the remaining elements of a cursor.
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        self.init()
        while let element = try cursor.next() { append(element) }
    }

    /// Collects the remaining elements of a cursor, reserving capacity first.
    public init<C: Cursor>(_ cursor: C, minimumCapacity: Int) throws where C.Element == Element {
        self.init()
        reserveCapacity(minimumCapacity)
        while let element = try cursor.next() { append(element) }
    }
}

extension Set {
    /// Collects the remaining elements of a cursor.
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        self.init()
        while let element = try cursor.next() { insert(element) }
    }
}

extension Dictionary {
    /// Groups the remaining elements of a cursor by key.
    public init<C: Cursor>(grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element] {
        self.init()
        while let element = try cursor.next() {
            try self[keyForValue(element), default: []].append(element)
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

    public init(_ next: @escaping () throws -> Element?) {
        nextElement = next
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
