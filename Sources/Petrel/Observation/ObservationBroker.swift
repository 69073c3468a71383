import Foundation

/// Dispatches the changes and transaction ends of one connection to its
/// transaction observers.
///
/// Before a statement runs, the observers say which of its kinds of change
/// (from the authorizer) they want; the update hook then reports each
/// changed row to them. Changes made inside savepoints wait in a buffer
/// until the outermost savepoint is released or the transaction commits,
/// and are dropped by `ROLLBACK TO`. Commit and rollback notifications
/// are sent after the statement that ended the transaction, when the
/// connection can be used again.
final class ObservationBroker {
    unowned let database: Database

    /// One observer and how it is held.
    final class Observation {
        weak var weakObserver: (any TransactionObserver)?
        var strongObserver: (any TransactionObserver)?
        let extent: Database.TransactionObservationExtent
        /// False after `stopObservingDatabaseChangesUntilNextTransaction()`.
        var isEnabled = true
        /// For the running statement: whether the update hook reported a
        /// change of a table it watches, and whether it reported one of
        /// their shadow tables (`t_content`, `t_data`... of a full-text
        /// table `t`), which it reports instead of the virtual table's.
        var sawChange = false
        var sawShadowChange = false

        init(_ observer: any TransactionObserver, extent: Database.TransactionObservationExtent) {
            self.extent = extent
            if case .observerLifetime = extent {
                weakObserver = observer
            } else {
                strongObserver = observer
            }
        }

        var observer: (any TransactionObserver)? { strongObserver ?? weakObserver }
    }

    private var observations: [Observation] = [] {
        didSet {
            let has = !observations.isEmpty
            if has != !oldValue.isEmpty {
                database.setUpdateHook(enabled: has)
                database.updateStatementHooks()
            }
        }
    }

    /// The observers interested in the running statement, with the kinds
    /// of change they want from it.
    private var statementObservers: [(observation: Observation, kinds: [DatabaseEventKind])] = []

    private enum Completion {
        case none, commit, rollback
        case cancelledCommit(any Error)
    }
    private var completion = Completion.none

    /// Open savepoints (lowercased names) and where their events start in
    /// the buffer.
    private var savepoints: [(name: String, bufferStart: Int)] = []
    private var buffer: [(event: DatabaseEvent, observations: [Observation])] = []

    /// The last names the update hook gave, as C pointers and strings.
    var lastNames: (database: UnsafePointer<CChar>?, table: UnsafePointer<CChar>?, databaseString: String, tableString: String)?

    init(database: Database) {
        self.database = database
    }

    var hasObservers: Bool { !observations.isEmpty }

    // MARK: - Observers

    func add(_ observer: some TransactionObserver, extent: Database.TransactionObservationExtent) {
        prune()
        observations.append(Observation(observer, extent: extent))
    }

    func remove(_ observer: some TransactionObserver) {
        observations.removeAll { $0.observer === observer || $0.observer == nil }
        statementObservers.removeAll { $0.observation.observer === observer }
    }

    func disableUntilNextTransaction(_ observer: some TransactionObserver) {
        for observation in observations where observation.observer === observer {
            observation.isEnabled = false
        }
        statementObservers.removeAll { $0.observation.observer === observer }
    }

    /// Whether some observer wants the rows deleted from this table.
    func observesDeletions(on table: String) -> Bool {
        observations.contains { $0.observer?.observes(eventsOfKind: .delete(tableName: table)) == true }
    }

    private func prune() {
        if observations.contains(where: { $0.observer == nil }) {
            observations.removeAll { $0.observer == nil }
        }
    }

    /// The broker whose observers are being told of changes on this
    /// thread: `stopObservingDatabaseChangesUntilNextTransaction()` finds
    /// it here.
    static var current: ObservationBroker? {
        Thread.current.threadDictionary[currentKey] as? ObservationBroker
    }
    private static let currentKey = "org.petrel.observation-broker"

    private func setCurrent(_ broker: ObservationBroker?) {
        Thread.current.threadDictionary[ObservationBroker.currentKey] = broker
    }

    // MARK: - Statements

