import ArgumentParser
import Foundation
import PetrelCommandSupport
import PetrelIndex
import PetrelServe
import Synchronization

@main
struct PetrelServeCommand: ParsableCommand {
    static func main() { CommandRunner.main(Self.self) }

    static let configuration = CommandConfiguration(
        commandName: "petrel-serve",
        abstract: "Serve a search page and a JSON API for an index built by petrel-index.",
        discussion: """
            Opens the index read-only (nothing is ever written to it) and serves, on loopback \
            unless told otherwise, a page to search it from a browser: results with their \
            snippets, filters with counts (kind, folder, month, author, sender), a preview of each \
            document with every match marked, and the index's state. The page uses the JSON API \
            under /api/ (search, facets, document, suggest, state, file), described in \
            Sources/PetrelServe/openapi.yaml; its errors carry the exit statuses of petrel-search.

            Only documents of the index are served, looked up by their path in it. --listen on \
            an address other than loopback needs --token: requests then carry it \
            (Authorization: Bearer TOKEN), and the page takes it from its URL (?token=TOKEN).

            The index is --index, else $PETREL_INDEX, else $XDG_DATA_HOME/petrel/index.sqlite \
            (~/.local/share/petrel/index.sqlite), as petrel-index finds it.

            Examples:
              petrel-serve                              http://127.0.0.1:8080/ for the default index
              petrel-serve --port 9000 --index notes.sqlite
              petrel-serve --listen 0.0.0.0 --token "$(openssl rand -hex 16)"
              curl 'http://127.0.0.1:8080/api/search?q=storm+petrel&kind=md'

            Exit status: 0 after a stop (Ctrl-C, SIGTERM), 2 error: a usage error, no usable \
            index, an address that cannot be listened on.
            """,
        version: PetrelRelease.version
    )

    @Option(name: .long, help: ArgumentHelp("The index file.", valueName: "file"))
    var index: String?

    @Option(name: .long, help: ArgumentHelp("The address to listen on, with :PORT if you like (127.0.0.1:9000, [::1]:9000; default: 127.0.0.1, loopback only).", valueName: "address"))
    var listen = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp("The port (0: any free port; default: 8080, or the one --listen names).", valueName: "port"))
    var port: Int?

    @Option(name: .long, help: ArgumentHelp("A secret every API request must carry; needed with a --listen address that is not loopback.", valueName: "token"))
    var token: String?

    @Option(name: .long, help: "Read connections to the index, for concurrent searches.")
    var readers = 4

    @Option(name: .long, help: ArgumentHelp("The longest one request may read the index, in seconds.", valueName: "seconds"))
    var timeout = 5.0

    /// Where to listen: --listen's host, and its port, else --port's, else 8080.
    private var address: (host: String, port: Int) {
        let parsed = ServerConfiguration.listenAddress(listen) ?? (listen, nil)
        return (parsed.host, parsed.port ?? port ?? 8080)
    }

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535") }
        guard let parsed = ServerConfiguration.listenAddress(listen) else {
            throw ValidationError("--listen \(listen) is not an address: give a host name or IP address, with :PORT if you like (127.0.0.1:9000, [::1]:9000)")
        }
        if let named = parsed.port, let port, named != port {
            throw ValidationError("--listen \(listen) and --port \(port) name two ports: give one")
        }
        if !(1...64).contains(readers) { throw ValidationError("--readers must be from 1 to 64") }
        if !(timeout > 0 && timeout <= 600) { throw ValidationError("--timeout must be more than 0 and at most 600 seconds") }
        if let token, token.count < 8 { throw ValidationError("--token must be at least 8 characters") }
        if !ServerConfiguration.isLoopback(parsed.host), token == nil {
            throw ValidationError("--listen \(listen) is not a loopback address: give --token TOKEN too, so that only those who have it can search the index")
        }
    }

    func run() throws {
        var configuration = ServerConfiguration(indexPath: index ?? DocumentIndex.defaultPath())
        let (listenHost, listenPort) = address
        configuration.host = listenHost
        configuration.port = listenPort
        configuration.token = token
        configuration.readers = readers
        configuration.timeout = .milliseconds(Int((timeout * 1000).rounded()))
        let diagnostic: @Sendable (String) -> Void = { message in StandardStreams.writeError("petrel-serve: \(TerminalText.oneLine(message))\n") }
        let application: any ApplicationRunner
        do {
            let host = listenHost.contains(":") ? "[\(listenHost)]" : listenHost
            let loopback = ServerConfiguration.isLoopback(listenHost)
            let indexPath = configuration.indexPath
            application = try PetrelServer.makeRunner(configuration) { port in
                if !loopback {
                    diagnostic("warning: listening on \(listenHost), not loopback: anyone who can reach this address and has the token can search \(indexPath)")
                }
                diagnostic("serving \(indexPath) at http://\(host):\(port)/ (Ctrl-C stops)")
            }
        } catch {
            for line in FailureReport.lines(for: error) { diagnostic(TerminalText.escaped(line)) }
            throw CommandExit(FailureReport.status(for: error))
        }
        let failure = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                try await application.runUntilSignalled()
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            done.signal()
        }
        done.wait()
        if let message = failure.withLock({ $0 }) {
            diagnostic("error: \(message)")
            throw CommandExit(.failure)
        }
    }
}
