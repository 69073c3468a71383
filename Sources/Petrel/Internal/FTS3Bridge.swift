// The C side of FTS3/FTS4 tokenizers written in Swift (sqlite3_tokenizer_module).
//
// FTS3's xCreate receives only the table's arguments, not the tokenizer
// name nor any context pointer, so a module cannot tell which Swift
// tokenizer it stands for. Each registered name therefore gets its own
// module struct with its own xCreate function: a fixed set of 8
// non-capturing closures, one per slot. The names, their slots and their
// factories live in a process-wide registry, so at most 8 distinct
// names can be registered in a process (re-registering a name reuses its
// slot and replaces its factory).
//
// Lifetime rules:
// - Module structs are allocated once per slot and never freed: FTS3 keeps
//   their address for as long as any connection uses the name.
// - A tokenizer (petrel_fts3_tokenizer) is malloc'ed in xCreate, holds a
//   retained Swift box, and is freed in xDestroy.
// - A cursor (petrel_fts3_cursor) owns the tokens of one input and the
//   buffer of the token last returned, until xClose.

import Foundation

private final class FTS3TokenizerRegistry: @unchecked Sendable {
    // Sendable invariant: `names` and `factories` are only touched under
    // `lock`; `modules` is written once per slot under the same lock, and the
    // memory it points to is never written again.
    private let lock = NSLock()
    private var names: [String: Int] = [:]
    private var factories: [(@Sendable ([String]) throws -> any TextTokenizer)?] = Array(repeating: nil, count: 8)
    private var modules: [UnsafeMutablePointer<sqlite3_tokenizer_module>?] = Array(repeating: nil, count: 8)

    static let shared = FTS3TokenizerRegistry()

    /// The module for `name`, with `make` as its factory.
    func module(for name: String, make: @escaping @Sendable ([String]) throws -> any TextTokenizer) throws -> UnsafeMutablePointer<sqlite3_tokenizer_module> {
        try lock.withLock {
            let slot: Int
            if let existing = names[name] {
                slot = existing
            } else {
                guard names.count < 8 else {
                    throw DatabaseError(
                        resultCode: .SQLITE_FULL,
                        message: "too many FTS3 tokenizer names in this process (at most 8): \(name)")
                }
                slot = names.count
                names[name] = slot
            }
            factories[slot] = make
            if let module = modules[slot] { return module }
            let module = UnsafeMutablePointer<sqlite3_tokenizer_module>.allocate(capacity: 1)
            module.initialize(to: sqlite3_tokenizer_module(
                iVersion: 0, xCreate: createFunctions[slot],
                xDestroy: { fts3Destroy($0) },
                xOpen: { fts3Open($0, $1, $2, $3) },
                xClose: { fts3Close($0) },
                xNext: { fts3Next($0, $1, $2, $3, $4, $5) },
                xLanguageid: nil))
            modules[slot] = module
            return module
        }
    }

    func factory(slot: Int) -> (@Sendable ([String]) throws -> any TextTokenizer)? {
        lock.withLock { factories[slot] }
    }
}

private typealias FTS3CreateFunction = @convention(c) (
    CInt, UnsafePointer<UnsafePointer<CChar>?>?, UnsafeMutablePointer<UnsafeMutablePointer<sqlite3_tokenizer>?>?
) -> CInt

/// One xCreate per slot: closures that capture nothing, so C can call them.
private let createFunctions: [FTS3CreateFunction] = [
    { fts3Create(slot: 0, $0, $1, $2) }, { fts3Create(slot: 1, $0, $1, $2) }, { fts3Create(slot: 2, $0, $1, $2) }, { fts3Create(slot: 3, $0, $1, $2) },
    { fts3Create(slot: 4, $0, $1, $2) }, { fts3Create(slot: 5, $0, $1, $2) }, { fts3Create(slot: 6, $0, $1, $2) }, { fts3Create(slot: 7, $0, $1, $2) },
]

