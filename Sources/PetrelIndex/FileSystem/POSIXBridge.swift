// The file system through POSIX calls: the only file of PetrelIndex that
// handles C pointers. Paths are raw bytes, so that names which are not valid
// UTF-8 can still be opened; everything else works on `FilePath`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `lstat`/`stat` says of a path.
struct FileStatus: Sendable, Equatable {
    enum Kind: Sendable { case regular, directory, symbolicLink, other }
    var kind: Kind
    var size: Int64
    /// Modification time in nanoseconds since 1970.
    var modificationTime: Int64
    var device: UInt64
    var inode: UInt64
}

/// A failed system call on a path, with errno's message.
struct FileSystemError: Error, Sendable, CustomStringConvertible {
    var code: Int32
    var operation: String

    var description: String {
        guard let message = strerror(code) else { return "\(operation) failed (errno \(code))" }
        return String(cString: message)
    }

    var isMissing: Bool { code == ENOENT || code == ENOTDIR }
}

enum POSIX {
    private static func withCPath<T>(_ path: FilePath, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        var bytes = path.bytes
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    private static func status(_ info: stat) -> FileStatus {
        let kind: FileStatus.Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        return FileStatus(
            kind: kind, size: Int64(info.st_size),
            modificationTime: IndexTime.nanoseconds(seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec)),
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The status of the path itself (a symbolic link is not followed).
    static func linkStatus(_ path: FilePath) throws(FileSystemError) -> FileStatus {
        var info = stat()
        let result = withCPath(path) { lstat($0, &info) }
        guard result == 0 else { throw FileSystemError(code: errno, operation: "lstat") }
        return status(info)
    }

    /// The status of what the path points to (symbolic links followed).
    static func status(_ path: FilePath) throws(FileSystemError) -> FileStatus {
        var info = stat()
        let result = withCPath(path) { stat($0, &info) }
        guard result == 0 else { throw FileSystemError(code: errno, operation: "stat") }
        return status(info)
    }

    /// The names in a directory, without "." and "..", in no order.
    static func directoryEntries(_ path: FilePath) throws(FileSystemError) -> [[UInt8]] {
        guard let directory = withCPath(path, { opendir($0) }) else {
            throw FileSystemError(code: errno, operation: "opendir")
        }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw FileSystemError(code: errno, operation: "readdir") }
                return names
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) { bytes in
                    Array(UnsafeBufferPointer(start: bytes, count: strlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self))))
                }
            }
            if name == [46] || name == [46, 46] { continue }
            names.append(name)
        }
    }

    enum ReadOutcome: Sendable {
        case bytes([UInt8])
        /// The file holds more than the limit.
        case tooLarge(Int64)
    }

    /// Opens a regular file for reading (not blocking on a FIFO that
    /// replaced it) and returns its descriptor and status.
    private static func openRegularFile(_ path: FilePath) throws(FileSystemError) -> (Int32, stat) {
        let descriptor = withCPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { throw FileSystemError(code: errno, operation: "open") }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw FileSystemError(code: code, operation: "fstat")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw FileSystemError(code: EINVAL, operation: "open")
        }
        return (descriptor, info)
    }

    /// Reads into `buffer` from `count` until it is full or the file ends;
    /// returns the new count.
    private static func fill(_ buffer: inout [UInt8], from count: Int, reading descriptor: Int32) throws(FileSystemError) -> Int {
        var count = count
        while count < buffer.count {
            let capacity = buffer.count - count
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, capacity) }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(code: errno, operation: "read")
            }
            if got == 0 { break }
            count += got
        }
        return count
    }

    /// Asks the kernel to start reading the first `bytes` of a file into
    /// its cache, without waiting (`POSIX_FADV_WILLNEED`), so that the
    /// read that follows later finds them there. Opened as the read opens
    /// it (a FIFO that replaced the file does not block). Best effort: a
    /// file that cannot be opened is left alone, and the kernel ignores
    /// the advice for what is not a regular file.
    static func prefetch(_ path: FilePath, bytes: Int) {
        let descriptor = withCPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { return }
        _ = posix_fadvise(descriptor, 0, off_t(clamping: bytes), POSIX_FADV_WILLNEED)
        close(descriptor)
    }

    /// Reads at most `prefix` bytes of a file no larger than `limit`: the
    /// bytes, and whether the file holds more.
    static func readPrefix(_ path: FilePath, prefix: Int, limit: Int) throws(FileSystemError) -> (outcome: ReadOutcome, truncated: Bool) {
        let (descriptor, info) = try openRegularFile(path)
        defer { close(descriptor) }
        if Int64(info.st_size) > Int64(limit) { return (.tooLarge(Int64(info.st_size)), false) }
        // One byte past the expected size tells a file that grew, and one
        // past the prefix a longer file.
        var buffer = [UInt8](repeating: 0, count: min(prefix, Int(info.st_size)) + 1)
        var count = try fill(&buffer, from: 0, reading: descriptor)
        while count == buffer.count, buffer.count <= prefix {
            buffer.append(contentsOf: repeatElement(0, count: min(max(count, 4096), prefix + 1 - buffer.count)))
            count = try fill(&buffer, from: count, reading: descriptor)
        }
        let truncated = count > prefix
        buffer.removeSubrange(min(count, prefix)...)
        return (.bytes(buffer), truncated)
    }

    /// Reads a whole file, or stops and says so past `limit` bytes.
    static func readFile(_ path: FilePath, limit: Int) throws(FileSystemError) -> ReadOutcome {
        let (descriptor, info) = try openRegularFile(path)
        defer { close(descriptor) }
        if Int64(info.st_size) > Int64(limit) { return .tooLarge(Int64(info.st_size)) }
        // Read one byte past the expected size to see a file that grew.
        var buffer = [UInt8](repeating: 0, count: min(limit, Int(info.st_size)) + 1)
        var count = 0
        while true {
            count = try fill(&buffer, from: count, reading: descriptor)
            if count < buffer.count { break }
            if count > limit { return .tooLarge(Int64(count)) }
            buffer.append(contentsOf: repeatElement(0, count: min(max(count, 4096), limit + 1 - count)))
        }
        if count > limit { return .tooLarge(Int64(count)) }
        buffer.removeSubrange(count...)
        return .bytes(buffer)
    }

    /// The canonical absolute form of a path (symbolic links resolved).
    static func realPath(_ path: FilePath) throws(FileSystemError) -> FilePath {
        guard let resolved = withCPath(path, { realpath($0, nil) }) else {
            throw FileSystemError(code: errno, operation: "realpath")
        }
        defer { free(resolved) }
        let length = strlen(resolved)
        return FilePath(bytes: Array(UnsafeRawBufferPointer(start: resolved, count: length)))
    }

    /// Opens (creating it when missing) a lock file and takes an exclusive
    /// `flock` on it: at once when `wait` is false (nil when another
    /// process or descriptor holds it), else when it is released. The
    /// lock lasts until ``releaseLockFile(_:at:)`` or the process ends,
    /// however it ends.
    ///
    /// The holder removes the file when it releases it, so a process that
    /// opened the file just before may lock a file no longer at the path:
    /// the lock counts only when the file locked is still the one at the
    /// path, else it is taken again on the path's new file (a few times:
    /// a path whose file keeps changing is an error).
    static func lockFile(_ path: FilePath, wait: Bool) throws(FileSystemError) -> Int32? {
        for _ in 0..<100 {
            // Readable and writable by every user who may update the index
            // (umask permitting); a lock file made by another user is
            // opened read-only, which is enough for flock. Never through a
            // symbolic link.
            var descriptor = withCPath(path) { open($0, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o666) }
            if descriptor < 0, errno == EACCES { descriptor = withCPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) } }
            guard descriptor >= 0 else { throw FileSystemError(code: errno, operation: "open") }
            while flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
                let code = errno
                if code == EINTR { continue }
                close(descriptor)
                if code == EWOULDBLOCK { return nil }
                throw FileSystemError(code: code, operation: "flock")
            }
            var locked = stat()
            if fstat(descriptor, &locked) == 0, let current = try? linkStatus(path) {
                let held = status(locked)
                if (held.device, held.inode) == (current.device, current.inode) { return descriptor }
            }
            close(descriptor)
        }
        throw FileSystemError(code: EAGAIN, operation: "flock")
    }

    /// Releases a lock taken by ``lockFile(_:wait:)`` on `path`, removing
    /// the file first (while it is still held, so that no other process
    /// holds it at the path meanwhile).
    static func releaseLockFile(_ descriptor: Int32, at path: FilePath) {
        _ = withCPath(path) { unlink($0) }
        close(descriptor)
    }

    /// Whether an executable named `name` is on the PATH.
    static func isExecutable(_ path: FilePath) -> Bool {
        withCPath(path) { access($0, X_OK) } == 0
    }
}
