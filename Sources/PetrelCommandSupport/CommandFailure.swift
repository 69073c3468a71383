import PetrelIndex

/// An error of a command itself (not of the library): its message may
/// speak of the commands and their options.
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// How both commands report an error that stopped them: the lines to
/// show (the error, then a hint that names the commands' options, which
/// the library's messages never do) and the exit status. One place, so
/// that `petrel-index` and `petrel-search` say the same thing for the same
/// error and exit with the same status.
public enum FailureReport {
    /// The message and hint lines for `error`.
    public static func lines(for error: any Error) -> [String] {
        var lines = ["\(error)"]
        if let hint = hint(for: error) { lines.append(hint) }
        return lines
    }

    /// What the user can do about `error` with the commands, if anything.
    public static func hint(for error: any Error) -> String? {
        if DocumentIndex.isDamage(error) {
            return "petrel-index --rebuild makes a new index from the damaged one's folders (keeping the damaged file aside)"
        }
        guard let error = error as? IndexError else { return nil }
        switch error.code {
        case .noIndex: return "petrel-index FOLDER creates one (--index names another file)"
        case .unknownFolder: return "petrel-index --list names the index's folders"
        case .tokenizerMismatch: return "petrel-index --rebuild --tokenizer NAME changes the index's tokenizer"
        case .unsupportedIndex: return "petrel-index --rebuild FOLDER... makes a new index this version can read"
        case .notAnIndex, .damaged, .cannotOpen, .notAFolder, .invalidGlob, .invalidParameter: return nil
        }
    }

    /// The exit status for an error that stopped a command: it could not
    /// do its work (see ``ExitStatus``).
    public static func status(for error: any Error) -> ExitStatus { .failure }
}
