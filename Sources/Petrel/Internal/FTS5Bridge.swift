// The C side of FTS5 tokenizers: reaching fts5_api, wrapping SQLite's own
// tokenizers as FTS5Tokenizer objects, and registering Swift tokenizers.
//
// Lifetime rules:
// - The fts5_api pointer belongs to the connection and lives as long as it.
// - A registered tokenizer type is boxed (TokenizerFactory), retained when
//   registered and released by SQLite's xDestroy.
// - Each tokenizer instance SQLite creates is boxed (TokenizerHolder),
//   retained in xCreate and released in xDelete.
// - Token callbacks receive a context box that lives on the caller's stack
//   frame (withExtendedLifetime) for the duration of xTokenize.

import Foundation

// MARK: - fts5_api

extension Database {
    /// The connection's FTS5 API, fetched once with `SELECT fts5(?)`.
    func fts5API() throws -> UnsafePointer<fts5_api> {
        if let api = fts5APIPointer { return api }
        let connection = try checkedConnection()
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "SELECT fts5(?)", -1, &statement, nil) == SQLITE_OK else {
            throw DatabaseError.lastError(connection, sql: "SELECT fts5(?)")
        }
        defer { sqlite3_finalize(statement) }
        var api: UnsafeMutablePointer<fts5_api>?
        // SQLite keeps the type string pointer: it must be static.
        let type: StaticString = "fts5_api_ptr"
        let code = withUnsafeMutablePointer(to: &api) { pointer -> CInt in
            type.withUTF8Buffer { typeBuffer in
                typeBuffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: typeBuffer.count + 1) { typeName in
                    sqlite3_bind_pointer(statement, 1, pointer, typeName, nil)
                    return sqlite3_step(statement)
                }
            }
        }
        guard code == SQLITE_ROW, let api else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 is not available in this SQLite build")
        }
        let result = UnsafePointer(api)
        fts5APIPointer = result
        return result
    }
}

/// Copies Swift strings into C strings for the duration of `body`.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>?, CInt) throws -> T) rethrows -> T {
    let duplicates = strings.map { strdup($0) }
    defer { duplicates.forEach { free($0) } }
    var pointers: [UnsafePointer<CChar>?] = duplicates.map { $0.map { UnsafePointer($0) } }
    return try pointers.withUnsafeMutableBufferPointer { buffer in
        try body(buffer.baseAddress, CInt(strings.count))
    }
}

private func strings(_ azArg: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ nArg: CInt) -> [String] {
    guard let azArg, nArg > 0 else { return [] }
    return (0..<Int(nArg)).map { azArg[$0].map { String(cString: $0) } ?? "" }
}

// MARK: - SQLite's tokenizers as FTS5Tokenizer

/// A tokenizer instance created through `xFindTokenizer` + `xCreate`.
final class FTS5TokenizerInstance: FTS5Tokenizer {
    private var module = fts5_tokenizer()
    private var handle: OpaquePointer?

    init(db: Database, descriptor: FTS5TokenizerDescriptor) throws {
        let api = try db.fts5API()
        var context: UnsafeMutableRawPointer?
        guard let findTokenizer = api.pointee.xFindTokenizer,
              findTokenizer(UnsafeMutablePointer(mutating: api), descriptor.name, &context, &module) == SQLITE_OK,
              let create = module.xCreate
        else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such tokenizer: \(descriptor.name)")
        }
        let code = withCStrings(descriptor.arguments) { azArg, nArg in
            create(context, azArg, nArg, &handle)
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "could not create tokenizer \(descriptor.components)")
        }
    }

    deinit {
        if let handle { module.xDelete?(handle) }
    }

    func tokenize(
        context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?, nText: CInt, tokenCallback: @escaping FTS5TokenCallback
    ) -> CInt {
        guard let xTokenize = module.xTokenize else { return SQLITE_ERROR }
        return xTokenize(handle, context, tokenization.rawValue, pText, nText, tokenCallback)
    }
}

// MARK: - Collecting tokens

