import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program and waits for it, with no descriptor of this process
/// but the standard ones, which go to /dev/null and to `errorsPath`.
/// Foundation's `Process` cannot start `pg_ctl`: the server it leaves
/// running inherits the socket by which `Process` learns that its child
/// ended, so `waitUntilExit` would wait for the server.
enum ServerProcessBridge {
    /// The program's exit status (-1 when it could not start).
    static func run(_ program: String, _ arguments: [String], errorsPath: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Every other descriptor is closed by bash before the program
        // starts (glibc's closefrom action is not visible to Swift).
        let closeAndRun = #"for fd in /proc/$$/fd/*; do n=${fd##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done; exec "$@""#
        let argv: [UnsafeMutablePointer<CChar>?] = (["/bin/bash", "-c", closeAndRun, "bash", program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/bash", &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        // WIFEXITED and WEXITSTATUS are macros Swift does not import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
    }
}
