// The terminal's width through ioctl: the only pointer use of petrel-search.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Terminal {
    /// Columns of the terminal on stdout, or nil when it is not one.
    static func width() -> Int? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