/// A token SQLite hands to a token callback, as text, given to `body`
/// with the object the callback's context points to.
private func receiveToken<Receiver: AnyObject>(
    _ context: UnsafeMutableRawPointer?, _ pToken: UnsafePointer<CChar>?, _ nToken: CInt, _ body: (Receiver, String) -> CInt
) -> CInt {
    guard let context else { return SQLITE_ERROR }
    let token = pToken.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(max(0, nToken))), as: UTF8.self) } ?? ""
    return body(Unmanaged<Receiver>.fromOpaque(context).takeUnretainedValue(), token)
}

private final class TokenCollector {
    var tokens: [(token: String, flags: FTS5TokenFlags)] = []
}

private func collectToken(
    _ context: UnsafeMutableRawPointer?, _ flags: CInt, _ pToken: UnsafePointer<CChar>?,
    _ nToken: CInt, _ iStart: CInt, _ iEnd: CInt
) -> CInt {
    receiveToken(context, pToken, nToken) { (collector: TokenCollector, token) in
        collector.tokens.append((token, FTS5TokenFlags(rawValue: flags)))
        return SQLITE_OK
    }
}

extension FTS5Tokenizer {
    func collectTokens(of string: String, for tokenization: FTS5Tokenization) throws -> [(token: String, flags: FTS5TokenFlags)] {
        let collector = TokenCollector()
        var text = string
        let code = withExtendedLifetime(collector) {
            text.withUTF8 { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    tokenize(
                        context: Unmanaged.passUnretained(collector).toOpaque(), tokenization: tokenization,
                        pText: chars.baseAddress, nText: CInt(chars.count), tokenCallback: collectToken)
                }
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "tokenizer failed")
        }
        return collector.tokens
    }
}

// MARK: - Registering Swift tokenizers

/// What SQLite keeps for a registered tokenizer type.
private final class TokenizerFactory {
    unowned let db: Database
    let make: (Database, [String]) throws -> any FTS5Tokenizer
    init(db: Database, make: @escaping (Database, [String]) throws -> any FTS5Tokenizer) {
        self.db = db
        self.make = make
    }
}

/// What SQLite keeps for one tokenizer instance.
private final class TokenizerHolder {
    let tokenizer: any FTS5Tokenizer
    init(_ tokenizer: any FTS5Tokenizer) { self.tokenizer = tokenizer }
}

private func createSwiftTokenizer(
    _ context: UnsafeMutableRawPointer?, _ azArg: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ nArg: CInt, _ ppOut: UnsafeMutablePointer<OpaquePointer?>?
) -> CInt {
    guard let context, let ppOut else { return SQLITE_ERROR }
    let factory = Unmanaged<TokenizerFactory>.fromOpaque(context).takeUnretainedValue()
    do {
        let tokenizer = try factory.make(factory.db, strings(azArg, nArg))
        ppOut.pointee = OpaquePointer(Unmanaged.passRetained(TokenizerHolder(tokenizer)).toOpaque())
        return SQLITE_OK
    } catch let error as DatabaseError {
        return error.extendedResultCode.rawValue
    } catch {
        return SQLITE_ERROR
    }
}

private func deleteSwiftTokenizer(_ tokenizer: OpaquePointer?) {
    guard let tokenizer else { return }
    Unmanaged<TokenizerHolder>.fromOpaque(UnsafeRawPointer(tokenizer)).release()
}

private func runSwiftTokenizer(
    _ tokenizer: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ flags: CInt,
    _ pText: UnsafePointer<CChar>?, _ nText: CInt,
    _ xToken: (@convention(c) (UnsafeMutableRawPointer?, CInt, UnsafePointer<CChar>?, CInt, CInt, CInt) -> CInt)?
) -> CInt {
    guard let tokenizer, let xToken else { return SQLITE_ERROR }
    let holder = Unmanaged<TokenizerHolder>.fromOpaque(UnsafeRawPointer(tokenizer)).takeUnretainedValue()
    return holder.tokenizer.tokenize(
        context: context, tokenization: FTS5Tokenization(rawValue: flags), pText: pText, nText: nText, tokenCallback: xToken)
}

