import ArgumentParser
import Foundation
import PetrelCommandSupport
import PetrelIndex
import Testing
@testable import PetrelSearchTool

/// `petrel-search --help` and `--version` alone are answered without
/// ArgumentParser; the answers must be ArgumentParser's, byte for byte.
@Suite("petrel-search's static answers")
struct StaticAnswersTests {
    typealias Command = PetrelSearchCommand<PostgresTwin>

    /// The generated help is ArgumentParser's at 80 columns, as
    /// `CommandRunner` prints it. When this fails, the options or the help
    /// changed: run scripts/generate-static-help.
    @Test func helpIsArgumentParsersAt80Columns() throws {
        let printed = Command.helpMessage(columns: StaticAnswers.helpWidth) + "\n"
        #expect(StaticAnswers.help == printed, "run scripts/generate-static-help")
        #expect(StaticAnswers.help.contains("USAGE: petrel-search"))
        #expect(StaticAnswers.help.split(separator: "\n").allSatisfy { $0.count <= 80 })
        // What CommandRunner prints for a help request is that message.
        let runner = CommandRunner.run(Command.self, arguments: ["--help"])
        #expect(runner.status == .success)
        #expect(runner.stdout == Command.helpMessage() + "\n")
    }

    @Test func versionIsArgumentParsers() {
        let runner = CommandRunner.run(Command.self, arguments: ["--version"])
        #expect(StaticAnswers.answer(to: ["--version"], width: 80) == runner.stdout)
        #expect(runner.stdout == PetrelRelease.version + "\n")
    }

    /// Only the help at 80 columns is fixed; any other width, and any other
    /// arguments, are ArgumentParser's to answer.
    @Test func otherWidthsAndArgumentsGoToArgumentParser() {
        #expect(StaticAnswers.answer(to: ["--help"], width: 80) == StaticAnswers.help)
        #expect(StaticAnswers.answer(to: ["-h"], width: 80) == StaticAnswers.help)
        #expect(StaticAnswers.answer(to: ["--help"], width: 120) == nil)
        #expect(StaticAnswers.answer(to: ["--help"], width: 40) == nil)
        // The width as ArgumentParser finds it.
        #expect(StaticAnswers.width(columns: "100", terminal: 80) == 100)
        #expect(StaticAnswers.width(columns: "wide", terminal: 120) == 120)
        #expect(StaticAnswers.width(columns: nil, terminal: nil) == 80)
        for arguments in [["--help", "x"], ["x", "--help"], ["--version", "--help"], ["help"], ["--helps"], [], ["--color", "never", "--help"]] {
            #expect(StaticAnswers.answer(to: arguments, width: 80) == nil, "\(arguments)")
        }
    }
}