/// The Swift side of one FTS3 tokenizer instance.
private final class FTS3TokenizerBox {
    let tokenizer: any TextTokenizer
    init(_ tokenizer: any TextTokenizer) { self.tokenizer = tokenizer }
}

/// The Swift side of one FTS3 cursor: all tokens of one input.
private final class FTS3CursorBox {
    var tokens: [Token] = []
    var next = 0
    var position = -1
    /// The bytes of the token last returned: FTS3 reads them until the next
    /// call, so they live in a buffer the box owns.
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0

    /// Copies `text` into the buffer and returns it with its byte count.
    func store(_ text: String) -> (UnsafePointer<CChar>, Int) {
        let count = text.utf8.count
        if count + 1 > capacity {
            buffer?.deallocate()
            capacity = Swift.max(64, count + 1)
            buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        }
        let destination = buffer.unsafelyUnwrapped // allocated just above when missing
        _ = UnsafeMutableBufferPointer(start: destination, count: capacity)
            .withMemoryRebound(to: UInt8.self) { $0.initialize(from: text.utf8) }
        destination[count] = 0
        return (UnsafePointer(destination), count)
    }

    deinit {
        buffer?.deallocate()
    }
}

private func fts3Create(slot: Int, _ argc: CInt, _ argv: UnsafePointer<UnsafePointer<CChar>?>?, _ pp: UnsafeMutablePointer<UnsafeMutablePointer<sqlite3_tokenizer>?>?) -> CInt {
    guard let pp, let make = FTS3TokenizerRegistry.shared.factory(slot: slot) else { return SQLITE_ERROR }
    let arguments = (0..<Int(max(0, argc))).map { argv?[$0].map { String(cString: $0) } ?? "" }
    let tokenizer: any TextTokenizer
    do {
        tokenizer = try make(arguments)
    } catch let error as DatabaseError {
        return error.extendedResultCode.rawValue
    } catch {
        return SQLITE_ERROR
    }
    let instance = UnsafeMutablePointer<petrel_fts3_tokenizer>.allocate(capacity: 1)
    instance.initialize(to: petrel_fts3_tokenizer(
        base: sqlite3_tokenizer(pModule: nil), context: Unmanaged.passRetained(FTS3TokenizerBox(tokenizer)).toOpaque()))
    pp.pointee = UnsafeMutableRawPointer(instance).assumingMemoryBound(to: sqlite3_tokenizer.self)
    return SQLITE_OK
}

private func fts3Destroy(_ tokenizer: UnsafeMutablePointer<sqlite3_tokenizer>?) -> CInt {
    guard let tokenizer else { return SQLITE_OK }
    let instance = UnsafeMutableRawPointer(tokenizer).assumingMemoryBound(to: petrel_fts3_tokenizer.self)
    if let context = instance.pointee.context { Unmanaged<FTS3TokenizerBox>.fromOpaque(context).release() }
    instance.deinitialize(count: 1)
    instance.deallocate()
    return SQLITE_OK
}