extension Database {
    /// Registers a custom FTS5 tokenizer on this connection. Register it on
    /// every connection, in ``Configuration/prepareDatabase(_:)``.
    public func add<Tokenizer: FTS5CustomTokenizer>(tokenizer: Tokenizer.Type) {
        do {
            try addFTS5Tokenizer(named: Tokenizer.name) { db, arguments in try Tokenizer(db: db, arguments: arguments) }
        } catch {
            preconditionFailure("could not add tokenizer \(Tokenizer.name): \(error)")
        }
    }

    /// Registers a tokenizer factory under `name` (`fts5_api.xCreateTokenizer`).
    func addFTS5Tokenizer(named name: String, make: @escaping (Database, [String]) throws -> any FTS5Tokenizer) throws {
        let api = try fts5API()
        guard let createTokenizer = api.pointee.xCreateTokenizer else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 cannot register tokenizers")
        }
        var module = fts5_tokenizer(
            xCreate: { createSwiftTokenizer($0, $1, $2, $3) },
            xDelete: { deleteSwiftTokenizer($0) },
            xTokenize: { runSwiftTokenizer($0, $1, $2, $3, $4, $5) })
        let factory = Unmanaged.passRetained(TokenizerFactory(db: self, make: make)).toOpaque()
        // SQLite copies the fts5_tokenizer struct, and calls xDestroy on the
        // factory when the tokenizer is replaced or the connection closes
        // (and also when registration fails).
        let code = createTokenizer(UnsafeMutablePointer(mutating: api), name, factory, &module) { pointer in
            pointer.map { Unmanaged<TokenizerFactory>.fromOpaque($0).release() }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "could not register tokenizer \(name)")
        }
    }
}

// MARK: - Wrapper tokenizers

/// The state of one FTS5WrapperTokenizer.tokenize call, reached from the C token callback.
private final class WrapperTokenization {
    let wrapper: any FTS5WrapperTokenizer
    let context: UnsafeMutableRawPointer?
    let tokenization: FTS5Tokenization
    let callback: FTS5TokenCallback
    var error: (any Error)?

    init(wrapper: any FTS5WrapperTokenizer, context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization, callback: @escaping FTS5TokenCallback) {
        self.wrapper = wrapper
        self.context = context
        self.tokenization = tokenization
        self.callback = callback
    }
}

/// Carries a non-OK code from SQLite's token callback through `accept`.
struct FTS5CallbackError: Error {
    let code: CInt
}

private func wrapperToken(
    _ context: UnsafeMutableRawPointer?, _ flags: CInt, _ pToken: UnsafePointer<CChar>?,
    _ nToken: CInt, _ iStart: CInt, _ iEnd: CInt
) -> CInt {
    receiveToken(context, pToken, nToken) { (state: WrapperTokenization, token) in
        do {
            try state.wrapper.accept(token: token, flags: FTS5TokenFlags(rawValue: flags), for: state.tokenization) { output, outputFlags in
                var output = output
                let code = output.withUTF8 { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { chars in
                        state.callback(state.context, outputFlags.rawValue, chars.baseAddress, CInt(chars.count), iStart, iEnd)
                    }
                }
                if code != SQLITE_OK { throw FTS5CallbackError(code: code) }
            }
            return SQLITE_OK
        } catch let error as FTS5CallbackError {
            return error.code
        } catch let error as DatabaseError {
            return error.extendedResultCode.rawValue
        } catch {
            state.error = error
            return SQLITE_ERROR
        }
    }
}

extension FTS5WrapperTokenizer {
    /// Runs the wrapped tokenizer and passes each of its tokens through
    /// ``accept(token:flags:for:tokenCallback:)``, keeping their offsets.
    public func tokenize(
        context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?, nText: CInt, tokenCallback: @escaping FTS5TokenCallback
    ) -> CInt {
        let state = WrapperTokenization(wrapper: self, context: context, tokenization: tokenization, callback: tokenCallback)
        return withExtendedLifetime(state) {
            wrappedTokenizer.tokenize(
                context: Unmanaged.passUnretained(state).toOpaque(), tokenization: tokenization,
                pText: pText, nText: nText, tokenCallback: wrapperToken)
        }
    }
}

// MARK: - Swift TextTokenizers inside FTS5

