import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// The README's shell examples, run against the tools of this build, so
/// that the README cannot drift from what the tools do.
///
/// Every command of a `sh` block must exit 0. Every `$ ` command of a
/// `console` block must print what follows it, standard output and standard
/// error together. They run in document order, in a scratch folder holding a
/// copy of `corpora/`, with the tools first on `PATH`, `HOME` in the scratch
/// folder (with small `~/notes` and `~/Documents`), and no `PETREL_INDEX`,
/// so the default index is `$XDG_DATA_HOME/petrel/index.sqlite` there.
@Suite("README commands")
struct ReadmeTests {
    /// Set-up commands that build or test the whole package: they are
    /// checked to be executable scripts that parse, not run from a test.
    static let notRunHere: Set<String> = ["scripts/demo", "scripts/test"]

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyShellCommandOfTheReadmeRuns() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = ReadmeBlock.parse(readme)
        let commands = blocks.filter { $0.language == "sh" }.flatMap(\.commands)
        let sessions = blocks.filter { $0.language == "console" }.flatMap(\.session)
        #expect(commands.count >= 5, "the README's sh blocks: \(commands)")
        #expect(sessions.count >= 5, "the README's console sessions: \(sessions.map(\.command))")

        guard let indexTool = builtProduct("petrel-index"), builtProduct("petrel-search") != nil else {
            Issue.record("petrel-index and petrel-search are not built next to the tests (swift build --build-tests)")
            return
        }
        let shell = try ReadmeShell(tools: URL(fileURLWithPath: indexTool).deletingLastPathComponent().path)