    func statementWillExecute(_ statement: Statement) {
        completion = .none
        lastNames = nil
        statementObservers = []
        let kinds = statement.authorization.eventKinds
        guard !kinds.isEmpty, !observations.isEmpty, !database.isReadOnly else { return }
        for observation in observations where observation.isEnabled {
            guard let observer = observation.observer else { continue }
            let wanted = kinds.filter { observer.observes(eventsOfKind: $0) }
            guard !wanted.isEmpty else { continue }
            (observation.sawChange, observation.sawShadowChange) = (false, false)
            statementObservers.append((observation, wanted))
        }
        if !statementObservers.isEmpty { setCurrent(self) }
    }

    /// From the update hook.
    func rowDidChange(kind: DatabaseEvent.Kind, databaseName: UnsafePointer<CChar>?, tableName: UnsafePointer<CChar>?, rowID: Int64) {
        guard !statementObservers.isEmpty else { return }
        let (databaseString, tableString) = names(databaseName, tableName)
        let event = DatabaseEvent(kind: kind, databaseName: databaseString, tableName: tableString, rowID: rowID)
        // Inside savepoints the event waits in the buffer (an array only
        // then: one is not allocated for every row otherwise).
        var buffered: [Observation] = []
        for (observation, kinds) in statementObservers {
            if kinds.contains(where: event.matches) {
                observation.sawChange = true
                if !savepoints.isEmpty {
                    buffered.append(observation)
                } else if observation.isEnabled {
                    observation.observer?.databaseDidChange(with: event)
                }
            } else if kinds.contains(where: { Self.isShadowTable(tableString, of: $0.tableName) }) {
                observation.sawShadowChange = true
            }
        }
        if !buffered.isEmpty { buffer.append((event, buffered)) }
    }

    /// `t_content`, `t_data`, `t_segdir`...: a table a virtual table `t`
    /// keeps its rows in.
    private static func isShadowTable(_ name: String, of table: String) -> Bool {
        let prefix = table.utf8.count
        let utf8 = name.utf8
        guard utf8.count > prefix + 1, utf8[utf8.index(utf8.startIndex, offsetBy: prefix)] == UInt8(ascii: "_") else { return false }
        return String(decoding: utf8.prefix(prefix), as: UTF8.self).caseInsensitivelyEquals(table)
    }

    func statementDidExecute(_ statement: Statement) throws {
        if !statementObservers.isEmpty {
            // A virtual table's observers saw only its shadow tables
            // change: they are told of an unspecified change, as GRDB's are,
            // also when they were told of another table's rows (the
            // trigger's table of a synchronized full-text table): an
            // observer may let those pass, and a ValueObservation's region
            // can narrow to the virtual table alone while the statement
            // runs (its first fetch ending on a pool reader).
            for (observation, _) in statementObservers where observation.sawShadowChange && observation.isEnabled {
                observation.observer?.databaseDidChange()
            }
            statementObservers = []
            setCurrent(nil)
        }
        if let effect = statement.authorization.transactionEffect {
            switch effect {
            case .commitTransaction:
                if case .none = completion, !database.isReadOnly {
                    // BEGIN; COMMIT with nothing written: SQLite calls no
                    // hook, but observers still see a commit.
                    try emptyTransactionDidCommit()
                    return
                }
            case .beginSavepoint(let name):
                savepoints.append((name.lowercased(), buffer.count))
            case .releaseSavepoint(let name):
                releaseSavepoint(name.lowercased())
                if case .none = completion, !database.isInsideTransaction, !database.isReadOnly {
                    try emptyTransactionDidCommit()
                    return
                }
                if savepoints.isEmpty { deliverBuffer() }
            case .rollbackSavepoint(let name):
                rollbackToSavepoint(name.lowercased())
            case .beginTransaction, .rollbackTransaction:
                break
            }
        }
        let ended = completion
        completion = .none
        switch ended {
        case .commit: transactionDidCommit()
        case .rollback: transactionDidEndWithRollback(notify: true)
        case .none, .cancelledCommit: break
        }
    }

    /// After a failed statement; returns the error to throw instead of
    /// SQLite's (an observer's error that cancelled a commit).
    func statementDidFail(_ statement: Statement) -> (any Error)? {
        if !statementObservers.isEmpty {
            statementObservers = []
            setCurrent(nil)
        }
        let ended = completion
        completion = .none
        switch ended {
        case .cancelledCommit(let error):
            transactionDidEndWithRollback(notify: true)
            return error
        case .rollback:
            // A failed statement of its own implicit transaction: nothing
            // observers were told of survives, and they are not told.
            transactionDidEndWithRollback(notify: false)
        case .commit, .none:
            if !database.isInsideTransaction, !savepoints.isEmpty {
                savepoints = []
                buffer = []
            }
        }
        return nil
    }

