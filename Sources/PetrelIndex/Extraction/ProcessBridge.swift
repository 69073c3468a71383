// Helper programs (pdftotext, antiword, catdoc...): the only file of
// PetrelIndex that spawns processes. A program runs without a shell, in a
// process group of its own, with its standard input closed; its output and
// its error messages are bounded, and the whole group is killed at the
// time limit, so that a helper that hangs (or a child it started) cannot
// hold an update.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Runs a helper program and collects its standard output.
enum ToolRunner {
    /// What a run produced.
    struct Output {
        /// The bytes the program wrote (up to the output limit).
        var bytes: [UInt8]
        /// The exit status, or nil when the program was killed.
        var status: Int32?
        /// Whether the program was killed at the time limit.
        var timedOut = false
        /// Whether the output reached its limit (the program was then stopped).
        var isCut = false
        /// What the program wrote to its standard error (its first 4 KB),
        /// for the reason of a failure; never shown as document text.
        var errors: [UInt8] = []
    }

    /// Where `name` is on the PATH (or in `searchPath`, colon-separated),
    /// or nil when it is not there.
    static func locate(_ name: String, searchPath: String? = nil) -> String? {
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments` (no shell), stdin from /dev/null,
    /// stderr kept apart (``Output/errors``). Past `timeLimit` seconds or `outputLimit` bytes the
    /// program and every process of its group are killed. Throws when it
    /// cannot be started.
    static func run(_ executable: String, arguments: [String], timeLimit: Double, outputLimit: Int) throws(ExtractionError) -> Output {
        // Every end is made close-on-exec at once: a program another thread
        // starts later inherits none of them (holding a write end open, it
        // would keep this reader waiting until it exits). The child's
        // standard output and error are copies (dup2), which are not.
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw .unreadable("cannot run \(executable): no pipe (errno \(errno))") }
        let readEnd = pipeEnds[0]
        let writeEnd = pipeEnds[1]
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        var errorEnds: [Int32] = [-1, -1]
        guard pipe(&errorEnds) == 0 else {
            close(readEnd)
            close(writeEnd)
            throw .unreadable("cannot run \(executable): no pipe (errno \(errno))")
        }
        let errorRead = errorEnds[0]
        let errorWrite = errorEnds[1]
        _ = fcntl(errorRead, F_SETFD, FD_CLOEXEC)
        _ = fcntl(errorWrite, F_SETFD, FD_CLOEXEC)
        _ = fcntl(errorRead, F_SETFL, fcntl(errorRead, F_GETFL) | O_NONBLOCK)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, errorWrite, 2)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        posix_spawn_file_actions_addclose(&actions, errorWrite)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (killed as one), default signal handling
        // (SIGPIPE included) and no blocked signals.
        posix_spawnattr_setpgroup(&attributes, 0)
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv + [nil]
        var pid = pid_t()
        var spawned = posix_spawn(&pid, executable, &actions, &attributes, &cArguments, environ)
        // "Text file busy": the program file is still open for writing,
        // often only in a process another thread of this one is starting
        // (it inherited the descriptor until its exec). Wait for it, up to
        // two seconds.
        var retries = 0
        while spawned == ETXTBSY, retries < 40 {
            retries += 1
            usleep(50_000)
            spawned = posix_spawn(&pid, executable, &actions, &attributes, &cArguments, environ)
        }
        close(writeEnd)
        close(errorWrite)
        guard spawned == 0 else {
            close(readEnd)
            close(errorRead)
            throw .unreadable("cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        defer {
            close(readEnd)
            close(errorRead)
        }

        var output = Output(bytes: [], status: nil)
        let deadline = Date().addingTimeInterval(timeLimit)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var killed = false
        reading: while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                output.timedOut = true
                break reading
            }
            var descriptors = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0), pollfd(fd: errorRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, Int32(min(remaining * 1000, 1000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                break reading
            }
            if descriptors[1].revents != 0 { readErrors(errorRead, into: &output.errors, chunk: &chunk) }
            if descriptors[0].revents == 0 { continue }
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                break reading
            }
            if count == 0 { break reading }
            let room = outputLimit - output.bytes.count
            output.bytes.append(contentsOf: chunk[0..<min(count, room)])
            if count >= room {
                output.isCut = true
                break reading
            }
        }
        if output.timedOut || output.isCut {
            kill(-pid, SIGKILL)
            killed = true
        }
        // The program closed its output: wait for it to exit, within the limit.
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, killed ? 0 : WNOHANG)
            if result == pid { break }
            if result < 0, errno != EINTR { break }
            if result == 0 {
                if deadline.timeIntervalSinceNow <= 0 {
                    output.timedOut = true
                    kill(-pid, SIGKILL)
                    killed = true
                } else {
                    usleep(2_000)
                }
            }
        }
        // Children it left behind in its group go with it.
        if !killed { kill(-pid, SIGKILL) }
        readErrors(errorRead, into: &output.errors, chunk: &chunk)
        let exited = (status & 0x7F) == 0
        output.status = exited && !killed ? (status >> 8) & 0xFF : nil
        return output
    }

    /// Reads what is there of a program's standard error (non-blocking),
    /// keeping the first 4 KB.
    private static func readErrors(_ descriptor: Int32, into errors: inout [UInt8], chunk: inout [UInt8]) {
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            errors.append(contentsOf: chunk[0..<min(count, max(0, 4096 - errors.count))])
        }
    }
}
