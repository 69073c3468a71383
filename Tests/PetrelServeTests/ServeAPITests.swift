import Foundation
import PetrelCommandSupport
import PetrelIndex
@testable import PetrelServe
import Testing

@Suite("petrel-serve API")
struct ServeAPITests {
    @Test("a search answers hits in petrel-search's JSON shape, page by page")
    func searchAndPages() async throws {
        let server = try await TestServer.start(try ServeFixture())
        defer { server.stop() }
        let reply = try await server.api("/api/search", ["q": "petrel", "limit": "2"])
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
        let page = try reply.decode(SearchService.SearchResponse.self)
        #expect(page.status == 0)
        #expect(page.hits.count == 2)
        #expect(page.more)
        #expect(page.hits[0].path.hasPrefix(server.fixture.root + "/"))
        // Every match range of a snippet covers a form of the word.
        for hit in page.hits {
            for range in hit.matches {
                let bytes = Array(hit.snippet.utf8)[range[0]..<range[1]]
                #expect(String(decoding: bytes, as: UTF8.self).lowercased().hasPrefix("petrel"))
            }
        }
        // The same hits as the library gives, in the same order and shape.
        let index = try DocumentIndex(readingAt: server.fixture.indexPath)
        var options = SearchOptions()
        options.limit = 2
        let expected = try index.search("petrel", options: options).hits.map { SearchHitJSON($0) }
        #expect(page.hits == expected)
        let next = try await server.api("/api/search", ["q": "petrel", "limit": "2", "offset": "2"]).decode(SearchService.SearchResponse.self)
        #expect(next.offset == 2)
        #expect(Set(next.hits.map(\.path)).isDisjoint(with: page.hits.map(\.path)) || next.hits.contains { $0.inner_path != nil })
        #expect(next.hits.first?.path != page.hits.first?.path || next.hits.first?.inner_path != page.hits.first?.inner_path)
    }

    @Test("filters: kind, path glob, dates, count, strict")
    func filters() async throws {
        let server = try await TestServer.start(try ServeFixture())
        defer { server.stop() }
        let markdown = try await server.api("/api/search", ["q": "petrel", "kind": "md"]).decode(SearchService.SearchResponse.self)
        #expect(!markdown.hits.isEmpty)
        #expect(markdown.hits.allSatisfy { $0.kind == "md" })
        let glob = try await server.api("/api/search", ["q": "petrel", "path": "*.txt"]).decode(SearchService.SearchResponse.self)
        #expect(!glob.hits.isEmpty && glob.hits.allSatisfy { $0.path.hasSuffix(".txt") })
        let future = try await server.api("/api/search", ["q": "petrel", "since": "2999-01-01"]).decode(SearchService.SearchResponse.self)
        #expect(future.hits.isEmpty)
        #expect(future.status == 1)
        let counted = try await server.api("/api/search", ["q": "storm petrel", "count": "1", "strict": "true"]).decode(SearchService.SearchResponse.self)
        #expect(counted.total == 2)
        #expect(counted.hits.allSatisfy { $0.all_words })
        let absent = try await server.api("/api/search", ["q": "petrel", "kind": "xyz"]).decode(SearchService.SearchResponse.self)
        #expect(absent.warnings == ["no document of kind 'xyz' in this index"])
    }

    @Test("a malformed query is a JSON error with the CLI's status and the character position")
    func queryError() async throws {
        let server = try await TestServer.start(try ServeFixture())
        defer { server.stop() }
        for query in ["storm NEAR(a b, x)", "storm OR -petrel", "(-storm) petrel"] {
            let reply = try await server.api("/api/search", ["q": query])
            var libraryError: SearchQueryError?
            do { _ = try SearchQuery(query) } catch { libraryError = error }
            let expected = try #require(libraryError, "\(query) parses")
            #expect(reply.status == 400, "\(query)")
            let error = try #require(try reply.json()["error"] as? [String: Any])
            #expect(error["code"] as? String == "query")
            #expect(error["status"] as? Int == Int(ExitStatus.failure.rawValue))
            #expect(error["position"] as? Int == expected.position + 1)
            #expect(error["message"] as? String == expected.message)
        }
        // Only exclusions: nothing to search for, no hit (the CLI exits 1).
        let nothing = try await server.api("/api/search", ["q": "-petrel"])
        #expect(nothing.status == 200)
        #expect(try nothing.json()["status"] as? Int == 1)
    }

