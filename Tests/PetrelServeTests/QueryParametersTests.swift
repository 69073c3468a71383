import PetrelServe
import Testing

@Suite("petrel-serve's URL parameters")
struct QueryParametersTests {
    @Test("a form's encoding: + is a space, %2B a plus, UTF-8 escapes, the last of a repeated name")
    func formEncoding() throws {
        let parameters = try QueryParameters("q=storm+petrel%2B&kind=md&kind=txt&path=%E6%9D%B1%E4%BA%AC&empty=&flag")
        #expect(parameters["q"] == "storm petrel+")
        #expect(parameters["kind"] == "txt")
        #expect(parameters["path"] == "東京")
        #expect(parameters["empty"] == nil)
        #expect(parameters["flag"] == nil)
        #expect(parameters["absent"] == nil)
    }

    @Test("malformed escapes and bad numbers or flags are usage errors")
    func errors() throws {
        #expect(throws: APIError.self) { try QueryParameters("q=%FF") }
        #expect(throws: APIError.self) { try QueryParameters("q=%E6%9D") }
        let parameters = QueryParameters(values: ["limit": "ten", "offset": "-1", "strict": "perhaps", "fuzzy": "yes"])
        #expect(throws: APIError.self) { try parameters.integer("limit", default: 10, in: 0...100) }
        #expect(throws: APIError.self) { try parameters.integer("offset", default: 0, in: 0...100) }
        #expect(throws: APIError.self) { try parameters.flag("strict") }
        #expect(try parameters.flag("fuzzy"))
        #expect(try !parameters.flag("absent"))
        #expect(try parameters.integer("absent", default: 7, in: 0...100) == 7)
    }

    @Test("a query error keeps its position; fields before it move it to where it is in the text typed")
    func queryErrorPosition() throws {
        for (text, character) in [("storm NEAR(a b, x)", "x"), ("from:ann storm NEAR(a b, x)", "x"), ("author:\"Ann Smith\" (-a) b", "a")] {
            do {
                _ = try SearchRequest.parse(QueryParameters(values: ["q": text]))
                Issue.record("\(text) parsed")
            } catch {
                #expect(error.code == "query")
                let position = try #require(error.position)
                let found = Array(text)[position - 1]
                #expect(String(found) == character, "\(text): character \(position) is \(found)")
            }
        }
    }
}
