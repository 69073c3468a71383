import PetrelTestSupport
import PostgresNIO
import Testing
@testable import PetrelIndex
@testable import PetrelPostgres

@Suite("Body postings: the bytes of body_postings")
struct BodyPostingsTests {
    /// A batch of random documents, each with random tokens at random
    /// offsets (large ones too: no limit of PostgreSQL's applies).
    static func randomBatch(seed: UInt64) -> [(id: Int64, tokens: [(token: String, offsets: [Int])])] {
        var generator = SeededGenerator(seed: seed)
        var id: Int64 = Int64.random(in: 1...1_000_000, using: &generator)
        var documents: [(Int64, [(String, [Int])])] = []
        for _ in 0..<200 {
            id += Int64.random(in: 1...100_000, using: &generator)
            var tokens: [(String, [Int])] = []
            for token in ["storm", "petrel", "灯台", "a", "lantern", "keeper"] where Bool.random(using: &generator) {
                var offsets = Set<Int>()
                for _ in 0..<Int.random(in: 1...40, using: &generator) { offsets.insert(Int.random(in: 0..<(1 << 21), using: &generator)) }
                tokens.append((token, offsets.sorted()))
            }
            documents.append((id, tokens))
        }
        return documents
    }

    @Test("Each document's offsets read back, for the documents asked for only")
    func roundTrip() throws {
        for seed in 1...20 as ClosedRange<UInt64> {
            let batch = Self.randomBatch(seed: seed)
            var postings = BodyPostings()
            for (id, tokens) in batch { try postings.add(document: id, tokens: tokens) }
            let (tokens, lists) = postings.take()
            #expect(tokens == tokens.sorted(by: TextSearchLiterals.precedesInBytes))
            #expect(postings.isEmpty)
            var generator = SeededGenerator(seed: seed + 100)
            let wanted = Set(batch.map(\.id).filter { _ in Bool.random(using: &generator) })
            for (token, list) in zip(tokens, lists) {
                var read: [Int64: [Int]] = [:]
                try BodyPostings.entries(Array(list.readableBytesView), wanted: wanted) { id, offsets in read[id] = offsets }
                var expected: [Int64: [Int]] = [:]
                for (id, documentTokens) in batch where wanted.contains(id) {
                    if let offsets = documentTokens.first(where: { $0.token == token })?.offsets { expected[id] = offsets }
                }
                #expect(read == expected, "\(token), seed \(seed)")
                // A list kept for some documents is the list of those.
                let kept = try BodyPostings.keeping(wanted, of: Array(list.readableBytesView))
                var all: [Int64: [Int]] = [:]
                try BodyPostings.entries(kept, wanted: Set(batch.map(\.id))) { id, offsets in all[id] = offsets }
                #expect(all == expected)
            }
        }
    }

    @Test("Documents out of order, and bytes that are not a list, are errors")
    func badInput() throws {
        var postings = BodyPostings()
        try postings.add(document: 5, tokens: [("storm", [0, 3])])
        #expect(throws: IndexError.self) { try postings.add(document: 5, tokens: [("storm", [1])]) }
        #expect(throws: IndexError.self) { try postings.add(document: 2, tokens: [("storm", [1])]) }
        let (_, lists) = postings.take()
        let good = Array(lists[0].readableBytesView)
        var found = 0
        try BodyPostings.entries(good, wanted: [5]) { id, offsets in
            #expect(id == 5 && offsets == [0, 3])
            found += 1
        }
        #expect(found == 1)
        let bad: [[UInt8]] = [
            Array(good.dropLast()),                                        // offsets cut short
            [0x85],                                                        // a number cut short
            [5, 200, 1],                                                   // a length past the end
            [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0], // an id past Int64
            Array(repeating: 0x80, count: 11) + [0],                       // a number longer than 64 bits
        ]
        for bytes in bad {
            #expect(throws: IndexError.self, "\(bytes)") { try BodyPostings.entries(bytes, wanted: [5, 1 << 62]) { _, _ in } }
        }
    }

    @Test("A binary tsvector read back: the searched tokens' offsets only; a vector cut short is an error")
    func receivedVectors() throws {
        var vector = TextSearchVector()
        vector.append("harbour", positions: [1, 7])
        vector.append("it's", positions: [2])
        vector.append("東京", positions: [3, 16_383])
        var buffer = ByteBuffer()
        vector.encode(into: &buffer, context: .default)
        var copy = buffer
        let received = try ReceivedVector(from: &copy, type: .tsvector, format: .binary, context: .default)
        let found = try received.offsets(of: SearchedTokens(["東京", "harbour", "keeper", "harbours"]))
        #expect(found == ["harbour": [0, 6], "東京": [2, 16_382]])
        #expect(try received.offsets(of: SearchedTokens([])).isEmpty)
        for cut in [1, 6, buffer.readableBytes - 1] {
            var short = buffer.getSlice(at: 0, length: cut) ?? ByteBuffer()
            let damaged = try ReceivedVector(from: &short, type: .tsvector, format: .binary, context: .default)
            #expect(throws: IndexError.self, "cut at \(cut)") { try damaged.offsets(of: SearchedTokens(["東京"])) }
        }
    }
}
