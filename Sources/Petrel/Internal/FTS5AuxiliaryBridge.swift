// The C side of FTS5 auxiliary functions: registration through
// fts5_api.xCreateFunction, the call trampoline, and FTS5MatchAccess, the
// only place that touches Fts5ExtensionApi.
//
// Lifetime rules:
// - A registered function is boxed (AuxiliaryFunctionBox), retained when
//   registered and released by SQLite's xDestroy (also when registration
//   fails).
// - The Fts5ExtensionApi and Fts5Context pointers are valid during one call
//   only; FTS5Match wraps them for that call and callers are told not to keep
//   it (a kept match whose call ended is never dereferenced by Petrel: every
//   access goes through the pointers FTS5 passed to that call).
// - Query data (xSetAuxdata) is a retained object released by FTS5 through
//   releaseAuxiliaryData when the query ends or the data is replaced.
// - xQueryPhrase's callback gets a pointer to a counter on the caller's stack.

import CPetrelSQLite
import Foundation

private final class AuxiliaryFunctionBox {
    let function: FTS5AuxiliaryFunction
    /// The match object of the last call, reused for the next one: FTS5
    /// calls a ranking function once per matching row, and allocating a
    /// match per row was a visible share of a search. Only touched by
    /// calls on the connection the function is registered on, one at a
    /// time; a call made while another is running (a nested query) takes
    /// a fresh object.
    private var spareMatch: FTS5Match?

    init(_ function: FTS5AuxiliaryFunction) { self.function = function }

    func match(for access: FTS5MatchAccess) -> FTS5Match {
        if var spare = spareMatch {
            spareMatch = nil
            // A match the function kept (against the rule) is not reused.
            if isKnownUniquelyReferenced(&spare) {
                spare.access = access
                return spare
            }
        }
        return FTS5Match(access: access)
    }

    func recycle(_ match: FTS5Match) { spareMatch = match }
}

/// The calls an auxiliary function may make, for one call.
struct FTS5MatchAccess {
    let api: UnsafePointer<Fts5ExtensionApi>
    let context: OpaquePointer
    /// The SQL arguments after the table name, valid during the call.
    var argumentCount: CInt = 0
    var argumentValues: UnsafeMutablePointer<OpaquePointer?>?

    func arguments() -> [DatabaseValue] {
        Petrel.arguments(argumentCount, argumentValues)
    }

