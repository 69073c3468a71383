// The one place of the tools that replaces the running process (execv):
// C strings for the arguments, and nothing else.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum ProcessHandover {
    /// Runs `executable` with `arguments` (the first is its name) in place
    /// of this process, with the same environment and open files; returns
    /// only when that fails, with the reason.
    static func replaceProcess(with executable: String, arguments: [String]) -> String {
        let strings = arguments.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        var argv: [UnsafeMutablePointer<CChar>?] = strings + [nil]
        execv(executable, &argv)
        return String(cString: strerror(errno))
    }
}
