import Testing
@testable import PetrelIndex

@Suite("Compound words split into the index's words")
struct CompoundPartsTests {
    static let vocabulary: Set<String> = ["paket", "dateiname", "datei", "namen", "system", "verwalter", "arbeit", "speicher", "dat", "einamen"]

    func split(_ word: String, vocabulary: Set<String> = Self.vocabulary) throws -> [String]? {
        try CompoundParts(isIndexed: { vocabulary.contains($0) }).split(word).map { [$0.left, $0.right] }
    }

    @Test(arguments: [
        ("paketdateinamen", ["paket", "dateiname"]),
        // An ending left off the right part, a linking -s- off the left one.
        ("systemverwalters", ["system", "verwalter"]),
        ("arbeitsspeicher", ["arbeit", "speicher"]),
        // The most balanced split: `datei` + `namen`, not a short part.
        ("dateinamen", ["datei", "namen"]),
    ])
    func splits(_ word: String, _ parts: [String]) throws {
        #expect(try split(word) == parts)
    }

    @Test(arguments: ["paket", "paketxyzzy", "speicher2000", "zzzzzzzzzzzz", "systemspeicher1"])
    func leavesAlone(_ word: String) throws {
        #expect(try split(word) == nil)
    }

    /// A store that looks words up all at once (PostgreSQL) gets the same
    /// split as one asked word by word: `lookups` lists every word `split`
    /// asks about.
    @Test(arguments: ["paketdateinamen", "systemverwalters", "arbeitsspeicher", "dateinamen", "leuchtturmlampe"])
    func lookupsCoverEveryQuestion(_ word: String) throws {
        var asked = Set<String>()
        let lookups = Set(CompoundParts.lookups(for: word))
        let parts = try CompoundParts(isIndexed: { asked.insert($0); return Self.vocabulary.contains($0) }).split(word)
        #expect(asked.isSubset(of: lookups.subtracting([word])), "\(asked.subtracting(lookups))")
        let fromSet = try CompoundParts(isIndexed: { lookups.contains($0) && Self.vocabulary.contains($0) }).split(word)
        #expect(parts?.left == fromSet?.left && parts?.right == fromSet?.right)
    }
}