    @Test("bad options are usage errors; an unknown folder keeps its index error code and hint")
    func usageErrors() async throws {
        let server = try await TestServer.start(try ServeFixture())
        defer { server.stop() }
        for parameters in [["q": "petrel", "limit": "1000"], ["q": "petrel", "since": "someday"], ["q": "petrel", "path": "[a"],
                           ["q": ""], ["q": "petrel", "weights": "x"], ["q": String(repeating: "a ", count: 600)], ["q": "a", "fuzzy": "maybe"]] {
            let reply = try await server.api("/api/search", parameters)
            #expect(reply.status == 400, "\(parameters)")
            let error = try #require(try reply.json()["error"] as? [String: Any])
            #expect(error["code"] as? String == "usage")
            #expect(error["status"] as? Int == 2)
        }
        let folder = try await server.api("/api/search", ["q": "petrel", "root": "/nowhere"])
        #expect(folder.status == 400)
        let error = try #require(try folder.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == IndexError.Code.unknownFolder.rawValue)
        #expect((error["hint"] as? String)?.contains("petrel-index --list") == true)
        let malformed = try await server.get("/api/search?q=%FF")
        #expect(malformed.status == 400)
        let unknown = try await server.get("/api/nothing")
        #expect(unknown.status == 404)
        #expect(try unknown.json()["error"] != nil)
    }

    @Test("facets count kinds, folders, months, languages, authors and senders, each without its own filter")
    func facets() async throws {
        let server = try await TestServer.start(try ServeFixture())
        defer { server.stop() }
        let all = try await server.api("/api/facets", ["q": "petrel"]).decode(SearchService.FacetsResponse.self)
        let kinds = Dictionary(uniqueKeysWithValues: all.kinds.map { ($0.value, $0.count) })
        #expect(kinds["md"] == 1)
        #expect(kinds["txt"] == 2)
        #expect(all.folders.map(\.value) == [server.fixture.root])
        #expect(all.months.reduce(0) { $0 + $1.count } == all.counted)
        #expect(!all.capped)
        #expect(all.from.map(\.value) == ["Cara Writer <cara@example.org>"])
        #expect(FacetCounter.months(["2023-11": 2, "2024-02": 1]).map { "\($0.value)=\($0.count)" } == ["2023-11=2", "2023-12=0", "2024-01=0", "2024-02=1"])
        // The kind facet keeps its counts with a kind chosen; the others narrow.
        let narrowed = try await server.api("/api/facets", ["q": "petrel", "kind": "md"]).decode(SearchService.FacetsResponse.self)
        #expect(narrowed.kinds == all.kinds)
        #expect(narrowed.from.isEmpty)
        #expect(narrowed.months.reduce(0) { $0 + $1.count } == 1)
        let lantern = try await server.api("/api/facets", ["q": "lantern from:ann"]).decode(SearchService.FacetsResponse.self)
        #expect(lantern.from.map(\.value) == ["Ann Sender <ann@example.org>"])
    }

