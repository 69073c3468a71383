/// Turns what an observation fetches into the values it notifies.
///
/// Observations build their reducers (``ValueReducers``); there is rarely
/// a reason to write one. The underscored requirements are the contract
/// with ``ValueObservation``.
public protocol ValueReducer: SendableMetatype {
    /// What a fetch returns.
    associatedtype Fetched: Sendable
    /// What the observation notifies.
    associatedtype Value: Sendable

    /// The fetch, which may run on any connection of the database.
    func _makeFetcher() -> @Sendable (Database) throws -> Fetched

    /// The value to notify for a fetch, or nil to notify nothing.
    mutating func _value(_ fetched: Fetched) throws -> Value?
}

/// The reducers of ``ValueObservation``.
public enum ValueReducers {
    /// Notifies what the fetch returns.
    public struct Fetch<Value: Sendable>: ValueReducer {
        let fetch: @Sendable (Database) throws -> Value

        public func _makeFetcher() -> @Sendable (Database) throws -> Value { fetch }
        public func _value(_ fetched: Value) -> Value? { fetched }
    }

    /// Transforms the values of another reducer.
    public struct Map<Base: ValueReducer, Value: Sendable>: ValueReducer {
        var base: Base
        let transform: @Sendable (Base.Value) throws -> Value

        public func _makeFetcher() -> @Sendable (Database) throws -> Base.Fetched { base._makeFetcher() }

        public mutating func _value(_ fetched: Base.Fetched) throws -> Value? {
            try base._value(fetched).map(transform)
        }
    }

    /// Skips values equal to the previous one.
    public struct RemoveDuplicates<Base: ValueReducer>: ValueReducer {
        var base: Base
        let isDuplicate: @Sendable (Base.Value, Base.Value) -> Bool
        var previous: Base.Value?

        public func _makeFetcher() -> @Sendable (Database) throws -> Base.Fetched { base._makeFetcher() }

        public mutating func _value(_ fetched: Base.Fetched) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            if let previous, isDuplicate(previous, value) { return nil }
            previous = value
            return value
        }
    }

    /// Reports fetches and values to ``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``.
    public struct Trace<Base: ValueReducer>: ValueReducer {
        var base: Base
        let willFetch: @Sendable () -> Void
        let didReceiveValue: @Sendable (Base.Value) -> Void

        public func _makeFetcher() -> @Sendable (Database) throws -> Base.Fetched {
            let fetch = base._makeFetcher()
            let willFetch = self.willFetch
            return { db in
                willFetch()
                return try fetch(db)
            }
        }

        public mutating func _value(_ fetched: Base.Fetched) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            didReceiveValue(value)
            return value
        }
    }
}
