/// Something that can be stopped: an observation, mostly.
public protocol DatabaseCancellable: Sendable {
    /// Stops it; calling again does nothing.
    func cancel()
}

/// A type-erased cancellable that cancels when it is deinitialized: keep
/// it as long as the observation should last.
public final class AnyDatabaseCancellable: DatabaseCancellable {
    // @unchecked Sendable is not needed: the only state is a lock-protected box.
    private let box: CancelBox

    /// A cancellable that runs `cancel` once, at the first ``cancel()`` or
    /// at deinitialization.
    public init(cancel: @escaping @Sendable () -> Void) {
        box = CancelBox(cancel)
    }

    /// Wraps another cancellable.
    public convenience init(_ base: some DatabaseCancellable) {
        self.init(cancel: { base.cancel() })
    }

    public func cancel() {
        box.run()
    }

    deinit {
        box.run()
    }
}

import Foundation

/// Runs a closure at most once, from any thread.
final class CancelBox: @unchecked Sendable {
    // Sendable invariant: `action` is read and cleared under `lock` only.
    private let lock = NSLock()
    private var action: (@Sendable () -> Void)?

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    func run() {
        let action = lock.withLock { () -> (@Sendable () -> Void)? in
            defer { self.action = nil }
            return self.action
        }
        action?()
    }
}
