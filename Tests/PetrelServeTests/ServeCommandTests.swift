import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PetrelServe
import PetrelTestSupport
import Testing

@Suite("petrel-serve command")
struct ServeCommandTests {
    /// Runs the command to its end: status, standard output and error.
    static func run(_ arguments: [String]) async throws -> (Int32, String, String) {
        let executable = try #require(builtServe(), "petrel-serve is not built next to the tests")
        return try await runToEnd(executable, arguments)
    }

    @Test("--help exits 0 with examples; usage errors and a missing index exit 2, as the other tools")
    func exitStatuses() async throws {
        let (helpStatus, help, _) = try await Self.run(["--help"])
        #expect(helpStatus == 0)
        #expect(help.contains("Examples:"))
        #expect(help.contains("--listen"))
        let (openStatus, _, openError) = try await Self.run(["--listen", "0.0.0.0", "--port", "0"])
        #expect(openStatus == 2)
        #expect(openError.contains("--token"))
        let (portStatus, _, _) = try await Self.run(["--port", "70000"])
        #expect(portStatus == 2)
        let (twoPortsStatus, _, twoPorts) = try await Self.run(["--listen", "127.0.0.1:9000", "--port", "9001"])
        #expect(twoPortsStatus == 2)
        #expect(twoPorts.contains("name two ports"))
        let (badStatus, _, bad) = try await Self.run(["--listen", "127.0.0.1:http"])
        #expect(badStatus == 2)
        #expect(bad.contains("is not an address"))
        let directory = try TemporaryDirectory()
        let (indexStatus, _, indexError) = try await Self.run(["--index", directory.path("none.sqlite"), "--port", "0"])
        #expect(indexStatus == 2)
        #expect(indexError.contains("no index at"))
        #expect(indexError.contains("petrel-index FOLDER creates one"))
    }

    @Test("--listen takes a port as people write it")
    func listenAddresses() {
        #expect(ServerConfiguration.listenAddress("127.0.0.1")! == ("127.0.0.1", nil))
        #expect(ServerConfiguration.listenAddress("127.0.0.1:9000")! == ("127.0.0.1", 9000))
        #expect(ServerConfiguration.listenAddress("localhost:0")! == ("localhost", 0))
        #expect(ServerConfiguration.listenAddress("::1")! == ("::1", nil))
        #expect(ServerConfiguration.listenAddress("[::1]")! == ("::1", nil))
        #expect(ServerConfiguration.listenAddress("[::1]:9000")! == ("::1", 9000))
        for bad in ["", ":9000", "127.0.0.1:", "127.0.0.1:http", "127.0.0.1:70000", "[::1", "[]:80", "[::1]9000", "a b"] {
            #expect(ServerConfiguration.listenAddress(bad) == nil, "\(bad)")
        }
    }

    @Test("it says where it listens, answers, and stops on SIGTERM with status 0")
    func serveAndStop() async throws {
        let fixture = try ServeFixture()
        let server = try ServeProcess(indexPath: fixture.indexPath)
        defer { server.stop() }
        // The first line names the URL.
        #expect(server.firstLine.hasPrefix("petrel-serve: serving \(fixture.indexPath) at http://127.0.0.1:"))
        let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: server.url + "api/state")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("\"documents\""))
        #expect(server.terminate() == 0)
        // A port written in --listen, as in a URL.
        let colon = try ServeProcess(indexPath: fixture.indexPath, listen: ["--listen", "127.0.0.1:0"])
        defer { colon.stop() }
        #expect(colon.firstLine.hasPrefix("petrel-serve: serving \(fixture.indexPath) at http://127.0.0.1:"))
        let (_, answer) = try await URLSession.shared.data(from: try #require(URL(string: colon.url + "api/state")))
        #expect((answer as? HTTPURLResponse)?.statusCode == 200)
        #expect(colon.terminate() == 0)
    }
}
