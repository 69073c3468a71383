/// Why FTS5 tokenizes a text.
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#custom_tokenizers>
public struct FTS5Tokenization: OptionSet, Sendable {
    public let rawValue: CInt
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// A MATCH query (`FTS5_TOKENIZE_QUERY`).
    public static let query = FTS5Tokenization(rawValue: FTS5_TOKENIZE_QUERY)
    /// A prefix query term, with `query` (`FTS5_TOKENIZE_PREFIX`).
    public static let prefix = FTS5Tokenization(rawValue: FTS5_TOKENIZE_PREFIX)
    /// A document being inserted or deleted (`FTS5_TOKENIZE_DOCUMENT`).
    public static let document = FTS5Tokenization(rawValue: FTS5_TOKENIZE_DOCUMENT)
    /// An auxiliary function such as `highlight()` (`FTS5_TOKENIZE_AUX`).
    public static let aux = FTS5Tokenization(rawValue: FTS5_TOKENIZE_AUX)
}

/// Flags of an FTS5 token.
public struct FTS5TokenFlags: OptionSet, Sendable {
    public let rawValue: CInt
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// A synonym sharing the position of the previous token (`FTS5_TOKEN_COLOCATED`).
    public static let colocated = FTS5TokenFlags(rawValue: FTS5_TOKEN_COLOCATED)
}

/// The C callback an FTS5 tokenizer calls for each token: context, flags,
/// token bytes and length, start and end byte offsets in the input.
public typealias FTS5TokenCallback = @convention(c) (
    _ context: UnsafeMutableRawPointer?, _ flags: CInt, _ pToken: UnsafePointer<CChar>?,
    _ nToken: CInt, _ iStart: CInt, _ iEnd: CInt
) -> CInt

/// An FTS5 tokenizer at the level of SQLite's C interface (`xTokenize`).
///
/// A tokenizer that fails (returns an error code, or throws from a wrapper)
/// fails the statement. Inside a transaction, SQLite does not undo the
/// content row of an FTS5 `INSERT` whose tokenization failed: run such
/// inserts in ``Database/inSavepoint(_:)``, or roll the transaction back
/// (the synchronous `DatabaseWriter.write(_:)` does), to keep the table consistent.
///
/// Get SQLite's tokenizers with ``Database/makeTokenizer(_:)``; write your own
/// with ``FTS5CustomTokenizer`` or ``FTS5WrapperTokenizer``. For tokenizers
/// written in plain Swift, without pointers, see `TextTokenizer` in PetrelText.
public protocol FTS5Tokenizer: AnyObject {
    /// Tokenizes the UTF-8 text `pText` of `nText` bytes, calling
    /// `tokenCallback(context, ...)` for each token, and returns an SQLite
    /// result code (`SQLITE_OK` when done).
    func tokenize(
        context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?, nText: CInt, tokenCallback: @escaping FTS5TokenCallback
    ) -> CInt
}

/// An FTS5 tokenizer written in Swift, registered with ``Database/add(tokenizer:)``
/// and used as `tokenize='name arguments...'`.
///
/// ```swift
/// final class MyTokenizer: FTS5CustomTokenizer {
///     static let name = "my_tokenizer"
///     init(db: Database, arguments: [String]) throws { ... }
///     func tokenize(context:tokenization:pText:nText:tokenCallback:) -> CInt { ... }
/// }
/// config.prepareDatabase { db in db.add(tokenizer: MyTokenizer.self) }
/// ```
public protocol FTS5CustomTokenizer: FTS5Tokenizer {
    /// The name used in `tokenize=`. Must not be a built-in name.
    static var name: String { get }

    /// Creates a tokenizer for a table, with the arguments that follow its
    /// name in `tokenize=`. A thrown error fails the statement that needed it.
    init(db: Database, arguments: [String]) throws
}

extension FTS5CustomTokenizer {
    /// The descriptor of this tokenizer with arguments, for table definitions.
    public static func tokenizerDescriptor(arguments: [String] = []) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: [name] + arguments)
    }
}

/// Receives the tokens a wrapper tokenizer outputs.
public typealias FTS5WrapperTokenCallback = (_ token: String, _ flags: FTS5TokenFlags) throws -> Void

/// A custom tokenizer that post-processes the tokens of another one
/// (folding, stop words, synonyms...).
///
/// Implement ``accept(token:flags:for:tokenCallback:)``: call
/// `tokenCallback` zero, one or several times per token. Pass `flags` through;
/// add `.colocated` to every synonym after the first. Let the errors of
/// `tokenCallback` propagate.
public protocol FTS5WrapperTokenizer: FTS5CustomTokenizer {
    /// The tokenizer whose tokens are processed.
    var wrappedTokenizer: any FTS5Tokenizer { get }

    /// Processes one token of the wrapped tokenizer.
    func accept(
        token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback
    ) throws
}

extension FTS5Tokenizer {
    /// The tokens of a document, as FTS5 indexes them.
    public func tokenize(document string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try collectTokens(of: string, for: .document)
    }

    /// The tokens of a query, as FTS5 matches them.
    public func tokenize(query string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try collectTokens(of: string, for: .query)
    }
}

extension Database {
    /// An FTS5 tokenizer, built-in or registered on this connection. Use it
    /// only during the current access.
    ///
    /// ```swift
    /// let tokenizer = try db.makeTokenizer(.porter())
    /// try tokenizer.tokenize(document: "Frustrated databases") // [("frustrat", []), ("databas", [])]
    /// ```
    public func makeTokenizer(_ descriptor: FTS5TokenizerDescriptor) throws -> any FTS5Tokenizer {
        try FTS5TokenizerInstance(db: self, descriptor: descriptor)
    }
}
