// Runs each workload with raw SQLite C calls, Petrel and GRDB 7.10.0 in the
// same process, interleaved round after round, and prints the median times
// and their ratios to raw C as a Markdown table.
//
//   petrel-bench [--rounds N] [--filter TEXT] [--profile petrel|grdb|raw]
//
// --profile runs only one library (no table), for perf record.
import BenchmarkSupport
import Foundation
import GRDBWorkloads
import PetrelWorkloads

var rounds = 7
var filter: String?
var profiled: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--rounds":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            FileHandle.standardError.write(Data("error: --rounds takes a positive number\n".utf8))
            exit(2)
        }
        rounds = value
    case "--filter":
        filter = arguments.popFirst()
    case "--profile":
        profiled = arguments.popFirst()
    case "-h", "--help":
        print("usage: petrel-bench [--rounds N] [--filter TEXT] [--profile petrel|grdb|raw]")
        exit(0)
    default:
        FileHandle.standardError.write(Data("error: unknown argument \(argument)\n".utf8))
        exit(2)
    }
}

func median(_ values: [Duration]) -> Double {
    let sorted = values.sorted()
    let middle = sorted[sorted.count / 2]
    return Double(middle.components.seconds) * 1000 + Double(middle.components.attoseconds) / 1e15
}

func measure(_ runner: Runner, expected: Int?) throws -> Duration {
    try runner.setUp()
    let clock = ContinuousClock()
    var checksum = 0
    let elapsed = try clock.measure { checksum = try runner.run() }
    if let expected, checksum != expected {
        throw BenchmarkError("wrong checksum \(checksum), expected \(expected)")
    }
    return elapsed
}

do {
    let fixtures = try Fixtures.make()
    defer { try? FileManager.default.removeItem(at: fixtures.directory) }
    if let profiled {
        let make: (Workload, Fixtures) throws -> Runner = switch profiled {
        case "petrel": PetrelWorkloads.runner
        case "grdb": GRDBWorkloads.runner
        default: RawWorkloads.runner
        }
        for workload in Workload.allCases where filter.map({ workload.rawValue.contains($0) }) ?? true {
            let runner = try make(workload, fixtures)
            for _ in 0...rounds { _ = try measure(runner, expected: nil) }
        }
        exit(0)
    }
    print("| work | raw C (ms) | Petrel (ms) | Petrel / raw | target | GRDB 7.10.0 (ms) | GRDB / raw |")
    print("|---|---|---|---|---|---|---|")
    for workload in Workload.allCases where filter.map({ workload.rawValue.contains($0) }) ?? true {
        let raw = try RawWorkloads.runner(workload, fixtures)
        let petrel = try PetrelWorkloads.runner(workload, fixtures)
        let grdb = try GRDBWorkloads.runner(workload, fixtures)
        let expected: Int? = switch workload {
        case .fetchPositional, .fetchNamed: Fixtures.fullChecksum
        default: nil
        }
        var times: [[Duration]] = [[], [], []]
        // One warm-up round, then interleaved measured rounds.
        for round in 0...rounds {
            for (index, runner) in [raw, petrel, grdb].enumerated() {
                let elapsed = try measure(runner, expected: expected)
                if round > 0 { times[index].append(elapsed) }
            }
        }
        let (rawMs, petrelMs, grdbMs) = (median(times[0]), median(times[1]), median(times[2]))
        let petrelRatio = petrelMs / rawMs
        let verdict: String
        if workload == .fts5PatternBuild {
            let microseconds = petrelMs * 1000 / Double(FTSCorpus.queryCount)
            verdict = String(format: "< 20 µs/pattern: %.2f µs %@ (GRDB %.1f µs)", microseconds, microseconds < 20 ? "✓" : "✗",
                             grdbMs * 1000 / Double(FTSCorpus.queryCount))
        } else {
            let target = String(format: "%.2f", workload.petrelTarget)
            verdict = petrelRatio <= workload.petrelTarget ? "≤ \(target)× ✓" : "≤ \(target)× ✗"
        }
        print(String(format: "| %@ | %.1f | %.1f | %.2f× | %@ | %.1f | %.2f× |",
                     workload.rawValue, rawMs, petrelMs, petrelRatio, verdict, grdbMs, grdbMs / rawMs))
    }
    print("\nMedian of \(rounds) interleaved rounds after one warm-up, release build, same process.")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
