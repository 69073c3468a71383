import Foundation

/// Tells ``Database/transactionDate`` what time it is.
///
/// ```swift
/// var config = Configuration()
/// config.transactionClock = .custom { _ in Date(timeIntervalSince1970: 0) }
/// ```
public protocol TransactionClock: Sendable {
    /// The current date, asked once per transaction.
    func now(_ db: Database) throws -> Date
}

/// The system clock.
public struct DefaultTransactionClock: TransactionClock {
    /// The system clock.
    public init() {}
    /// The current date of the system.
    public func now(_ db: Database) throws -> Date { Date() }
}

/// A clock that calls your closure: for tests, or a date read from elsewhere.
public struct CustomTransactionClock: TransactionClock {
    private let clock: @Sendable (Database) throws -> Date

    /// A clock whose date is what `now` returns.
    public init(_ now: @escaping @Sendable (Database) throws -> Date) {
        clock = now
    }

    /// The date the closure returns.
    public func now(_ db: Database) throws -> Date { try clock(db) }
}

extension TransactionClock where Self == DefaultTransactionClock {
    /// The system clock.
    public static var `default`: Self { DefaultTransactionClock() }
}

extension TransactionClock where Self == CustomTransactionClock {
    /// A clock that calls `now`.
    public static func custom(_ now: @escaping @Sendable (Database) throws -> Date) -> Self {
        CustomTransactionClock(now)
    }
}

extension Database {
    /// The date of the current transaction: the same for every call inside
    /// one transaction, so that records written together share a timestamp;
    /// outside a transaction, the clock's date at each call.
    ///
    /// The date comes from ``Configuration/transactionClock``, asked the
    /// first time the transaction needs it.
    ///
    /// ```swift
    /// mutating func willInsert(_ db: Database) throws {
    ///     creationDate = try db.transactionDate
    /// }
    /// ```
    public var transactionDate: Date {
        get throws {
            guard isInsideTransaction else {
                transactionDateState.date = nil
                return try configuration.transactionClock.now(self)
            }
            if let date = transactionDateState.date { return date }
            let date = try configuration.transactionClock.now(self)
            transactionDateState.date = date
            return date
        }
    }
}

/// The date of the current transaction, forgotten by SQLite's commit and
/// rollback hooks when the transaction ends.
final class TransactionDateState {
    var date: Date?
}