    private func check(_ code: CInt, _ what: String) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "FTS5 \(what) failed")
        }
    }

    func rowID() -> Int64 { api.pointee.xRowid(context) }
    func columnCount() -> Int { Int(api.pointee.xColumnCount(context)) }
    func phraseCount() -> Int { Int(api.pointee.xPhraseCount(context)) }

    func phraseSize(_ phrase: Int) -> Int {
        guard phrase >= 0, phrase < phraseCount() else { return 0 }
        return Int(api.pointee.xPhraseSize(context, CInt(phrase)))
    }

    func rowCount() throws -> Int64 {
        var count: sqlite3_int64 = 0
        try check(api.pointee.xRowCount(context, &count), "row count")
        return count
    }

    func columnTotalSize(_ column: Int) throws -> Int64 {
        var count: sqlite3_int64 = 0
        try check(api.pointee.xColumnTotalSize(context, CInt(column), &count), "column total size")
        return count
    }

    func columnSize(_ column: Int) throws -> Int {
        var count: CInt = 0
        try check(api.pointee.xColumnSize(context, CInt(column), &count), "column size")
        return Int(count)
    }

    func containsPhrase(_ phrase: Int) throws -> Bool {
        guard phrase >= 0, phrase < phraseCount() else { return false }
        var iterator = Fts5PhraseIter()
        var column: CInt = -1, offset: CInt = -1
        try check(api.pointee.xPhraseFirst(context, CInt(phrase), &iterator, &column, &offset), "phrase")
        return column >= 0
    }

    func instances() throws -> [FTS5PhraseInstance] {
        var result: [FTS5PhraseInstance] = []
        try forEachInstance { result.append($0) }
        return result
    }

    func forEachInstance(_ body: (FTS5PhraseInstance) throws -> Void) throws {
        var count: CInt = 0
        try check(api.pointee.xInstCount(context, &count), "instance count")
        var phrase: CInt = 0, column: CInt = 0, offset: CInt = 0
        for index in 0..<count {
            try check(api.pointee.xInst(context, index, &phrase, &column, &offset), "instance")
            try body(FTS5PhraseInstance(phrase: Int(phrase), column: Int(column), offset: Int(offset)))
        }
    }

    func forEachInstance(ofPhrase phrase: Int, _ body: (FTS5PhraseInstance) throws -> Void) throws {
        guard phrase >= 0, phrase < phraseCount() else { return }
        var iterator = Fts5PhraseIter()
        var column: CInt = -1, offset: CInt = -1
        try check(api.pointee.xPhraseFirst(context, CInt(phrase), &iterator, &column, &offset), "phrase")
        while column >= 0 {
            try body(FTS5PhraseInstance(phrase: phrase, column: Int(column), offset: Int(offset)))
            api.pointee.xPhraseNext(context, &iterator, &column, &offset)
        }
    }

    func columnText(_ column: Int) throws -> String {
        guard column >= 0, column < columnCount() else {
            throw DatabaseError(resultCode: .SQLITE_RANGE, message: "FTS5 column \(column) out of range")
        }
        var text: UnsafePointer<CChar>?
        var length: CInt = 0
        try check(api.pointee.xColumnText(context, CInt(column), &text, &length), "column text")
        guard let text, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: Int(length)), as: UTF8.self)
    }

    func rowsContaining(_ phrase: Int) throws -> Int {
        guard phrase >= 0, phrase < phraseCount() else {
            throw DatabaseError(resultCode: .SQLITE_RANGE, message: "FTS5 phrase \(phrase) out of range")
        }
        var count = 0
        let code = withUnsafeMutablePointer(to: &count) { pointer in
            api.pointee.xQueryPhrase(context, CInt(phrase), pointer) { _, _, userData in
                userData?.assumingMemoryBound(to: Int.self).pointee += 1
                return SQLITE_OK
            }
        }
        try check(code, "phrase query")
        return count
    }

    func auxiliaryData() -> AnyObject? {
        guard let pointer = api.pointee.xGetAuxdata(context, 0) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
    }

    func setAuxiliaryData(_ object: AnyObject?) {
        guard let object else {
            // Clearing hands ownership back: release it here.
            if let pointer = api.pointee.xGetAuxdata(context, 1) {
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            }
            return
        }
        let pointer = Unmanaged.passRetained(object).toOpaque()
        // On failure FTS5 calls the destructor itself.
        _ = api.pointee.xSetAuxdata(context, pointer, releaseAuxiliaryData)
    }
}

private func releaseAuxiliaryData(_ pointer: UnsafeMutableRawPointer?) {
    pointer.map { Unmanaged<AnyObject>.fromOpaque($0).release() }
}

private func callAuxiliaryFunction(
    _ api: UnsafePointer<Fts5ExtensionApi>?, _ fts: OpaquePointer?, _ context: OpaquePointer?,
    _ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?
) {
    guard let api, let fts, let userData = api.pointee.xUserData(fts) else {
        sqlite3_result_error(context, "FTS5 auxiliary function called without its context", -1)
        return
    }
    let box = Unmanaged<AuxiliaryFunctionBox>.fromOpaque(userData).takeUnretainedValue()
    let match = box.match(for: FTS5MatchAccess(api: api, context: fts, argumentCount: argc, argumentValues: argv))
    defer { box.recycle(match) }
    do {
        let result = try box.function.body(match)
        (result?.databaseValue ?? .null).setResult(of: context)
    } catch {
        report(error, to: context)
    }
}

extension Database {
    func addFTS5AuxiliaryFunction(_ function: FTS5AuxiliaryFunction) throws {
        let api = try fts5API()
        guard let createFunction = api.pointee.xCreateFunction else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 cannot register auxiliary functions")
        }
        let box = Unmanaged.passRetained(AuxiliaryFunctionBox(function)).toOpaque()
        let code = createFunction(UnsafeMutablePointer(mutating: api), function.name, box, { callAuxiliaryFunction($0, $1, $2, $3, $4) }) { pointer in
            pointer.map { Unmanaged<AuxiliaryFunctionBox>.fromOpaque($0).release() }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "could not register FTS5 function \(function.name)")
        }
    }
}