    @Test("a document's text comes with every match of the query marked")
    func documentPreview() async throws {
        let server = try await TestServer.start(try ServeFixture())
        defer { server.stop() }
        let path = server.fixture.root + "/notes/storm.md"
        let document = try await server.api("/api/document", ["path": path, "q": "petrel"]).decode(SearchService.DocumentResponse.self)
        #expect(document.kind == "md")
        #expect(document.text.contains("The storm petrel follows ships"))
        let bytes = Array(document.text.utf8)
        let marked = document.matches.map { String(decoding: bytes[$0[0]..<$0[1]], as: UTF8.self).lowercased() }
        // "Storm petrel" (title line), "storm petrel", "a petrel": every one.
        #expect(marked.filter { $0 == "petrel" }.count == 3, "\(marked)")
        #expect(document.file_available)
        // A message inside a mailbox, by its inner path.
        let search = try await server.api("/api/search", ["q": "forty nests"]).decode(SearchService.SearchResponse.self)
        let message = try #require(search.hits.first { $0.inner_path != nil })
        let inner = try await server.api("/api/document", ["path": message.path, "inner_path": message.inner_path ?? "", "q": "forty"])
            .decode(SearchService.DocumentResponse.self)
        #expect(inner.metadata?.from == ["Cara Writer <cara@example.org>"])
        #expect(!inner.file_available)
        #expect(inner.matches.count == 1)
        // A document inside a file has no file of its own to fetch.
        let file = try await server.api("/api/file", ["path": message.path, "inner_path": message.inner_path ?? ""])
        #expect(file.status == 404)
    }