extension TokenizationReason {
    init(fts5 tokenization: FTS5Tokenization) {
        if tokenization.contains(.query) {
            self = tokenization.contains(.prefix) ? .prefixQuery : .query
        } else if tokenization.contains(.aux) {
            self = .aux
        } else {
            self = .document
        }
    }
}

/// Thrown to stop tokenization when SQLite's token callback returns an error.
private struct TokenCallbackStopped: Error {
    let code: CInt
}

/// Runs a ``TextTokenizer`` as an FTS5 tokenizer: decodes the input, checks
/// every token's offsets, and forwards tokens to SQLite.
final class TextTokenizerFTS5Adapter: FTS5Tokenizer {
    let tokenizer: any TextTokenizer
    /// Where tokens computed ahead may be offered for a document's text.
    let replay: TokenReplay?

    /// The same tokenizer when it can hand tokens over as bytes.
    let bytesTokenizer: (any UTF8TokenEmitting)?

    init(_ tokenizer: any TextTokenizer, replay: TokenReplay? = nil) {
        self.tokenizer = tokenizer
        self.replay = replay
        bytesTokenizer = tokenizer as? any UTF8TokenEmitting
    }

    func tokenize(
        context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?, nText: CInt, tokenCallback: @escaping FTS5TokenCallback
    ) -> CInt {
        let byteCount = Int(max(0, nText))
        if let replay, tokenization.isDisjoint(with: [.query, .aux]), let pText,
           let tokens = replay.offeredTokens(), tokens.hasText(UnsafeRawBufferPointer(start: pText, count: byteCount)) {
            return tokens.replay(context: context, tokenCallback: tokenCallback)
        }
        let text = pText.map { TextInput.string(UnsafeRawBufferPointer(start: $0, count: byteCount)) } ?? ""
        var isFirst = true
        do {
            // Two closures with the same checks, not one nested function
            // for both: that measured 4–5% slower on `petrel-bench`'s Swift
            // tokenizer row (2026-11-28).
            if let bytesTokenizer {
                // Each token's bytes straight to SQLite: no `String` per word.
                try bytesTokenizer.tokenizeUTF8(text, for: TokenizationReason(fts5: tokenization)) { bytes, byteRange, isColocated in
                    guard Token.isValidFTS5Token(byteRange: byteRange, isColocated: isColocated, inTextOf: byteCount, isFirst: isFirst) else {
                        throw TokenCallbackStopped(code: SQLITE_ERROR)
                    }
                    isFirst = false
                    let code = bytes.withMemoryRebound(to: CChar.self) { chars in
                        tokenCallback(context, isColocated ? FTS5_TOKEN_COLOCATED : 0, chars.baseAddress, CInt(chars.count),
                                      CInt(byteRange.lowerBound), CInt(byteRange.upperBound))
                    }
                    if code != SQLITE_OK { throw TokenCallbackStopped(code: code) }
                }
                return SQLITE_OK
            }
            try tokenizer.tokenize(text, for: TokenizationReason(fts5: tokenization)) { token in
                guard Token.isValidFTS5Token(byteRange: token.byteRange, isColocated: token.isColocated, inTextOf: byteCount, isFirst: isFirst) else {
                    throw TokenCallbackStopped(code: SQLITE_ERROR)
                }
                isFirst = false
                var tokenText = token.text
                let code = tokenText.withUTF8 { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { chars in
                        tokenCallback(
                            context, token.isColocated ? FTS5_TOKEN_COLOCATED : 0, chars.baseAddress, CInt(chars.count),
                            CInt(token.byteRange.lowerBound), CInt(token.byteRange.upperBound))
                    }
                }
                if code != SQLITE_OK { throw TokenCallbackStopped(code: code) }
            }
            return SQLITE_OK
        } catch let stop as TokenCallbackStopped {
            // SQLITE_DONE from the callback means "enough tokens", not an error.
            return stop.code == SQLITE_DONE ? SQLITE_OK : stop.code
        } catch let error as DatabaseError {
            return error.extendedResultCode.rawValue
        } catch {
            return SQLITE_ERROR
        }
    }
}

