import Foundation

extension Database {
    /// Called with the number of times SQLite already retried; return true to retry again.
    public typealias BusyCallback = @Sendable (_ numberOfTries: Int) -> Bool

    /// What happens when another connection holds a lock this one needs.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/busy_timeout.html>
    public enum BusyMode: Sendable {
        /// Throw `SQLITE_BUSY` at once.
        case immediateError
        /// Retry for up to this many seconds, then throw `SQLITE_BUSY`.
        case timeout(TimeInterval)
        /// Ask the callback whether to retry.
        case callback(BusyCallback)
    }

    /// What ``trace(options:_:)`` reports.
    public struct TracingOptions: OptionSet, Sendable {
        public let rawValue: CInt
        public init(rawValue: CInt) { self.rawValue = rawValue }
        /// Each statement, when it starts.
        public static let statement = TracingOptions(rawValue: 1 << 0)
        /// Each statement, when it ends, with its duration.
        public static let profile = TracingOptions(rawValue: 1 << 1)
    }

    /// An event reported by ``trace(options:_:)``.
    public enum TraceEvent: CustomStringConvertible {
        /// A statement is starting.
        case statement(Statement)
        /// A statement ended after `duration` seconds.
        case profile(statement: Statement, duration: TimeInterval)

        /// A traced statement.
        public struct Statement: CustomStringConvertible {
            /// The SQL as written, with parameter placeholders.
            public let sql: String
            /// The SQL with the bound values written in.
            public let expandedSQL: String
            let publicArguments: Bool

            /// The SQL, with values written in only when statement arguments are public.
            public var description: String { publicArguments ? expandedSQL : sql }
            /// The SQL with its values written in.
            public var expandedDescription: String { expandedSQL }
        }

        /// The statement, or `0.002s SELECT ...` for profile events.
        public var description: String {
            switch self {
            case .statement(let statement):
                statement.description
            case let .profile(statement, duration):
                String(format: "%.3fs ", duration) + statement.description
            }
        }

        /// Like ``description``, with values written in.
        public var expandedDescription: String {
            switch self {
            case .statement(let statement):
                statement.expandedDescription
            case let .profile(statement, duration):
                String(format: "%.3fs ", duration) + statement.expandedDescription
            }
        }
    }
}