    @Test("only documents of the index are served: no traversal, no file beside it, no link")
    func pathTraversal() async throws {
        let fixture = try ServeFixture()
        let server = try await TestServer.start(fixture)
        defer { server.stop() }
        let root = fixture.root
        let inside = root + "/notes/burrow.txt"
        let file = try await server.api("/api/file", ["path": inside])
        #expect(file.status == 200)
        #expect(file.text == (try String(contentsOfFile: inside, encoding: .utf8)))
        #expect(file.header("Content-Security-Policy")?.hasPrefix("sandbox") == true)
        #expect(file.header("X-Content-Type-Options") == "nosniff")
        // An HTML document is downloaded, never shown as a page of the server.
        let html = try await server.api("/api/file", ["path": root + "/web/hostile.html"])
        #expect(html.status == 200)
        #expect(html.header("Content-Disposition")?.hasPrefix("attachment") == true)
        #expect(html.header("Content-Type") == "application/octet-stream")
        for attempt in [fixture.secretPath, root + "/../secret.txt", root + "/notes/../../secret.txt", "/etc/passwd",
                        "../../../../etc/passwd", root + "/notes", root + "/notes/burrow.txt/", "notes/burrow.txt"] {
            for endpoint in ["/api/file", "/api/document"] {
                let reply = try await server.api(endpoint, ["path": attempt])
                #expect(reply.status == 404, "\(endpoint) \(attempt)")
                #expect(!reply.text.contains("secret lantern"))
                #expect(try reply.json()["error"] != nil)
            }
        }
        let encoded = try await server.get("/api/file?path=" + (fixture.secretPath.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        #expect(encoded.status == 404)
        // An indexed file replaced by a link to a file outside is refused.
        try FileManager.default.removeItem(atPath: inside)
        try FileManager.default.createSymbolicLink(atPath: inside, withDestinationPath: fixture.secretPath)
        let linked = try await server.api("/api/file", ["path": inside])
        #expect(linked.status == 404)
        #expect(!linked.text.contains("secret lantern"))
    }

    @Test("hostile document text stays data: JSON strings, a page that never parses it as markup")
    func hostileText() async throws {
        let server = try await TestServer.start(try ServeFixture())
        defer { server.stop() }
        let reply = try await server.api("/api/search", ["q": "hostile"])
        let page = try reply.decode(SearchService.SearchResponse.self)
        let hit = try #require(page.hits.first { $0.path.hasSuffix("hostile.txt") })
        #expect(hit.snippet.contains("<script>") || hit.snippet.contains("<img"))
        let document = try await server.api("/api/document", ["path": hit.path, "q": "lantern"]).decode(SearchService.DocumentResponse.self)
        #expect(document.text.contains(ServeFixture.hostileText))
        // The page: a policy that allows no inline script, and a script
        // that never turns text into markup.
        let html = try await server.get("/")
        #expect(html.status == 200)
        let policy = try #require(html.header("Content-Security-Policy"))
        #expect(policy.contains("script-src 'self'"))
        #expect(!policy.contains("unsafe-inline"))
        let script = try await server.get("/app.js")
        #expect(script.header("Content-Type")?.hasPrefix("text/javascript") == true)
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
            #expect(!script.text.contains(sink), "app.js uses \(sink)")
        }
        #expect(script.text.contains("textContent"))
    }

    @Test("a token guards the API; a loopback server without one answers loopback names only")
    func tokenAndHost() async throws {
        let fixture = try ServeFixture()
        let guarded = try await TestServer.start(fixture, token: "s3cret-token")
        defer { guarded.stop() }
        let refused = try await guarded.api("/api/state")
        #expect(refused.status == 401)
        #expect(try (refused.json()["error"] as? [String: Any])?["code"] as? String == "unauthorized")
        #expect(try await guarded.api("/api/state", headers: ["Authorization": "Bearer wrong-token!"]).status == 401)
        #expect(try await guarded.api("/api/state", headers: ["Authorization": "Bearer s3cret-token"]).status == 200)
        #expect(try await guarded.api("/api/state", ["token": "s3cret-token"]).status == 200)
        // The page itself holds no secret.
        #expect(try await guarded.get("/").status == 200)

        let open = try await TestServer.start(fixture)
        defer { open.stop() }
        #expect(try await open.api("/api/state", headers: ["Host": "localhost:\(open.port)"]).status == 200)
        let rebound = try await open.api("/api/state", headers: ["Host": "attacker.example:\(open.port)"])
        #expect(rebound.status == 403)
    }

    @Test("the index's state: folders, documents, last run")
    func state() async throws {
        let server = try await TestServer.start(try ServeFixture())
        defer { server.stop() }
        let state = try await server.api("/api/state").decode(SearchService.StateResponse.self)
        let statistics = try DocumentIndex(readingAt: server.fixture.indexPath).statistics()
        #expect(state.documents == statistics.documentCount)
        #expect(state.folders.map(\.path) == [server.fixture.root])
        #expect(state.last_run != nil)
        #expect(state.version == PetrelRelease.version)
    }

    @Test("suggestions: indexed words by prefix, the most frequent first")
    func suggestions() async throws {
        let server = try await TestServer.start(try ServeFixture())
        defer { server.stop() }
        let reply = try await server.api("/api/suggest", ["prefix": "pet"]).decode(SearchService.SuggestResponse.self)
        #expect(reply.words.first?.word == "petrel")
        #expect(reply.words.allSatisfy { $0.word.hasPrefix("pet") })
        #expect(try await server.api("/api/suggest", ["prefix": "p"]).status == 400)
    }

    @Test("concurrent searchers share the pool's connections, and nothing is written")
    func concurrentSearches() async throws {
        let fixture = try ServeFixture()
        let before = try Data(contentsOf: URL(fileURLWithPath: fixture.indexPath))
        let server = try await TestServer.start(fixture, readers: 2)
        defer { server.stop() }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<24 {
                group.addTask {
                    let query = ["petrel", "lantern", "burrow", "storm petrel"][number % 4]
                    let reply = try await server.api("/api/search", ["q": query])
                    let page = try reply.decode(SearchService.SearchResponse.self)
                    return page.hits.isEmpty ? 0 : reply.status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 24))
        // Serving writes nothing: suggestions and facets too leave the file as it was.
        _ = try await server.api("/api/suggest", ["prefix": "pe"])
        _ = try await server.api("/api/facets", ["q": "petrel"])
        _ = try await server.api("/api/document", ["path": fixture.root + "/notes/storm.md", "q": "petrel"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.indexPath)) == before)
        #expect((try? FileManager.default.attributesOfItem(atPath: fixture.indexPath + "-wal")[.size] as? Int) ?? 0 == 0)
    }

