import ArgumentParser
import Foundation
import PetrelCommandSupport
import PetrelIndex
import PetrelTestSupport
import Testing

@Suite("Terminal text")
struct TerminalTextTests {
    @Test func controlCharactersAreEscaped() {
        #expect(TerminalText.escaped("plain text, ünïcode 東京") == "plain text, ünïcode 東京")
        #expect(TerminalText.escaped("a\u{1B}]0;PWNED\u{07} \u{1B}[2J") == "a\\x1B]0;PWNED\\x07 \\x1B[2J")
        #expect(TerminalText.escaped("tab\tstays") == "tab\tstays")
        #expect(TerminalText.escaped("nul\u{0}del\u{7F}c1\u{9B}x") == "nul\\x00del\\x7Fc1\\x9Bx")
        #expect(TerminalText.escaped("new\nline\r") == "new\\x0Aline\\x0D")
    }
}

/// A command that ends as told, to check the exit-status contract.
private struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "probe")
    @Option var outcome: String = "ok"
    @Option var count: Int = 1

    func validate() throws {
        if count < 0 { throw ValidationError("--count cannot be negative") }
    }

    func run() throws {
        switch outcome {
        case "partial": throw CommandExit(.partial)
        case "failure": throw CommandExit(.failure)
        case "error": throw CocoaError(.fileNoSuchFile)
        default: break
        }
    }
}

@Suite("Exit-status contract")
struct ExitStatusTests {
    @Test func statuses() {
        #expect(CommandRunner.run(Probe.self, arguments: []).status == .success)
        #expect(CommandRunner.run(Probe.self, arguments: ["--outcome", "partial"]).status == .partial)
        #expect(CommandRunner.run(Probe.self, arguments: ["--outcome", "failure"]).status == .failure)
        let error = CommandRunner.run(Probe.self, arguments: ["--outcome", "error"])
        #expect(error.status == .failure)
        #expect(error.stderr.hasPrefix("probe: error: "))
    }

    @Test func usageErrorsExitTwoWithTheMessage() {
        for arguments in [["--count=-1"], ["--count", "many"], ["--unknown"], ["extra"]] {
            let result = CommandRunner.run(Probe.self, arguments: arguments)
            #expect(result.status == .failure, "\(arguments)")
            #expect(result.stderr.contains("Usage: probe"), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(CommandRunner.run(Probe.self, arguments: ["--count=-1"]).stderr.contains("--count cannot be negative"))
    }

    @Test func helpGoesToStdoutWithSuccess() {
        let result = CommandRunner.run(Probe.self, arguments: ["--help"])
        #expect(result.status == .success)
        #expect(result.stdout.contains("--outcome"))
        #expect(result.stderr.isEmpty)
    }

    /// A command run in process (as here) ends without its process: what it
    /// asks to keep until exit is released as usual, or every test run of
    /// petrel-search would leave an index open.
    @Test func nothingIsKeptUntilExitWhenTheProcessGoesOn() {
        final class Held: Sendable {}
        weak var weakHeld: Held?
        let outcome = CommandRunner.run(Probe.self) {
            let held = Held()
            weakHeld = held
            CommandRunner.keepUntilExit(held)
        }
        #expect(outcome.status == .success)
        #expect(weakHeld == nil)
    }
}

@Suite("Process environment")
struct ProcessEnvironmentTests {
    @Test func theCurrentFolderIsWhatFoundationSays() {
        #expect(ProcessEnvironment.currentDirectory == FileManager.default.currentDirectoryPath)
        #expect(ProcessEnvironment.currentDirectory.hasPrefix("/"))
    }
}

@Suite("Progress line")
struct ProgressLineTests {
    @Test(arguments: [200, 80, 60, 40, 30, 20, 10, 1])
    func neverWiderThanTheTerminal(columns: Int) {
        let phases: [IndexProgress.Phase] = [.waiting, .walking, .indexing, .removing, .done]
        for phase in phases {
            let progress = IndexProgress(phase: phase, filesFound: 123_456, filesToRead: 98_765, filesRead: 54_321,
                                         bytesToRead: 5_000_000_000, bytesRead: 2_500_000_000)
            let line = ProgressLine.render(progress, elapsed: 12, columns: columns)
            #expect(line.count <= max(columns - 1, 1), "\(phase) at \(columns): \(line)")
            #expect(!line.contains("\n"))
        }
    }

    @Test func wideTerminalsGetTheBar() {
        let progress = IndexProgress(phase: .indexing, filesFound: 10, filesToRead: 10, filesRead: 5, bytesToRead: 1 << 20, bytesRead: 1 << 19)
        #expect(ProgressLine.render(progress, elapsed: 1, columns: 120).hasPrefix("[############            ] 5/10 files, 0.5/1.0 MB"))
        #expect(ProgressLine.render(progress, elapsed: 1, columns: 40).hasPrefix(" 50% 5/10 files"))
    }
}

@Suite("Failure reports")
struct FailureReportTests {
    /// The library's messages never name a command; the commands add the
    /// hint, the same for both, and exit 2.
    @Test func hintsNameTheCommandsAndTheLibraryDoesNot() throws {
        let folder = try TemporaryDirectory()
        let index = try DocumentIndex(path: folder.path("i.sqlite"), tokenizer: .unicode61)
        let error = #expect(throws: IndexError.self) { try index.removeRoot(folder.path("elsewhere")) }
        let unknown = try #require(error)
        #expect(unknown.code == .unknownFolder)
        #expect(!unknown.message.contains("petrel-index"))
        #expect(FailureReport.lines(for: unknown) == [unknown.message, "petrel-index --list names the index's folders"])
        #expect(FailureReport.status(for: unknown) == .failure)

        let damaged = IndexError(.damaged, "the index x is damaged")
        #expect(FailureReport.hint(for: damaged)?.contains("petrel-index --rebuild") == true)
        #expect(FailureReport.hint(for: IndexError(.noIndex, "no index at x"))?.contains("petrel-index FOLDER") == true)
        #expect(FailureReport.hint(for: IndexError(.invalidGlob, "the glob '[' is not valid")) == nil)
        #expect(FailureReport.lines(for: CommandFailure("plain")) == ["plain"])
    }
}

@Suite("Process memory")
struct ProcessMemoryTests {
    /// glibc takes the mapping threshold petrel-index sets; elsewhere the
    /// call says it did nothing.
    @Test func theAllocatorTakesTheMappingThreshold() {
        #if canImport(Glibc)
        #expect(ProcessMemory.returnLargeBlocksToTheSystem())
        #else
        #expect(!ProcessMemory.returnLargeBlocksToTheSystem())
        #endif
    }
}
