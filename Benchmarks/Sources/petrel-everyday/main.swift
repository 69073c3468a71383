// petrel-everyday [ROUNDS]
//
// Everyday operations (EverydayOperations.swift: record inserts, updates,
// upserts, key lookups, raw SQL, schema questions, Codable records with
// dates and JSON, associations, FTS5, pool accesses), the same source
// compiled against Petrel and against GRDB 7.10.0, run in one process, the
// two libraries alternated round by round. Prints the median time per
// operation of each and their ratio (below 1: Petrel is faster). Release
// build: `swift build -c release --product petrel-everyday` in Benchmarks/.
import Foundation
import GRDBEverydayOps
import PetrelEverydayOps

let rounds = CommandLine.arguments.count > 1 ? max(1, Int(CommandLine.arguments[1]) ?? 5) : 5
let directory = NSTemporaryDirectory() + "/petrel-everyday-\(getpid())"
do {
    try FileManager.default.createDirectory(atPath: directory + "/petrel", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: directory + "/grdb", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let petrel = try PetrelEverydayOps.EverydayOperations.make(directory: directory + "/petrel")
    let grdb = try GRDBEverydayOps.EverydayOperations.make(directory: directory + "/grdb")
    func microseconds(_ run: () throws -> Void, count: Int) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try run()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000 / Double(count)
    }
    var petrelTimes = [[Double]](repeating: [], count: petrel.count)
    var grdbTimes = [[Double]](repeating: [], count: grdb.count)
    // One warm-up round, then the measured ones.
    for round in 0...rounds {
        for index in petrel.indices {
            let p = try microseconds(petrel[index].run, count: petrel[index].count)
            let g = try microseconds(grdb[index].run, count: grdb[index].count)
            if round > 0 {
                petrelTimes[index].append(p)
                grdbTimes[index].append(g)
            }
        }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    print("| operation | Petrel (µs) | GRDB 7.10.0 (µs) | Petrel / GRDB |")
    print("|---|---|---|---|")
    for index in petrel.indices {
        let p = median(petrelTimes[index]), g = median(grdbTimes[index])
        print(String(format: "| %@ | %.2f | %.2f | %.2f× |", petrel[index].name, p, g, p / g))
    }
    print("\nMedian of \(rounds) rounds after one warm-up, the two libraries alternated, release build, same process.")
} catch {
    FileHandle.standardError.write(Data("petrel-everyday: \(error)\n".utf8))
    exit(1)
}