private func fts3Open(
    _ tokenizer: UnsafeMutablePointer<sqlite3_tokenizer>?, _ input: UnsafePointer<CChar>?, _ nBytes: CInt,
    _ ppCursor: UnsafeMutablePointer<UnsafeMutablePointer<sqlite3_tokenizer_cursor>?>?
) -> CInt {
    guard let tokenizer, let ppCursor else { return SQLITE_ERROR }
    let instance = UnsafeMutableRawPointer(tokenizer).assumingMemoryBound(to: petrel_fts3_tokenizer.self)
    guard let context = instance.pointee.context else { return SQLITE_ERROR }
    let box = Unmanaged<FTS3TokenizerBox>.fromOpaque(context).takeUnretainedValue()
    let byteCount = input.map { nBytes < 0 ? strlen($0) : Int(nBytes) } ?? 0
    let text = input.map { TextInput.string(UnsafeRawBufferPointer(start: $0, count: byteCount)) } ?? ""
    let cursorBox = FTS3CursorBox()
    do {
        // FTS3 gives no reason; its tokenizer serves documents and queries alike.
        try box.tokenizer.tokenize(text, for: .document) { token in
            guard token.byteRange.lowerBound >= 0, token.byteRange.upperBound <= byteCount else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "token offsets out of range")
            }
            // FTS3 has no colocated tokens and tokenizes queries as it does
            // documents: extra forms (synonyms, CJK subwords) become tokens
            // of their own, in the same order on both sides, so words and
            // phrases still match.
            cursorBox.tokens.append(token)
        }
    } catch let error as DatabaseError {
        return error.extendedResultCode.rawValue
    } catch {
        return SQLITE_ERROR
    }
    let cursor = UnsafeMutablePointer<petrel_fts3_cursor>.allocate(capacity: 1)
    cursor.initialize(to: petrel_fts3_cursor(
        base: sqlite3_tokenizer_cursor(pTokenizer: nil), context: Unmanaged.passRetained(cursorBox).toOpaque()))
    ppCursor.pointee = UnsafeMutableRawPointer(cursor).assumingMemoryBound(to: sqlite3_tokenizer_cursor.self)
    return SQLITE_OK
}

private func fts3Close(_ cursor: UnsafeMutablePointer<sqlite3_tokenizer_cursor>?) -> CInt {
    guard let cursor else { return SQLITE_OK }
    let instance = UnsafeMutableRawPointer(cursor).assumingMemoryBound(to: petrel_fts3_cursor.self)
    if let context = instance.pointee.context { Unmanaged<FTS3CursorBox>.fromOpaque(context).release() }
    instance.deinitialize(count: 1)
    instance.deallocate()
    return SQLITE_OK
}

private func fts3Next(
    _ cursor: UnsafeMutablePointer<sqlite3_tokenizer_cursor>?, _ ppToken: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ pnBytes: UnsafeMutablePointer<CInt>?, _ piStart: UnsafeMutablePointer<CInt>?, _ piEnd: UnsafeMutablePointer<CInt>?,
    _ piPosition: UnsafeMutablePointer<CInt>?
) -> CInt {
    guard let cursor else { return SQLITE_ERROR }
    let instance = UnsafeMutableRawPointer(cursor).assumingMemoryBound(to: petrel_fts3_cursor.self)
    guard let context = instance.pointee.context else { return SQLITE_ERROR }
    let box = Unmanaged<FTS3CursorBox>.fromOpaque(context).takeUnretainedValue()
    guard box.next < box.tokens.count else { return SQLITE_DONE }
    let token = box.tokens[box.next]
    box.next += 1
    box.position += 1
    let (bytes, count) = box.store(token.text)
    ppToken?.pointee = bytes
    pnBytes?.pointee = CInt(count)
    piStart?.pointee = CInt(token.byteRange.lowerBound)
    piEnd?.pointee = CInt(token.byteRange.upperBound)
    piPosition?.pointee = CInt(box.position)
    return SQLITE_OK
}

extension Database {
    /// Registers `make` as the FTS3/FTS4 tokenizer `name` on this connection.
    func addFTS3Tokenizer(named name: String, _ make: @escaping @Sendable ([String]) throws -> any TextTokenizer) throws {
        let module = try FTS3TokenizerRegistry.shared.module(for: name, make: make)
        var address = UInt(bitPattern: module)
        let pointerBlob = withUnsafeBytes(of: &address) { Data($0) }
        // Registering the same module twice under one name fails with a
        // garbled message: skip when this connection already has it.
        // (An unknown name is an error, hence the try?.)
        if let existing = (try? Data.fetchOne(self, sql: "SELECT fts3_tokenizer(?)", arguments: [name])) ?? nil,
           existing == pointerBlob {
            return
        }
        try execute(sql: "SELECT fts3_tokenizer(?, ?)", arguments: [name, pointerBlob])
    }
}
