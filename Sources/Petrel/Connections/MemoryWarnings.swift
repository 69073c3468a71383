import Foundation

/// Memory warnings of the system, for ``Configuration/automaticMemoryManagement``:
/// iOS, tvOS and visionOS post one when applications should free memory;
/// Linux and macOS post none, and there nothing is observed.
enum MemoryWarnings {
    /// Calls `release` in the background on each memory warning while the
    /// returned observation lives; nil where the system posts none.
    static func observe(_ release: @escaping @Sendable () -> Void) -> Observation? {
        #if os(iOS) || os(tvOS) || os(visionOS)
        let name = Notification.Name("UIApplicationDidReceiveMemoryWarningNotification")
        let token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { _ in
            DispatchQueue.global(qos: .utility).async(execute: release)
        }
        return Observation(token: token)
        #else
        return nil
        #endif
    }

    /// An observation, removed when it is released.
    // @unchecked Sendable: `token` is set once in init and only handed to
    // NotificationCenter (which is thread-safe) in deinit.
    final class Observation: @unchecked Sendable {
        private let token: any NSObjectProtocol

        init(token: any NSObjectProtocol) { self.token = token }

        deinit { NotificationCenter.default.removeObserver(token) }
    }
}
