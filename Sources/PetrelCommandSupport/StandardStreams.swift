import Foundation

/// Writes to stdout and stderr that notice failures: output that cannot
/// be written (a full disk, a closed terminal) is an error, not a silent
/// success. A reader that stopped early (`| head`) is not an error: the
/// command ends quietly.
public enum StandardStreams {
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var code: Int32
        public var description: String { "cannot write the output: \(String(cString: strerror(code)))" }
    }

    /// Writes all of `text` to stdout. A closed pipe ends the process with
    /// status 0 (what was wanted has been read); any other failure throws.
    public static func writeOutput(_ text: String) throws(WriteError) {
        try writeOutput(bytes: Array(text.utf8))
    }

    /// Writes raw bytes (paths that are not UTF-8) to stdout.
    public static func writeOutput(bytes: [UInt8]) throws(WriteError) {
        if let code = Descriptor.writeAll(bytes, to: STDOUT_FILENO) {
            if code == EPIPE { exit(0) }
            throw WriteError(code: code)
        }
    }

    static func writeOutputIgnoringErrors(_ text: String) {
        _ = Descriptor.writeAll(Array(text.utf8), to: STDOUT_FILENO)
    }

    /// Writes to stderr; there is nowhere to report a failure of that.
    public static func writeError(_ text: String) {
        _ = Descriptor.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }
}
