import ArgumentParser
import Foundation
import PetrelCommandSupport
import PetrelIndex

/// What `petrel-search` was asked, as plain values: read by ArgumentParser
/// (``PetrelSearchCommand``) or, for the usual shapes of arguments, by
/// ``init(quickParsing:)``; and what it does with them.
struct SearchArguments: Equatable {
    var query: [String] = []
    var index: String?
    var database: String?
    var limit: Int?
    var offset = 0
    var count = false
    var json = false
    var filesOnly = false
    var nulSeparated = false
    var explain = false
    var path: String?
    var kind: String?
    var since: String?
    var before: String?
    var root: String?
    var fuzzy = false
    var strict = false
    var weights: String?
    var ranking: String?
    var color: ColorMode = .auto

    enum ColorMode: String, ExpressibleByArgument, CaseIterable { case auto, always, never }

    func validate() throws {
        if query.allSatisfy(Self.isBlank) { throw ValidationError("give a query (see --help)") }
        if limit ?? 0 < 0 || offset < 0 { throw ValidationError("--limit and --offset cannot be negative") }
        if nulSeparated, !filesOnly { throw ValidationError("-0 goes with --files-only (-l)") }
        for (name, value) in [("--since", since), ("--before", before)] {
            if let value, DateSpec.parse(value) == nil { throw ValidationError("\(name): '\(value)' is not a date (2024-05-01) or a span (7d, 12h, 2w)") }
        }
        if let ranking {
            do { _ = try RankingParameters(ranking) } catch { throw ValidationError("--ranking: \(error)") }
        }
        if let weights, FieldWeights(parsing: weights) == nil { throw ValidationError("--weights: '\(weights)' is not path=N,title=N,body=N") }
        if let path, let problem = GlobSyntax.problem(in: path) { throw ValidationError("--path: '\(path)' is not a glob: \(problem)") }
    }

    func run<Store: PostgresStoreAccess>(_ store: Store.Type) throws {
        // A reader that stops early (`| head`) makes the next write fail
        // with EPIPE, which ends the command quietly (StandardStreams).
        signal(SIGPIPE, SIG_IGN)
        let indexPath = index ?? DocumentIndex.defaultPath()
        let output = SearchOutput(
            color: color == .always || (color == .auto && Terminal.stdoutIsTerminal && ProcessEnvironment.value("NO_COLOR").map(\.isEmpty) ?? true),
            width: Terminal.width(),
            escapesControlCharacters: !(filesOnly && (nulSeparated || !Terminal.stdoutIsTerminal)))
        let environment = ProcessEnvironment.value("PETREL_DATABASE").flatMap { $0.isEmpty ? nil : $0 }
        let databaseURL = database ?? (index == nil ? environment : nil)
        do {
            if databaseURL != nil { try Store.prepare(tool: "petrel-search") }
            let documentIndex = try databaseURL == nil ? DocumentIndex(readingAt: indexPath) : nil
            // A search only reads: the index needs no closing.
            if let documentIndex { CommandRunner.keepUntilExit(documentIndex) }
            let text = query.joined(separator: " ")
            // author:, from:, to:, cc:, subject: and keywords: are filters.
            let (queryText, metadataFilters) = MetadataFilter.split(text)
            let parsed: SearchQuery
            do {
                parsed = try SearchQuery(queryText)
            } catch where error.asksForNothing {
                // Only punctuation, or only exclusions: no document can be
                // asked for, which is no hit, not a failure.
                output.diagnostic("'\(TerminalText.escaped(text))': \(error.message)")
                throw CommandExit(.partial)
            } catch {
                output.diagnostic("query error at character \(error.position + 1): \(TerminalText.escaped(error.message))")
                throw CommandExit(.failure)
            }
            var options = SearchOptions()
            options.limit = limit ?? (filesOnly ? 1_000_000_000 : 10)
            if count { options.limit = 0 }
            options.offset = offset
            options.pathGlob = path
            options.kinds = kind.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } } ?? []
            if !options.kinds.isEmpty, let documentIndex {
                let present = try documentIndex.kinds()
                for absent in options.kinds where !present.contains(absent) {
                    output.diagnostic("no document of kind '\(TerminalText.escaped(absent))' in this index (its kinds: \(present.sorted().joined(separator: ", ")))")
                }
            }
            options.modifiedSince = since.flatMap { DateSpec.parse($0) }
            options.modifiedBefore = before.flatMap { DateSpec.parse($0) }
            options.root = root
            options.metadata = metadataFilters
            options.fuzzy = fuzzy
            options.relax = !strict && !count
            options.countAll = count
            options.explain = explain
            if let ranking { options.ranking = try RankingParameters(ranking) }
            if let weights, let parsedWeights = FieldWeights(parsing: weights) {
                options.pathWeight = parsedWeights.path
                options.titleWeight = parsedWeights.title
                options.bodyWeight = parsedWeights.body
            }
            let results: SearchResults
            if let documentIndex {
                results = try documentIndex.search(parsed, options: options)
            } else {
                results = try Store.search(url: databaseURL ?? "", query: parsed, options: options)
            }
            if count {
                try StandardStreams.writeOutput("\(results.fullMatchCount ?? 0)\n")
                if (results.fullMatchCount ?? 0) == 0 { throw CommandExit(.partial) }
                return
            }
            if explain { try output.explainQuery(results) }
            if json {
                try output.jsonLines(results.hits)
            } else if filesOnly {
                try output.paths(results.hits, separator: nulSeparated ? 0 : 10)
            } else {
                try output.blocks(results.hits, offset: offset, explain: explain)
            }
            if !fuzzy, !results.suggestions.isEmpty {
                for (word, terms) in results.suggestions.sorted(by: { $0.key < $1.key }) {
                    output.diagnostic("no document has '\(TerminalText.escaped(word))'; did you mean \(TerminalText.escaped(terms.joined(separator: ", ")))? (--fuzzy searches them)")
                }
            }
            if results.hits.isEmpty { throw CommandExit(.partial) }
        } catch let error as CommandExit {
            throw error
        } catch let error as StandardStreams.WriteError {
            throw error
        } catch {
            for line in FailureReport.lines(for: error) { output.diagnostic(TerminalText.escaped(line)) }
            throw CommandExit(FailureReport.status(for: error))
        }
    }
}

