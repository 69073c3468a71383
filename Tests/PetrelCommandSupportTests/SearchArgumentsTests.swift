import ArgumentParser
import PetrelCommandSupport
import PropertyBased
import Testing
@testable import PetrelSearchTool

/// `petrel-search` reads arguments of the usual shapes itself, and every
/// other shape through ArgumentParser: what it reads itself must be what
/// ArgumentParser reads.
@Suite("petrel-search's arguments")
struct SearchArgumentsTests {
    typealias Command = PetrelSearchCommand<PostgresTwin>

    /// ArgumentParser's reading of `arguments` (its validation included),
    /// or nil when it refuses them.
    static func parsed(_ arguments: [String]) -> SearchArguments? {
        (try? Command.parseAsRoot(arguments) as? Command)?.arguments
    }

    @Test func theUsualShapesAreReadWithoutArgumentParser() throws {
        let usual: [[String]] = [
            ["memory", "allocator"],
            ["--index", "/tmp/x.sqlite", "memory", "allocator"],
            ["-n", "5", "--json", "東京タワー"],
            ["storm", "--index", "i.sqlite", "petrel", "--explain"],
            ["-l", "-0", "--kind", "md,html", "--since", "7d", "burrow"],
            ["--limit", "20", "--offset", "10", "--path", "*.md", "--root", "/srv", "--color", "never", "word"],
            ["--database", "postgres://u@h/db", "--fuzzy", "--strict", "--weights", "path=1,title=2,body=1", "alamaba"],
            ["--count", "--before", "2024-05-01", "--ranking", "k1=3", "--files-only", "--null", "x"],
        ]
        for arguments in usual {
            let quick = try #require(SearchArguments(quickParsing: arguments), "\(arguments)")
            #expect(quick == Self.parsed(arguments), "\(arguments)")
        }
        let read = try #require(SearchArguments(quickParsing: ["-n", "5", "--json", "--color", "always", "a", "b"]))
        #expect(read.limit == 5 && read.json && read.color == .always && read.query == ["a", "b"])
    }

    @Test func otherShapesGoToArgumentParser() {
        for arguments in [["--limit=5", "x"], ["-l0", "x"], ["--", "-word"], ["-h"], ["--help"], ["--version"], ["-n", "-3", "x"],
                          ["-n", "five", "x"], ["--json", "--json", "x"], ["-n", "1", "--limit", "2", "x"], ["--color", "blue", "x"],
                          ["--unknown", "x"], ["--index"], ["-word"], ["-"], ["--generate-completion-script", "bash"]] {
            #expect(SearchArguments(quickParsing: arguments) == nil, "\(arguments)")
        }
    }

    /// Random argument lists from the options' spellings, values and
    /// words: whenever the quick reading accepts a list that passes
    /// validation, ArgumentParser reads the same values from it.
    @Test func theQuickReadingAgreesWithArgumentParser() async {
        let pieces = ["--index", "--database", "-n", "--limit", "--offset", "--count", "--json", "-l", "--files-only", "-0", "--null",
                      "--explain", "--path", "--kind", "--since", "--before", "--root", "--fuzzy", "--strict", "--weights",
                      "--ranking", "--color", "--", "-h", "--help", "--version", "--limit=3", "-l0", "-x", "help",
                      "5", "0", "-3", "+2", "007", "abc", "always", "never", "auto", "7d", "2024-05-01", "path=1,title=2,body=3",
                      "k1=3", "*.md", "md,txt", "", " ", "memory", "東京", "-word", "a b", "NOT", "\"phrase\""]
        await propertyCheck(count: 3000, input: Gen<String?>.element(of: pieces).map { $0 ?? "x" }.array(of: 0...7)) { arguments in
            guard let quick = SearchArguments(quickParsing: arguments), (try? quick.validate()) != nil else { return }
            #expect(Self.parsed(arguments) == quick, "\(arguments)")
        }
    }

    /// The quick reading's work ends as ArgumentParser's would: the same
    /// statuses and messages from one runner.
    @Test func aQuickRunEndsUnderTheExitStatusContract() {
        struct Broken: Error {}
        let broken = CommandRunner.run(Command.self) { throw Broken() }
        #expect(broken.status == .failure)
        #expect(broken.stderr.hasPrefix("petrel-search: error: "))
        #expect(CommandRunner.run(Command.self) { throw CommandExit(.partial) }.status == .partial)
        #expect(CommandRunner.run(Command.self) {}.status == .success)
    }
}
