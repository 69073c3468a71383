import BenchmarkSupport
import Foundation
import Petrel
import PetrelICU

/// Tokenizer throughput: MB of UTF-8 per second, tokenizing in Swift
/// (no SQLite) and inserting into FTS5, for ICU, Petrel's WordTokenizer and
/// SQLite's unicode61.
public enum TokenizerThroughput {
    /// About `megabytes` of text in a language, built from sample sentences.
    public static func text(_ language: String, megabytes: Int = 4) -> [String] {
        let samples: [String]
        switch language {
        case "zh":
            samples = ["我喜欢学习中文，也喜欢在海边观察鸟类。", "海燕是一种小型海鸟，一生大部分时间都在海上度过。",
                       "暴风雨来临之前，海燕常常贴着海浪低飞，所以渔民把它看作风暴的信号。", "这部电影很有意思，我们明天再去看一次吧。"]
        case "ja":
            samples = ["ウミツバメは小さな海鳥で、一年の大半を海の上で過ごします。", "東京から船で南の島へ向かうと、波の上をすべるように飛ぶ姿を見ることができます。",
                       "日本語の勉強を兼ねて、観察の記録を書いています。", "繁殖期には夜だけ島に上陸し、岩の割れ目や巣穴で子育てをします。"]
        case "en":
            samples = [
                "Storm petrels are the smallest seabirds. They patter across the surface of the ocean with their feet while they feed, as if walking on water.",
                "Wind from the south-west, force seven, veering west by evening. The lamp was lit at 17:42 and the fog signal sounded from midnight to four.",
                "An FTS5 table stores an inverted index: for every token, the rows and positions where it appears. Ranking uses BM25, which rewards rare terms.",
                "The night survey counted 42 burrows occupied by storm petrels on the north slope, and 7 on the cliff path. Rats were not seen this year.",
            ]
        default:
            samples = FTSCorpus.documents
        }
        var documents: [String] = []
        var bytes = 0
        var index = 0
        while bytes < megabytes * 1_000_000 {
            // Several sentences per document, as in real text.
            let document = (0..<8).map { samples[(index + $0) % samples.count] }.joined(separator: " ")
            documents.append(document)
            bytes += document.utf8.count
            index += 3
        }
        return documents
    }

    /// Seconds to tokenize every document with `tokenizer`, outside SQLite.
    public static func tokenizeSeconds(_ tokenizer: any TextTokenizer, _ documents: [String]) throws -> Double {
        let clock = ContinuousClock()
        var count = 0
        let elapsed = try clock.measure {
            for document in documents {
                try tokenizer.tokenize(document, for: .document) { _ in count += 1 }
            }
        }
        precondition(count > 0)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Seconds to insert every document into an FTS5 table with `tokenize`.
    public static func insertSeconds(tokenize: String, _ documents: [String]) throws -> Double {
        var configuration = Configuration()
        configuration.enableICU(.tokenizer)
        configuration.prepareDatabase { db in try db.add(tokenizer: WordTokenizer(), named: "swiftwords") }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in try db.execute(sql: "CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='\(tokenize)')") }
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            try dbQueue.write { db in
                let statement = try db.makeStatement(sql: "INSERT INTO docs (body) VALUES (?)")
                for document in documents { try statement.execute(values: document) }
            }
        }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Bytes used by an FTS5 table (all its shadow tables) after inserting
    /// the documents, measured with the dbstat virtual table.
    public static func indexBytes(tokenize: String, _ documents: [String]) throws -> Int {
        var configuration = Configuration()
        configuration.enableICU(.tokenizer)
        let dbQueue = try DatabaseQueue(configuration: configuration)
        return try dbQueue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='\(tokenize)')")
            let statement = try db.makeStatement(sql: "INSERT INTO docs (body) VALUES (?)")
            for document in documents { try statement.execute(values: document) }
            try db.execute(sql: "INSERT INTO docs(docs) VALUES('optimize')")
            return try Int.fetchOne(db, sql: "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'docs%'") ?? 0
        }
    }
}
