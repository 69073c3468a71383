import PetrelIndex
import Testing

/// What a store that ranks in Swift fetches and counts for the first pass
/// over the documents holding every term (PostgreSQL's), without a store.
@Suite struct ConjunctivePlanTests {
    func prepared(_ text: String, options: SearchOptions = SearchOptions()) throws -> PreparedSearch {
        try PreparedSearch(query: SearchQuery(text), options: options, tokenizer: .icu, sampleLanguages: { ["en"] }, indexedWords: [])
    }

    @Test("Each term's token and stem make a group; a word's own documents are its token's, which the store keeps")
    func groups() throws {
        let search = try prepared("gannets lanterns")
        #expect(search.expressionText == #"(("gannets" OR "gannet" *) OR ("lanterns" OR "lantern" *))"#)
        let plan = try #require(try search.conjunctivePlan(documents: 100_000, tokenDocuments: ["gannets": 10, "lanterns": 600]))
        #expect(plan.groups == [PreparedSearch.TokenUnion(exact: ["gannets"], prefixes: ["gannet"], column: nil),
                                PreparedSearch.TokenUnion(exact: ["lanterns"], prefixes: ["lantern"], column: nil)])
        #expect(plan.counts.isEmpty)
    }

    @Test("No plan for one term, required terms or strict searches")
    func noPlan() throws {
        let counts: [String: Int64] = ["gannet": 10, "lantern": 600, "storm": 50]
        #expect(try prepared("storm lantern").conjunctivePlan(documents: 100_000, tokenDocuments: counts) != nil)
        #expect(try prepared("lantern").conjunctivePlan(documents: 100_000, tokenDocuments: counts) == nil)
        #expect(try prepared("\"lantern\" storm").conjunctivePlan(documents: 100_000, tokenDocuments: counts) == nil)
        #expect(try prepared("\"storm lantern\" gannet").conjunctivePlan(documents: 100_000, tokenDocuments: counts) == nil)
        var strict = SearchOptions()
        strict.relax = false
        #expect(try prepared("storm lantern", options: strict).conjunctivePlan(documents: 100_000, tokenDocuments: counts) == nil)
    }

    @Test("The stems' documents are counted once the frequent words are settled, then nothing is left to count")
    func phraseCounts() throws {
        var search = try prepared("gannets lanterns")
        let plan = try #require(try search.conjunctivePlan(documents: 100_000, tokenDocuments: ["gannets": 10, "lanterns": 600]))
        // Before the plan's counts are taken, the search is not conjunctive.
        #expect(try search.uncountedPhrases().isEmpty)
        try search.setConjunctiveCounts(plan, counts: [:])
        let stems = [PreparedSearch.TokenUnion(exact: [], prefixes: ["gannet"], column: nil),
                     PreparedSearch.TokenUnion(exact: [], prefixes: ["lantern"], column: nil)]
        #expect(try search.uncountedPhrases() == stems)
        search.addConjunctiveCounts([stems[0]: 12])
        #expect(try search.uncountedPhrases() == [stems[1]])
        search.addConjunctiveCounts([stems[1]: 30])
        #expect(try search.uncountedPhrases().isEmpty)
    }
}