    @Test("a read that outlives the timeout is interrupted and reported as a timeout")
    func timeout() async throws {
        let fixture = try ServeFixture()
        let pool = try ReaderPool(path: fixture.indexPath, size: 1, timeout: .milliseconds(200))
        let startedReading = Stamp(), interrupted = Stamp()
        do {
            _ = try await pool.read { index in try endlessRead(index, started: startedReading, interrupted: interrupted) }
            Issue.record("an endless statement finished")
        } catch {
            let apiError = APIError.from(error)
            #expect(apiError.code == "timeout")
            #expect(apiError.httpStatus == 503)
        }
        // Interrupted, not run to its end (which never comes). The time is
        // the statement's own: the suite's other tests may keep this task
        // waiting for a thread long after it was interrupted.
        let start = try #require(startedReading.value), stop = try #require(interrupted.value)
        #expect(stop - start < .seconds(30))
        // The connection serves the next request.
        let count = try await pool.read { index in try index.statistics().documentCount }
        #expect(count > 0)
    }

    /// The timeout does not need a thread of the cooperative pool (nor of
    /// Dispatch's global queues, which share its threads on Linux): with
    /// every one of them blocked for 3 s, an endless read is still stopped
    /// at its limit. Before, its watchdog waited for a free thread. (The
    /// block is short: the other tests running meanwhile wait for it.)
    @Test("a read is interrupted at its limit while every thread of the cooperative pool is blocked")
    func timeoutWithoutFreeThreads() async throws {
        let fixture = try ServeFixture()
        let pool = try ReaderPool(path: fixture.indexPath, size: 1, timeout: .milliseconds(300))
        let startedReading = Stamp(), interrupted = Stamp()
        let read = Task {
            try await pool.read { index in try endlessRead(index, started: startedReading, interrupted: interrupted) }
        }
        while startedReading.value == nil { try await Task.sleep(for: .milliseconds(10)) }
        let blockersStarted = ContinuousClock.now
        let blockers = (0..<ProcessInfo.processInfo.activeProcessorCount).map { _ in
            Task.detached { blockThread(seconds: 3) }
        }
        _ = try? await read.value
        for blocker in blockers { await blocker.value }
        let stopped = try #require(interrupted.value, "the endless read was not interrupted")
        #expect(stopped - blockersStarted < .seconds(2), "interrupted \(stopped - blockersStarted) after the pool was blocked")
    }

    @Test("no index: the library's error, as the CLI reports it")
    func noIndex() throws {
        let configuration = ServerConfiguration(indexPath: "/nonexistent/index.sqlite")
        #expect {
            _ = try PetrelServer.makeRunner(configuration)
        } throws: { (error: any Error) -> Bool in
            (error as? IndexError)?.code == .noIndex && APIError.from(error).hint?.contains("petrel-index FOLDER") == true
        }
    }

    @Test("the OpenAPI document describes every API path the server has")
    func openAPIDocument() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/PetrelServe/openapi.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        let paths = text.split(separator: "\n").filter { $0.hasPrefix("  /api/") }.map { String($0.dropFirst(2).dropLast()) }
        #expect(Set(paths) == ["/api/search", "/api/facets", "/api/document", "/api/file", "/api/suggest", "/api/state"])
        let source = try String(contentsOf: file.deletingLastPathComponent().appendingPathComponent("PetrelServer.swift"), encoding: .utf8)
        for path in paths {
            #expect(source.contains("api.get(\"\(path.dropFirst(5))\")"), "\(path) is not served")
        }
    }
}

/// When something first happened, set from any thread.
// @unchecked Sendable: `instant` is only read or written under `lock`.
private final class Stamp: @unchecked Sendable {
    private let lock = NSLock()
    private var instant: ContinuousClock.Instant?
    func set() { lock.withLock { if instant == nil { instant = .now } } }
    var value: ContinuousClock.Instant? { lock.withLock { instant } }
}

/// Blocks the calling thread (a synchronous sleep, out of reach of the
/// asynchronous context's check).
private func blockThread(seconds: Double) {
    Thread.sleep(forTimeInterval: seconds)
}

/// Runs a statement that never ends on the index's connection: stamps when
/// it starts, and when it is interrupted (its error is rethrown).
private func endlessRead(_ index: DocumentIndex, started: Stamp, interrupted: Stamp) throws -> Int? {
    started.set()
    do {
        return try index.dbQueue.read { db in
            try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
        }
    } catch {
        interrupted.set()
        throw error
    }
}
