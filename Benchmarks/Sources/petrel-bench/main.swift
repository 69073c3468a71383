// Runs each workload with raw SQLite C calls, Petrel and GRDB 7.10.0 in the
// same process, interleaved round after round, and prints the median times
// and their ratios to raw C as a Markdown table.
//
//   petrel-bench [--rounds N] [--filter TEXT] [--profile petrel|grdb|raw]
//   petrel-bench --tokenizers        # tokenizer throughput (ICU, Swift, unicode61)
//
// --profile runs only one library (no table), for perf record.
import BenchmarkSupport
import Foundation
import GRDBWorkloads
import Petrel
import PetrelICU
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
    case "--tokenizers":
        runTokenizerBenchmarks()
        exit(0)
    case "--index-size":
        runIndexSizeReport()
        exit(0)
    case "-h", "--help":
        print("usage: petrel-bench [--rounds N] [--filter TEXT] [--profile petrel|grdb|raw]")
        exit(0)
    default:
        FileHandle.standardError.write(Data("error: unknown argument \(argument)\n".utf8))
        exit(2)
    }
}

/// Throughput of the tokenizers (MB/s of UTF-8), best of three runs.
func runTokenizerBenchmarks() {
    do {
        print("| text | tokenizer | tokenize only (MB/s) | FTS5 insert (MB/s) | insert vs unicode61 |")
        print("|---|---|---|---|---|")
        // "latin": the synthetic corpus of the FTS workloads (a quarter of its
        // words carry diacritics); "en", "zh", "ja": sample sentences.
        for language in ["en", "latin", "zh", "ja"] {
            let documents = TokenizerThroughput.text(language)
            let megabytes = Double(documents.reduce(0) { $0 + $1.utf8.count }) / 1_000_000
            func best(_ body: () throws -> Double) rethrows -> Double { try (0..<3).map { _ in try body() }.min() ?? .infinity }
            let unicode61Insert = try best { try TokenizerThroughput.insertSeconds(tokenize: "unicode61", documents) }
            let rows: [(String, (any TextTokenizer)?, String)] = [
                ("unicode61 (SQLite, C)", nil, "unicode61"),
                ("WordTokenizer (Swift)", WordTokenizer(), "swiftwords"),
                ("ICUWordTokenizer", try ICUWordTokenizer(), "icu"),
            ]
            for (name, tokenizer, tokenize) in rows {
                let tokenizeRate = try tokenizer.map { tokenizer in
                    megabytes / (try best { try TokenizerThroughput.tokenizeSeconds(tokenizer, documents) })
                }
                let insert = tokenize == "unicode61" ? unicode61Insert : try best { try TokenizerThroughput.insertSeconds(tokenize: tokenize, documents) }
                print(String(format: "| %@ (%.1f MB) | %@ | %@ | %.1f | %.2f× |", language, megabytes, name,
                             tokenizeRate.map { String(format: "%.1f", $0) } ?? "–", megabytes / insert, unicode61Insert / insert))
            }
        }
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
}

/// FTS5 index size (content included) of CJK text per tokenizer.
func runIndexSizeReport() {
    do {
        print("| text | unicode61 | icu no_subwords | icu (with subwords) | trigram |")
        print("|---|---|---|---|---|")
        for language in ["zh", "ja", "en"] {
            let documents = TokenizerThroughput.text(language, megabytes: 1)
            let sizes = try ["unicode61", "icu no_subwords", "icu", "trigram"].map {
                Double(try TokenizerThroughput.indexBytes(tokenize: $0, documents)) / 1_000_000
            }
            print(String(format: "| %@ (1 MB) | %.2f MB | %.2f MB | %.2f MB (%+.0f%%) | %.2f MB |", language,
                         sizes[0], sizes[1], sizes[2], (sizes[2] / sizes[1] - 1) * 100, sizes[3]))
        }
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
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
        // exit skips the defer above.
        try? FileManager.default.removeItem(at: fixtures.directory)
        exit(0)
    }
    print("| work | raw C (ms) | Petrel (ms) | Petrel / raw | target | GRDB 7.10.0 (ms) | GRDB / raw |")
    print("|---|---|---|---|---|---|---|")
    for workload in Workload.allCases where filter.map({ workload.rawValue.contains($0) }) ?? true {
        let raw = try RawWorkloads.runner(workload, fixtures)
        let petrel = try PetrelWorkloads.runner(workload, fixtures)
        let grdb = try GRDBWorkloads.runner(workload, fixtures)
        let expected: Int? = switch workload {
        case .fetchPositional, .fetchNamed, .fetchRecords, .fetchDecodable: Fixtures.fullChecksum
        case .queryInterfaceRequests: Fixtures.requestChecksum
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
