// The workloads of petrel-bench, measured by ordo-one/benchmark (wall clock,
// allocations). Run with `swift package benchmark` from Benchmarks/.
import Benchmark
import BenchmarkSupport
import GRDBWorkloads
import PetrelWorkloads

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        maxDuration: .seconds(5),
        maxIterations: 20
    )
    let fixtures: Fixtures
    do {
        fixtures = try Fixtures.make()
    } catch {
        fatalError("cannot build the benchmark fixtures: \(error)")
    }
    let libraries: [(String, (Workload, Fixtures) throws -> Runner)] = [
        ("raw C", RawWorkloads.runner),
        ("Petrel", PetrelWorkloads.runner),
        ("GRDB 7.10.0", GRDBWorkloads.runner),
    ]
    for workload in Workload.allCases {
        for (library, makeRunner) in libraries {
            guard let runner = try? makeRunner(workload, fixtures) else { continue }
            // One run per iteration; the set-up (dropping the insert table)
            // stays outside the measured span.
            Benchmark("\(workload.rawValue) - \(library)") { benchmark in
                try runner.setUp()
                benchmark.startMeasurement()
                blackHole(try runner.run())
                benchmark.stopMeasurement()
            }
        }
    }
}
