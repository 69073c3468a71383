// The same in every fuzz target: libFuzzer's two entry points.
import CPetrelFuzzDriver
import Foundation

/// libFuzzer calls this with each input; the target sees it as bytes
/// (``fuzzOne(_:)``). A finding stops the process (a trap, a failed
/// check, or the address sanitizer's report).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    fuzzOne(Array(UnsafeBufferPointer(start: start, count: count)))
    return 0
}

/// The program: libFuzzer's driver with the process's arguments
/// (`-max_total_time=60 corpus/`, `crash-file` to replay one input).
@main
enum FuzzEntry {
    static func main() {
        exit(petrel_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv))
    }
}