        var skipped: Set<String> = []
        for block in blocks where !block.commands.isEmpty || !block.session.isEmpty {
            for command in block.commands {
                let name = String(command.prefix { $0 != " " })
                if Self.notRunHere.contains(name) {
                    skipped.insert(name)
                    try expectParsingScript(name)
                    continue
                }
                let result = try shell.run(command)
                #expect(result.status == 0, "`\(command)` exited with \(result.status):\n\(result.output)")
            }
            for step in block.session {
                let result = try shell.run(step.command)
                #expect(result.signalled == false, "`\(step.command)` was killed by a signal")
                #expect(
                    result.output == step.output,
                    "`\(step.command)` printed, in place of the README's output:\n\(result.output)")
            }
        }
        #expect(skipped == Self.notRunHere, "set-up commands missing from the README: \(Self.notRunHere.subtracting(skipped))")
    }

    @Test func bothToolsPrintThePackageVersion() throws {
        for tool in ["petrel-index", "petrel-search"] {
            guard let path = builtProduct(tool) else {
                Issue.record("\(tool) is not built next to the tests")
                continue
            }
            let result = try run(path, ["--version"])
            #expect(result.status == 0)
            #expect(result.stdout == PetrelRelease.version + "\n")
        }
        let changelog = try String(contentsOf: Self.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        #expect(changelog.contains("## [\(PetrelRelease.version)]"), "CHANGELOG.md has no entry for \(PetrelRelease.version)")
    }

    /// The README's "Embed PetrelIndex" lines, with a scratch folder's paths
    /// and expectations where the README prints.
    @Test func embeddingExample() async throws {
        let tree = try Tree([
            "notes/storm-petrels.md": "# Storm petrels\n\nStorm petrels patter over the water.\n",
            "notes/albatross.md": "# Storm petrels and albatrosses\n\nThe albatross glides.\n",
            "notes/memo.txt": "巣穴を東京湾の小島で数えました。\n",
        ])
        let directory = try TemporaryDirectory()
        let progress = LockedData()
        let index = try DocumentIndex(path: directory.path("notes.sqlite"))       // default tokenizer: ICU, every language
        let report = try await index.update(roots: [tree.path("notes")], progress: { progress.set(Data("\($0.filesRead) / \($0.filesToRead)".utf8)) })
        #expect([report.added, report.updated, report.renamed, report.deleted, report.failed.count] as [Int] == [3, 0, 0, 0, 0])
        #expect(String(decoding: progress.get(), as: UTF8.self) == "3 / 3")
        let results = try index.search("storm petrels -albatross")           // SearchQuery parsed from user text
        #expect(names(results) == ["storm-petrels.md"])
        for hit in results.hits { #expect(hit.score > 0 && hit.snippet.contains("petrels") && !hit.matchRanges.isEmpty) }
        var paths: [String] = []
        for try await hit in index.searchHits(try SearchQuery("東京")) { paths.append(hit.path) }   // as an AsyncSequence
        #expect(paths == [tree.path("notes/memo.txt")])
    }

    @Test func readmeBlocksAreParsed() {
        let text = """
            Intro.

            ```sh
            tool a   # first
            # a comment line

            tool b
            ```

            ```console
            $ tool c       # shown
            line 1

            line 2

            $ tool d
            ```

            ```swift
            let x = 1
            ```
            """
        let blocks = ReadmeBlock.parse(text)
        #expect(blocks.map(\.language) == ["sh", "console", "swift"])
        #expect(blocks[0].commands == ["tool a   # first", "tool b"])
        #expect(blocks[1].session.map(\.command) == ["tool c       # shown", "tool d"])
        #expect(blocks[1].session.map(\.output) == ["line 1\n\nline 2", ""])
        #expect(blocks[2].commands.isEmpty && blocks[2].session.isEmpty)
    }

    private func expectParsingScript(_ relative: String) throws {
        let path = Self.repository.appendingPathComponent(relative).path
        #expect(FileManager.default.isExecutableFile(atPath: path), "\(relative) is not an executable file")
        let check = try run("/bin/bash", ["-n", path])
        #expect(check.status == 0, "\(relative) does not parse: \(check.stderr)")
    }
}

/// A fenced block of the README.
struct ReadmeBlock {
    /// One `$ ` command of a console block and the output shown under it.
    struct Step {
        var command: String
        var output: String
    }

    var language: String
    var lines: [String]

    /// The commands of a `sh` block: its lines that are not blank or comments.
    var commands: [String] {
        guard language == "sh" else { return [] }
        return lines.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The commands of a `console` block, each with the lines under it up to
    /// the next command, without the blank lines that separate them.
    var session: [Step] {
        guard language == "console" else { return [] }
        var steps: [Step] = []
        var output: [String] = []
        func close() {
            guard !steps.isEmpty else { return }
            while output.last?.isEmpty == true { output.removeLast() }
            steps[steps.count - 1].output = output.joined(separator: "\n")
            output = []
        }
        for line in lines {
            if line.hasPrefix("$ ") {
                close()
                steps.append(Step(command: String(line.dropFirst(2)), output: ""))
            } else if !steps.isEmpty {
                output.append(line.replacing(/\s+$/, with: ""))
            }
        }
        close()
        return steps
    }

    /// The fenced blocks of a Markdown text, in order.
    static func parse(_ text: String) -> [ReadmeBlock] {
        var blocks: [ReadmeBlock] = []
        var current: ReadmeBlock?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let block = current {
                    blocks.append(block)
                    current = nil
                } else {
                    current = ReadmeBlock(language: String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), lines: [])
                }
            } else {
                current?.lines.append(line)
            }
        }
        return blocks
    }
}

/// A scratch folder where the README's commands run as a reader would type
/// them: a copy of `corpora/`, a home with two small folders, the tools on
/// `PATH`.
struct ReadmeShell {
    let directory: TemporaryDirectory
    let environment: [String: String]

    init(tools: String) throws {
        directory = try TemporaryDirectory()
        let files = FileManager.default
        try files.copyItem(at: ReadmeTests.repository.appendingPathComponent("corpora"), to: directory.url.appendingPathComponent("corpora"))
        let home = directory.url.appendingPathComponent("home")
        // Words that none of the README's queries search for.
        let personal = [
            "notes/shopping.md": "# Shopping\n\nBread, cheese and apples for the weekend.\n",
            "Documents/letter.txt": "Dear neighbour, the garden fence will be repaired on Tuesday.\n",
        ]
        for (path, text) in personal {
            let url = home.appendingPathComponent(path)
            try files.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        environment = [
            "PATH": tools + ":/usr/local/bin:/usr/bin:/bin",
            "HOME": home.path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
        ]
    }

    /// Runs one line with bash in the scratch folder; standard output and
    /// standard error are read together, as a terminal shows them.
    func run(_ command: String) throws -> (status: Int32, signalled: Bool, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = directory.url
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var text = String(decoding: output, as: UTF8.self)
        while text.last?.isNewline == true { text.removeLast() }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.replacing(/\s+$/, with: "") }
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, lines.joined(separator: "\n"))
    }
}