    // MARK: - Savepoints

    private func releaseSavepoint(_ name: String) {
        if let index = savepoints.lastIndex(where: { $0.name == name }) {
            savepoints.removeSubrange(index...)
        } else {
            savepoints = []
        }
    }

    private func rollbackToSavepoint(_ name: String) {
        guard let index = savepoints.lastIndex(where: { $0.name == name }) else { return }
        buffer.removeSubrange(savepoints[index].bufferStart...)
        savepoints.removeSubrange((index + 1)...)
    }

    private func deliverBuffer() {
        guard !buffer.isEmpty else { return }
        let events = buffer
        buffer = []
        setCurrent(self)
        defer { setCurrent(nil) }
        for (event, targets) in events {
            for observation in targets where observation.isEnabled {
                observation.observer?.databaseDidChange(with: event)
            }
        }
    }

    // MARK: - Transaction ends

    /// From the commit hook: false cancels the commit.
    func transactionWillCommit() -> Bool {
        database.transactionDateState.date = nil
        guard !observations.isEmpty, !database.isReadOnly else {
            completion = .commit
            return true
        }
        do {
            try prepareCommit()
            completion = .commit
            return true
        } catch {
            completion = .cancelledCommit(error)
            return false
        }
    }

    /// Before a commit: held changes reach the observers, then each one
    /// may refuse the commit by throwing.
    private func prepareCommit() throws {
        savepoints = []
        deliverBuffer()
        for observation in observations {
            try observation.observer?.databaseWillCommit()
        }
    }

    /// From the rollback hook.
    func transactionDidRollBack() {
        database.transactionDateState.date = nil
        if case .cancelledCommit = completion { return }
        completion = .rollback
    }

    private func emptyTransactionDidCommit() throws {
        database.transactionDateState.date = nil
        do {
            try prepareCommit()
        } catch {
            transactionDidEndWithRollback(notify: true)
            throw error
        }
        transactionDidCommit()
    }

    private func transactionDidCommit() {
        savepoints = []
        buffer = []
        // A read-only transaction is no transaction for observers.
        guard !database.isReadOnly else { return }
        let notified = endTransaction()
        for observation in notified {
            observation.observer?.databaseDidCommit(database)
        }
    }

    private func transactionDidEndWithRollback(notify: Bool) {
        savepoints = []
        buffer = []
        guard !database.isReadOnly else { return }
        let notified = endTransaction()
        guard notify else { return }
        for observation in notified {
            observation.observer?.databaseDidRollback(database)
        }
    }

    /// Re-enables observers and drops those that lasted one transaction;
    /// returns who to notify (before the notifications, so that a
    /// notification that runs another transaction does not notify twice).
    private func endTransaction() -> [Observation] {
        let notified = observations
        for observation in notified { observation.isEnabled = true }
        if observations.contains(where: { if case .nextTransaction = $0.extent { true } else { $0.observer == nil } }) {
            observations.removeAll { if case .nextTransaction = $0.extent { true } else { $0.observer == nil } }
        }
        return notified
    }

    /// From ``Database/notifyChanges(in:)``.
    func notifyChanges(_ eventKinds: [DatabaseEventKind]) {
        setCurrent(self)
        defer { setCurrent(nil) }
        for observation in observations where observation.isEnabled {
            guard let observer = observation.observer else { continue }
            if eventKinds.contains(where: { observer.observes(eventsOfKind: $0) }) {
                observer.databaseDidChange()
            }
        }
    }
}

extension Database {
    /// Statements report their start and end only while someone listens.
    func updateStatementHooks() {
        let hooks = statementHooks
        hooks.haveObservers = observationBroker.hasObservers
        let othersNeedHooks = hooks.haveObservers || regionRecorder != nil || suspension != nil || cancellationCheck != nil
        hooks.areNeeded = othersNeedHooks || transactionBlockDepth > 0
        hooks.checkOnlyTransaction = !othersNeedHooks && transactionBlockDepth > 0
    }
}
