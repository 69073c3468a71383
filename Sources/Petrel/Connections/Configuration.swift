import Foundation

/// Options for opening database connections.
///
/// ```swift
/// var config = Configuration()
/// config.readonly = true
/// config.busyMode = .timeout(5)
/// config.prepareDatabase { db in
///     db.trace { print($0) }
/// }
/// let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite", configuration: config)
/// ```
public struct Configuration: Sendable {
    /// Enforce foreign keys (`PRAGMA foreign_keys = ON`). Default true.
    public var foreignKeysEnabled = true

    /// Open the database read-only. Default false.
    public var readonly = false

    /// Suspend the connection when ``Database/suspendNotification`` is
    /// posted, until ``Database/resumeNotification``: meanwhile every
    /// statement but ROLLBACK throws `SQLITE_INTERRUPT`, and a statement
    /// running when the suspension comes is interrupted. Default false.
    ///
    /// GRDB offers it so that iOS apps release their database locks before
    /// the system suspends them; here it is a way to stop a database's
    /// users from writing for a while.
    public var observesSuspensionNotifications = false

    /// A label for the connection, used in its description and dispatch queue names.
    public var label: String?

    /// Accept `"text"` as a string literal when no such column exists
    /// (SQLite's legacy double-quoted strings). Default false.
    public var acceptsDoubleQuotedStringLiterals = false

    /// Show statement arguments in errors and traces. Default false, because
    /// arguments may hold private data.
    public var publicStatementArguments = false

    /// Allow an access to end with a transaction still open. Default false:
    /// leaving one open is a programmer error.
    public var allowsUnsafeTransactions = false

    /// The journal mode the connection sets up.
    public enum JournalModeConfiguration: Sendable {
        /// SQLite's default (rollback journal), or what the file already uses.
        case `default`
        /// Write-ahead logging: readers do not block the writer. The
        /// connection also sets `PRAGMA synchronous = NORMAL` (commits are
        /// not synced one by one; a crash of the process loses none, a
        /// power loss the last ones), as a ``DatabasePool``'s writer does;
        /// a `prepareDatabase` function may set another.
        case wal
    }

    /// The journal mode. Default ``JournalModeConfiguration/default``.
    public var journalMode: JournalModeConfiguration = .default

    /// The page size of a database the connection finds empty (a new
    /// file), set before WAL mode, which fixes it. Nil, the default, keeps
    /// SQLite's. Package-only: PetrelIndex's indexes use it.
    package var newDatabasePageSize: Int?

    /// What happens when the database is locked by another connection.
    /// Default ``Database/BusyMode/immediateError``.
    public var busyMode: Database.BusyMode = .immediateError

    /// What happens when a read-only connection finds the database locked.
    /// Nil, the default, means ``busyMode``, except for the readers of a
    /// ``DatabasePool``, which wait up to 10 seconds: a reader of a WAL
    /// database is only locked out briefly, while the WAL index is rebuilt.
    public var readonlyBusyMode: Database.BusyMode?

    /// The clock of ``Database/transactionDate``.
    public var transactionClock: any TransactionClock = .default

    /// The maximum number of concurrent readers of a pool. Default 5.
    public var maximumReaderCount = 5

    /// Whether a ``DatabasePool`` keeps its idle readers open when it
    /// releases memory. Default false: ``DatabasePool/releaseMemory()``
    /// closes them, and new ones open when reads need them. True keeps
    /// them open and frees their caches only, for applications that would
    /// rather not pay for opening connections again.
    public var persistentReadOnlyConnections = false

    /// Whether connections release memory when the system asks
    /// applications to: on iOS, tvOS and visionOS, a memory warning makes
    /// a ``DatabaseQueue`` or ``DatabasePool`` call `releaseMemory()` in
    /// the background. Linux and macOS send no such warning, so there the
    /// setting changes nothing. Default true.
    public var automaticMemoryManagement = true

    /// The quality of service of the dispatch queues. Default `.userInitiated`.
    public var qos: DispatchQoS = .userInitiated

    /// The quality of service of reads (pool readers, read-only queues);
    /// `qos` unless set.
    public var readQoS: DispatchQoS {
        get { explicitReadQoS ?? qos }
        set { explicitReadQoS = newValue }
    }

    /// The quality of service of writes (the writer of a pool, a queue);
    /// `qos` unless set.
    public var writeQoS: DispatchQoS {
        get { explicitWriteQoS ?? qos }
        set { explicitWriteQoS = newValue }
    }

    private var explicitReadQoS: DispatchQoS?
    private var explicitWriteQoS: DispatchQoS?

    /// The target of the connections' dispatch queues, if any.
    public var targetQueue: DispatchQueue? = nil

    /// The target of the writer's dispatch queue; `targetQueue` unless set.
    public var writeTargetQueue: DispatchQueue? = nil

    var prepareDatabaseFunctions: [@Sendable (Database) throws -> Void] = []

    /// Schema information the database cannot tell, such as the primary
    /// keys of views. See ``DatabaseSchemaSource``.
    public var schemaSource: (any DatabaseSchemaSource)?

    /// The default configuration: foreign keys on, read-write, SQLite's journal mode, no busy timeout.
    public init() {}

    /// Adds a function that runs on every new connection, right after it is
    /// opened: the place to register functions, collations, tokenizers and tracing.
    public mutating func prepareDatabase(_ setup: @escaping @Sendable (Database) throws -> Void) {
        prepareDatabaseFunctions.append(setup)
    }
}

extension Configuration {
    /// The busy mode of a connection opened with this configuration.
    var effectiveBusyMode: Database.BusyMode {
        readonly ? (readonlyBusyMode ?? busyMode) : busyMode
    }
}
