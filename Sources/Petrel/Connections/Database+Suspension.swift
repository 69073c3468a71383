import CPetrelSQLite
import Foundation

// Suspension (`Configuration.observesSuspensionNotifications`): a posted
// `Database.suspendNotification` interrupts what the connection runs and
// makes every statement but ROLLBACK fail until `resumeNotification`.

extension Database {
    /// Posted to suspend the connections that observe suspension
    /// notifications (the name GRDB uses).
    public static let suspendNotification = Notification.Name("GRDB.Database.Suspend")

    /// Posted to resume them.
    public static let resumeNotification = Notification.Name("GRDB.Database.Resume")
}

/// One observing connection: the process-wide suspension state, and the
/// connection to interrupt when a suspension comes.
final class DatabaseSuspension: @unchecked Sendable {
    // Sendable invariant: `connection` is only read and written under
    // `lock`; the connection is closed only after `stop()`.
    private let lock = NSLock()
    private var connection: OpaquePointer?

    init(connection: OpaquePointer) {
        self.connection = connection
        SuspensionCenter.shared.register(self)
    }

    /// True between a suspend and a resume notification. A connection
    /// opened meanwhile starts suspended, like the others.
    var isSuspended: Bool { SuspensionCenter.shared.isSuspended }

    /// Stops the running statement, if any: its access fails and rolls
    /// back, which releases the locks.
    fileprivate func interrupt() {
        lock.withLock {
            if let connection { sqlite3_interrupt(connection) }
        }
    }

    /// Before the connection closes.
    func stop() {
        lock.withLock { connection = nil }
        SuspensionCenter.shared.unregister(self)
    }
}

/// The notifications are posted for the whole process (GRDB's names, no
/// object), so the state is the process's: one observer pair, and the
/// registered connections to interrupt.
private final class SuspensionCenter: @unchecked Sendable {
    // Sendable invariant: `suspended` and `connections` are only read and
    // written under `lock`.
    static let shared = SuspensionCenter()

    private let lock = NSLock()
    private var suspended = false
    private var connections: [ObjectIdentifier: Weak] = [:]
    private var observers: [any NSObjectProtocol] = []

    private struct Weak {
        weak var suspension: DatabaseSuspension?
    }

    private init() {
        let center = NotificationCenter.default
        observers = [
            center.addObserver(forName: Database.suspendNotification, object: nil, queue: nil) { [weak self] _ in self?.suspend() },
            center.addObserver(forName: Database.resumeNotification, object: nil, queue: nil) { [weak self] _ in self?.resume() },
        ]
    }

    var isSuspended: Bool { lock.withLock { suspended } }

    func register(_ suspension: DatabaseSuspension) {
        lock.withLock { connections[ObjectIdentifier(suspension)] = Weak(suspension: suspension) }
    }

    func unregister(_ suspension: DatabaseSuspension) {
        lock.withLock { connections[ObjectIdentifier(suspension)] = nil }
    }

    private func suspend() {
        let toInterrupt = lock.withLock {
            suspended = true
            return connections.values.compactMap(\.suspension)
        }
        for suspension in toInterrupt { suspension.interrupt() }
    }

    private func resume() {
        lock.withLock { suspended = false }
    }
}
