// Linux's inotify: the only file of PetrelIndex that calls it. A watch is
// one folder (inotify does not recurse); events come back as the folder's
// watch and the name of the entry that changed.

#if canImport(Glibc)
import Glibc

/// One inotify instance, with its watches.
final class Inotify {
    /// What happened to an entry of a watched folder.
    struct Event: Sendable {
        var watch: Int32
        var mask: UInt32
        /// The entry's name in its folder; empty for the folder itself.
        var name: [UInt8]

        var isDirectory: Bool { mask & UInt32(IN_ISDIR) != 0 }
        /// The kernel dropped events: only a rescan knows what changed.
        var isOverflow: Bool { mask & UInt32(IN_Q_OVERFLOW) != 0 }
        /// The watched folder itself is gone or moved.
        var isWatchGone: Bool { mask & (UInt32(IN_IGNORED) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0 }
    }

    enum Failure: Error, Sendable {
        /// The user's limit of watches is reached (fs.inotify.max_user_watches).
        case outOfWatches
        /// Another error, with errno's code.
        case system(Int32, String)
    }

    private let descriptor: Int32

    /// The events a folder is watched for: entries written and closed,
    /// created, deleted or moved, attributes (a `touch`), and the folder
    /// itself deleted or moved.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
                                     | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)

    init() throws(Failure) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw errno == EMFILE ? .outOfWatches : .system(errno, "inotify_init1")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Watches a folder; returns its watch (the same for a folder watched
    /// twice). A folder that vanished in between is not an error: nil.
    func watch(_ path: FilePath) throws(Failure) -> Int32? {
        var bytes = path.bytes
        bytes.append(0)
        let watch = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { inotify_add_watch(descriptor, $0.baseAddress, Self.mask) }
        }
        if watch >= 0 { return watch }
        switch errno {
        case ENOSPC: throw .outOfWatches
        case ENOENT, ENOTDIR, EACCES: return nil
        case let code: throw .system(code, "inotify_add_watch")
        }
    }

    /// The events that arrive within `timeout` milliseconds (all those
    /// already queued, without waiting, when some are).
    func events(waitingUpTo timeout: Int32) throws(Failure) -> [Event] {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, timeout)
        if ready < 0 {
            if errno == EINTR { return [] }
            throw .system(errno, "poll")
        }
        guard ready > 0 else { return [] }
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { return events }
                throw .system(errno, "read")
            }
            if count == 0 { return events }
            Self.parse(buffer[0..<count], into: &events)
        }
    }

    /// The events of one read: `struct inotify_event` records, each a
    /// fixed header and a NUL-padded name.
    private static func parse(_ bytes: ArraySlice<UInt8>, into events: inout [Event]) {
        let header = MemoryLayout<inotify_event>.size
        var offset = bytes.startIndex
        while offset + header <= bytes.endIndex {
            let record = bytes.withUnsafeBytes { raw in
                raw.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: inotify_event.self)
            }
            let nameStart = offset + header
            let nameEnd = min(bytes.endIndex, nameStart + Int(record.len))
            var name = Array(bytes[nameStart..<nameEnd])
            if let end = name.firstIndex(of: 0) { name.removeSubrange(end...) }
            events.append(Event(watch: record.wd, mask: record.mask, name: name))
            offset = nameEnd
        }
    }
}
#endif
