// petrel-floors: what Swift itself costs on the two workloads whose goals
// petrel-bench reports as missed, measured beside raw SQLite C calls in the
// same process (medians of 9 runs, release build):
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
import BenchmarkSupport
import Foundation
import Petrel

struct Item: Decodable {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    var sum: Int { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }
}

@inline(never) func decodeConstant() throws -> Int {
    var items: [Item] = []
    for _ in 0..<rowCount { items.append(try Item(from: ConstantDecoder())) }
    return items.reduce(0) { $0 &+ $1.sum }
}

@inline(never) func consume(_ values: [(any DatabaseValueConvertible)?]) -> Int { values[3] == nil ? 0 : 1 }
@inline(never) func consume(_ values: [DatabaseValue]) -> Int { values[3].isNull ? 0 : 1 }
@inline(never) func consume(_ arguments: StatementArguments) -> Int { arguments.isEmpty ? 0 : 1 }

func milliseconds(_ body: () throws -> Int) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<9 {
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
    let fetchMs = try milliseconds { try rawFetch.setUp(); return try rawFetch.run() }
    let insertMs = try milliseconds { try rawInsert.setUp(); return try rawInsert.run() }
    let codableMs = try milliseconds(decodeConstant)
    let existentialsMs = milliseconds { (0..<rowCount).reduce(0) { total, i in total &+ consume([i, i, i, i, i, i, i, i, i, i] as [(any DatabaseValueConvertible)?]) } }
    let valuesMs = milliseconds {
        (0..<rowCount).reduce(0) { total, i in
            let v = i.databaseValue
            return total &+ consume([v, v, v, v, v, v, v, v, v, v])
        }
    }
    let argumentsMs = milliseconds { (0..<rowCount).reduce(0) { total, i in total &+ consume([i, i, i, i, i, i, i, i, i, i] as StatementArguments) } }
    print("| 100k rows x 10 Int | ms | floor / raw C |")
    print("|---|---|---|")
    print(String(format: "| raw C: fetch (the Decodable workload's limit) | %.1f | |", fetchMs))
    print(String(format: "| Codable alone: decode through a Decoder that answers 7 | %.1f | %.2f× (fetch + this) |", codableMs, (fetchMs + codableMs) / fetchMs))
    print(String(format: "| raw C: insert (the StatementArguments workload's limit) | %.1f | |", insertMs))
    print(String(format: "| `[(any DatabaseValueConvertible)?]` literal alone | %.1f | |", existentialsMs))
    print(String(format: "| `[DatabaseValue]` built directly | %.1f | |", valuesMs))
    print(String(format: "| `StatementArguments` literal (both, and the conversion) | %.1f | %.2f× (insert + this) |", argumentsMs, (insertMs + argumentsMs) / insertMs))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