extension SearchArguments {
    /// Reads arguments of the usual shapes without ArgumentParser: words,
    /// and each option at most once, written as in `--help`, with its value
    /// (one that does not start with `-`) as the next argument. Nil for
    /// anything else (`--limit=5`, `-l0`, `--`, `-h`, `--version`, a value
    /// that does not convert, an unknown option), which ArgumentParser then
    /// reads, with its messages. Read this way, the same arguments give the
    /// same values as ArgumentParser gives (a test compares them).
    init?(quickParsing arguments: [String]) {
        self.init()
        // An array, not a Set: a handful of names, and a Set<String> is one
        // more generic type for the runtime to instantiate at each start.
        var given: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("-") else {
                query.append(argument)
                continue
            }
            // One name for each option's spellings, for the test of repeats.
            let name = switch argument {
            case "-n": "--limit"
            case "-l": "--files-only"
            case "-0": "--null"
            default: argument
            }
            guard !given.contains(name) else { return nil }
            given.append(name)
            switch name {
            case "--count": count = true
            case "--json": json = true
            case "--files-only": filesOnly = true
            case "--null": nulSeparated = true
            case "--explain": explain = true
            case "--fuzzy": fuzzy = true
            case "--strict": strict = true
            default:
                guard let value = remaining.popFirst(), !value.hasPrefix("-") else { return nil }
                switch name {
                case "--index": index = value
                case "--database": database = value
                case "--path": path = value
                case "--kind": kind = value
                case "--since": since = value
                case "--before": before = value
                case "--root": root = value
                case "--weights": weights = value
                case "--ranking": ranking = value
                case "--limit":
                    guard let number = Int(argument: value) else { return nil }
                    limit = number
                case "--offset":
                    guard let number = Int(argument: value) else { return nil }
                    offset = number
                case "--color":
                    guard let mode = ColorMode(argument: value) else { return nil }
                    color = mode
                default:
                    return nil
                }
            }
        }
    }

    /// Whether a query word is only white space (Unicode's space
    /// separators and tabs, Foundation's `CharacterSet.whitespaces`).
    static func isBlank(_ word: String) -> Bool {
        word.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }
}
