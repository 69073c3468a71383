import ArgumentParser
import Foundation
import PetrelCommandSupport
import PetrelIndex

/// The `petrel-search` command; `Store` reaches indexes on PostgreSQL
/// (``PostgresTwin`` in `petrel-search`, PetrelPostgres in its twin).
public struct PetrelSearchCommand<Store: PostgresStoreAccess>: ParsableCommand {
    /// Runs the command. Arguments of the usual shapes (words, and options
    /// each given once with its value as the next argument) are read
    /// without ArgumentParser, whose first parse of a command costs a
    /// search process a fifth of its time (``SearchArguments/init(quickParsing:)``);
    /// everything else, help and every error included, goes through it.
    /// `--help` and `--version` alone are answered with text fixed at build
    /// time (``StaticAnswers``).
    public static func main() {
        let given = Array(CommandLine.arguments.dropFirst())
        if let text = StaticAnswers.answer(to: given, width: StaticAnswers.terminalWidth) { CommandRunner.succeed(printing: text) }
        if let arguments = SearchArguments(quickParsing: given), (try? arguments.validate()) != nil {
            CommandRunner.main(Self.self) { try arguments.run(Store.self) }
        }
        CommandRunner.main(Self.self)
    }

    public init() {}

    public static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "petrel-search",
        abstract: "Search an index built by petrel-index: ranked hits with snippets, in every language.",
        discussion: """
            The query is read as the documents were, in any language: documents with the rarer words of \
            the query, more of them, and close together come first; those missing a word are marked \
            (some words), and --strict leaves them out. "exact phrase", (a OR b) and NEAR(a b, 5) are \
            required as typed; -word, -"a phrase", -(a OR b) or NOT word exclude; word*, title:word, \
            path:word and body:word work; anything else is read as plain words. A query of exclusions \
            only finds nothing; exclusions alone in a group or beside OR, and a NEAR distance that is \
            not a number, are usage errors. author:, subject:, keywords:, from:, to: and cc: keep \
            the documents whose own properties or mail headers contain the text (author:smith, \
            from:"Ann Sender"), whatever its case and accents.

            A document inside a file (a message of a mailbox, a member of an archive, an \
            attachment) is shown as file!/inner/path; --json gives path and inner_path apart, \
            and --files-only lists each file once.

            The index is --index, else $PETREL_INDEX, else $XDG_DATA_HOME/petrel/index.sqlite \
            (~/.local/share/petrel/index.sqlite), as petrel-index finds it. An index on PostgreSQL \
            is --database postgres://user@host:port/database, else $PETREL_DATABASE when --index \
            is not given; several, separated by commas, are searched as the shards of one index.

            Examples:
              petrel-search storm petrel                 ranked hits with snippets
              petrel-search '"storm petrel" -albatross'  a phrase, minus a word
              petrel-search 'title:survey OR path:notes'
              petrel-search 東京タワー                     words inside unspaced text
              petrel-search 有条件的执行脚本                 a sentence as typed
              petrel-search --kind md,html --since 7d burrow
              petrel-search from:ann subject:budget       mail from Ann about the budget
              petrel-search --json -n 50 petrel | jq .path
              petrel-search -l0 petrel | xargs -0 ls -l
              petrel-search --fuzzy alamaba              search the nearest indexed words too

            Control characters in documents and names are shown as \\xNN, except with --json \
            and --files-only piped or with -0 (data, as it is).

            Exit status: 0 hits found, 1 no hits (a query with nothing to search for included), \
            2 error: a usage error, no usable index, output that cannot be written (as ripgrep).
            """,
        version: PetrelRelease.version
    ) }

    @Argument(help: "The query.")
    var query: [String] = []

    @Option(name: .long, help: ArgumentHelp("The index file.", valueName: "file"))
    var index: String?

    @Option(name: .long, help: ArgumentHelp("An index on PostgreSQL (postgres://user@host:port/database), or its shards, comma-separated.", valueName: "url"))
    var database: String?

    @Option(name: [.customShort("n"), .long], help: "The most hits to show (default: 10; every hit with --files-only).")
    var limit: Int?

    @Option(name: .long, help: "Skip this many hits first.")
    var offset: Int = 0

    @Flag(name: .long, help: "Print the number of documents matching every word.")
    var count = false

    @Flag(name: .long, help: "One JSON object per hit (JSON Lines): path, title, score, snippet, matches, mtime, size.")
    var json = false

    @Flag(name: [.customShort("l"), .long], help: "Print the paths of the hits only, one per line.")
    var filesOnly = false

    @Flag(name: [.customShort("0"), .customLong("null")], help: "With --files-only, end paths with NUL instead of a newline.")
    var nulSeparated = false

    @Flag(name: .long, help: "Show how the query was read and the score of each field.")
    var explain = false

    @Option(name: .long, help: ArgumentHelp("Only paths matching this glob.", valueName: "glob"))
    var path: String?

    @Option(name: .long, help: ArgumentHelp("Only these kinds, comma-separated (md, html, txt, pdf, go...).", valueName: "kinds"))
    var kind: String?

    @Option(name: .long, help: ArgumentHelp("Only files modified since a date (2024-05-01) or a span (7d, 12h, 2w).", valueName: "when"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("Only files modified before a date or a span ago.", valueName: "when"))
    var before: String?

    @Option(name: .long, help: ArgumentHelp("Only documents of this indexed folder.", valueName: "folder"))
    var root: String?

    @Flag(name: .long, help: "Also search the nearest indexed words of words that match nothing.")
    var fuzzy = false

    @Flag(name: .long, help: "Require every word of the query (no documents that match only some of them).")
    var strict = false

    @Option(name: .long, help: ArgumentHelp("Field weights, as path=2,title=4,body=1.", valueName: "weights"))
    var weights: String?

    // For relevance experiments (scripts/eval-relevance): the ranking
    // model's constants, as k1=1.2,coordination=2,proximity=1.
    @Option(name: .long, help: .hidden)
    var ranking: String?

    @Option(name: .long, help: ArgumentHelp("Colour: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "when"))
    var color: SearchArguments.ColorMode = .auto

    /// The options as plain values.
    var arguments: SearchArguments {
        SearchArguments(query: query, index: index, database: database, limit: limit, offset: offset, count: count, json: json,
                        filesOnly: filesOnly, nulSeparated: nulSeparated, explain: explain, path: path, kind: kind, since: since,
                        before: before, root: root, fuzzy: fuzzy, strict: strict, weights: weights, ranking: ranking, color: color)
    }

    public func validate() throws {
        try arguments.validate()
    }

    public func run() throws {
        try arguments.run(Store.self)
    }
}