extension PrecomputedTokens.Buffers {
    /// Appends the tokens of the document `text` (of `byteCount` UTF-8
    /// bytes), as bytes when the tokenizer hands them over so (no `String`
    /// and no `Token` per word). False when they cannot be replayed (see
    /// ``PrecomputedTokens/init(_:tokenizer:arguments:)``).
    mutating func appendTokens(of text: String, byteCount: Int, from tokenizer: some TextTokenizer) -> Bool {
        var valid = true
        func add(_ bytes: UnsafeBufferPointer<UInt8>, _ byteRange: Range<Int>, _ isColocated: Bool) {
            guard valid, Token.isValidFTS5Token(byteRange: byteRange, isColocated: isColocated, inTextOf: byteCount, isFirst: entries.isEmpty) else {
                valid = false
                return
            }
            tokenBytes.append(contentsOf: bytes)
            // The offsets table holds 31 bits.
            guard tokenBytes.count < Int(PrecomputedTokens.colocatedBit) else {
                valid = false
                return
            }
            let textEnd = UInt32(tokenBytes.count) | (isColocated ? PrecomputedTokens.colocatedBit : 0)
            entries.append((UInt32(byteRange.lowerBound), UInt32(byteRange.upperBound), textEnd))
        }
        do {
            if let bytesTokenizer = tokenizer as? any UTF8TokenEmitting {
                try bytesTokenizer.tokenizeUTF8(text, for: .document, emit: add)
            } else {
                try tokenizer.tokenize(text, for: .document) { token in
                    var tokenText = token.text
                    tokenText.withUTF8 { add($0, token.byteRange, token.isColocated) }
                }
            }
        } catch {
            return false
        }
        return valid
    }
}

extension PrecomputedTokens {
    /// Whether `bytes` are the UTF-8 of the text the tokens were made from.
    func hasText(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == text.utf8.count else { return false }
        let same = text.utf8.withContiguousStorageIfAvailable { storage -> Bool in
            guard let mine = storage.baseAddress, let theirs = bytes.baseAddress else { return bytes.count == 0 }
            return UnsafeRawPointer(mine) == theirs || memcmp(mine, theirs, bytes.count) == 0
        }
        return same ?? text.utf8.elementsEqual(bytes)
    }

    /// Hands every token to SQLite's callback, as the adapter would have.
    func replay(context: UnsafeMutableRawPointer?, tokenCallback: FTS5TokenCallback) -> CInt {
        tokenBytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress).map { $0.assumingMemoryBound(to: CChar.self) }
            var start = 0
            for entry in entries {
                let end = Int(entry.textEnd & ~Self.colocatedBit)
                let flags = entry.textEnd & Self.colocatedBit != 0 ? FTS5_TOKEN_COLOCATED : 0
                let code = tokenCallback(context, flags, base.map { $0 + start }, CInt(end - start), CInt(entry.start), CInt(entry.end))
                start = end
                // SQLITE_DONE from the callback means "enough tokens".
                if code == SQLITE_DONE { return SQLITE_OK }
                if code != SQLITE_OK { return code }
            }
            return SQLITE_OK
        }
    }
}

/// Text handed to Swift tokenizers by SQLite.
enum TextInput {
    /// The bytes as a String whose UTF-8 has exactly the same length, so token
    /// offsets stay offsets into SQLite's buffer. Each byte of an invalid
    /// UTF-8 sequence becomes a space (a separator) instead of the 3-byte U+FFFD.
    static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        let buffer = bytes.bindMemory(to: UInt8.self)
        if let valid = String(validating: buffer, as: UTF8.self) { return valid }
        var repaired = [UInt8](buffer)
        var index = 0
        while index < repaired.count {
            let length = validSequenceLength(repaired, at: index)
            if length == 0 {
                repaired[index] = 0x20
                index += 1
            } else {
                index += length
            }
        }
        return String(decoding: repaired, as: UTF8.self)
    }

    /// The length of the valid UTF-8 sequence at `index`, or 0.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var minimum: UInt32
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2; minimum = 0x80
        case 0xE0...0xEF: length = 3; minimum = 0x800
        case 0xF0...0xF4: length = 4; minimum = 0x10000
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return 0 }
            value = (value << 6) | UInt32(byte & 0x3F)
        }
        minimum = max(minimum, 0)
        guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return 0 }
        return length
    }
}
