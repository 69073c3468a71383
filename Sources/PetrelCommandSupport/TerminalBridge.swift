// The terminal, the environment and raw writes through POSIX calls: the
// only pointer use of the command-line tools.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

public enum Terminal {
    /// Columns of the terminal on `descriptor`, or nil when it is not one.
    public static func width(of descriptor: Int32 = STDOUT_FILENO) -> Int? {
        var size = winsize()
        guard isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    public static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    public static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}

public enum ProcessEnvironment {
    /// The value of an environment variable, without building the whole
    /// environment as `ProcessInfo` does (a tenth of a millisecond of a
    /// search process).
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The current folder (getcwd), or "" when it cannot be read (it was
    /// removed). Without FileManager, whose first use costs a search
    /// process about 60 µs.
    public static var currentDirectory: String {
        var size = 4096
        while size <= 1 << 20 {
            let path: String? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) { buffer in
                guard let base = buffer.baseAddress, getcwd(base, size) != nil else { return nil }
                return String(cString: base)
            }
            if let path { return path }
            guard errno == ERANGE else { return "" }
            size *= 2
        }
        return ""
    }
}

enum Descriptor {
    /// Writes every byte, retrying after signals; the errno of a failed
    /// write, nil when all was written.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }
}
