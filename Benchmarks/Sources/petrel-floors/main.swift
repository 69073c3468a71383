// petrel-floors: what Swift itself costs on the workloads whose goals
// petrel-bench reports as missed or at their bound, measured beside raw
// SQLite C calls in the same process (medians of 9 runs, release build):
//
// - Decodable: 100k records of 10 Int fields decoded through a Decoder that
//   does nothing (every value is the constant 7: no SQLite, no column
//   lookup). What remains is Codable's own machinery: the
//   KeyedDecodingContainer box, protocol witnesses and generic metadata
//   lookups. The decoder lives in another module than the record, as
//   Petrel's does in an app. Added to raw C's fetch, it is the least any
//   Decodable path can cost.
// - StatementArguments: building `[i, i, ...]` (10 Ints) as
//   StatementArguments 100k times, beside the array of
//   `(any DatabaseValueConvertible)?` alone and the `[DatabaseValue]` alone:
//   the conversion runs through the runtime's value witnesses of optional
//   existentials. Added to raw C's insert, it is the least any insert
//   through an array literal of arguments can cost.
// - Encodable: the same 100k records encoded through an Encoder that only
//   adds up the integers (another module again): the KeyedEncodingContainer
//   box and its generic metadata, and the witnesses of the synthesized
//   `encode(to:)`. Added to raw C's insert, it is the least any Encodable
//   insert can cost.
// - FTS5 insert: `[document]` built as StatementArguments for each of the
//   50k documents (GRDB's documented `execute(arguments: [document])`).
//   Added to raw C's FTS5 insert, it is the least that form can cost.
import BenchmarkSupport
import Foundation
import Petrel

struct Item: Codable {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    var sum: Int { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }
}

@inline(never) func decodeConstant() throws -> Int {
    var items: [Item] = []
    for _ in 0..<rowCount { items.append(try Item(from: ConstantDecoder())) }
    return items.reduce(0) { $0 &+ $1.sum }
}

@inline(never) func encodeDiscarding() throws -> Int {
    let encoder = DiscardingEncoder()
    for i in 0..<rowCount {
        try Item(i0: i, i1: i, i2: i, i3: i, i4: i, i5: i, i6: i, i7: i, i8: i, i9: i).encode(to: encoder)
    }
    return encoder.total
}

@inline(never) func consume(_ values: [(any DatabaseValueConvertible)?]) -> Int { values[3] == nil ? 0 : 1 }
@inline(never) func consume(_ values: [DatabaseValue]) -> Int { values[3].isNull ? 0 : 1 }
@inline(never) func touch(_ document: String) -> Int { document.utf8.withContiguousStorageIfAvailable { Int($0[0]) } ?? 0 }
@inline(never) func consume(_ arguments: StatementArguments) -> Int { arguments.isEmpty ? 0 : 1 }

/// The median time of `body` over 9 runs; `setUp` runs before each, untimed.
func milliseconds(setUp: () throws -> Void = {}, _ body: () throws -> Int) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<9 {
        try setUp()
        let start = DispatchTime.now().uptimeNanoseconds
        let checksum = try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        if checksum == -1 { print("") }
    }
    return times.sorted()[times.count / 2]
}

do {
    let fixtures = try Fixtures.make()
    defer { try? FileManager.default.removeItem(at: fixtures.directory) }
    let rawFetch = try RawWorkloads.runner(.fetchDecodable, fixtures)
    let rawInsert = try RawWorkloads.runner(.insertPrepared, fixtures)
    let rawFTSInsert = try RawWorkloads.runner(.fts5Insert, fixtures)
    let fetchMs = try milliseconds(setUp: rawFetch.setUp, rawFetch.run)
    let insertMs = try milliseconds(setUp: rawInsert.setUp, rawInsert.run)
    let ftsInsertMs = try milliseconds(setUp: rawFTSInsert.setUp, rawFTSInsert.run)
    let codableMs = try milliseconds(decodeConstant)
    let encodableMs = try milliseconds(encodeDiscarding)
    // Both loops read each document's bytes, as the insert does (the
    // first touch of a document is a cache miss either way): the
    // difference is what the literal adds.
    let documentsMs = try milliseconds { FTSCorpus.documents.reduce(0) { total, document in total &+ touch(document) } }
    let documentArgumentsMs = try milliseconds {
        FTSCorpus.documents.reduce(0) { total, document in total &+ touch(document) &+ consume([document] as StatementArguments) }
    }
    let existentialsMs = try milliseconds { (0..<rowCount).reduce(0) { total, i in total &+ consume([i, i, i, i, i, i, i, i, i, i] as [(any DatabaseValueConvertible)?]) } }
    let valuesMs = try milliseconds {
        (0..<rowCount).reduce(0) { total, i in
            let v = i.databaseValue
            return total &+ consume([v, v, v, v, v, v, v, v, v, v])
        }
    }
    let argumentsMs = try milliseconds { (0..<rowCount).reduce(0) { total, i in total &+ consume([i, i, i, i, i, i, i, i, i, i] as StatementArguments) } }
    print("| 100k rows x 10 Int | ms | floor / raw C |")
    print("|---|---|---|")
    print(String(format: "| raw C: fetch (the Decodable workload's limit) | %.1f | |", fetchMs))
    print(String(format: "| Codable alone: decode through a Decoder that answers 7 | %.1f | %.2f× (fetch + this) |", codableMs, (fetchMs + codableMs) / fetchMs))
    print(String(format: "| raw C: insert (the StatementArguments workload's limit) | %.1f | |", insertMs))
    print(String(format: "| `[(any DatabaseValueConvertible)?]` literal alone | %.1f | |", existentialsMs))
    print(String(format: "| `[DatabaseValue]` built directly | %.1f | |", valuesMs))
    print(String(format: "| `StatementArguments` literal (both, and the conversion) | %.1f | %.2f× (insert + this) |", argumentsMs, (insertMs + argumentsMs) / insertMs))
    print(String(format: "| Codable alone: encode through an Encoder that adds the integers | %.1f | %.2f× (insert + this) |", encodableMs, (insertMs + encodableMs) / insertMs))
    print("")
    print("| 50k short documents | ms | floor / raw C |")
    print("|---|---|---|")
    print(String(format: "| raw C: FTS5 insert (the FTS5 insert workload's limit) | %.1f | |", ftsInsertMs))
    print(String(format: "| read each document's first byte | %.1f | |", documentsMs))
    print(String(format: "| the same, and `[document]` as `StatementArguments` | %.1f | %.3f× (insert + the difference) |",
                 documentArgumentsMs, (ftsInsertMs + documentArgumentsMs - documentsMs) / ftsInsertMs))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
