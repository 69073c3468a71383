import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PetrelCommandSupport
import PetrelIndex

/// How petrel-serve runs: the index, where it listens, its token and its
/// bounds.
public struct ServerConfiguration: Sendable {
    /// The index file, opened read-only.
    public var indexPath: String
    /// The address to listen on; loopback unless asked otherwise.
    public var host = "127.0.0.1"
    /// The port (0: any free port, see `onRunning`).
    public var port = 8080
    /// When set, every API request must carry it (`Authorization: Bearer`,
    /// or `token=` in the URL for links).
    public var token: String?
    /// Read connections to the index.
    public var readers = 4
    /// The longest a request may read the index.
    public var timeout: Duration = .seconds(5)
    /// Logs nothing, not even the server's errors (tests).
    public var quiet = false

    /// A configuration for the index at `indexPath`, on loopback.
    public init(indexPath: String) { self.indexPath = indexPath }

    /// An address to listen on as people write it, split into its host and,
    /// when it names one, its port: `127.0.0.1`, `127.0.0.1:9000`,
    /// `localhost:9000`, `::1`, `[::1]:9000`. Nil for text that cannot be
    /// one: no host, or a port that is not a number from 0 to 65535.
    public static func listenAddress(_ text: String) -> (host: String, port: Int?)? {
        func port(_ digits: Substring) -> Int? {
            guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }), let port = Int(digits), (0...65535).contains(port) else { return nil }
            return port
        }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard !host.isEmpty else { return nil }
            if rest.isEmpty { return (host, nil) }
            guard rest.hasPrefix(":"), let number = port(rest.dropFirst()) else { return nil }
            return (host, number)
        }
        // One colon: host and port. More: an IPv6 address without a port.
        if text.filter({ $0 == ":" }).count == 1 {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard !parts[0].isEmpty, let number = port(parts[1]) else { return nil }
            return (String(parts[0]), number)
        }
        return text.isEmpty || text.contains(where: \.isWhitespace) ? nil : (text, nil)
    }

    /// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }
}

/// The petrel-serve HTTP server: the page (`/`, `/app.js`, `/app.css`) and
/// the JSON API under `/api/` (see `openapi.yaml` beside this file).
public enum PetrelServer {
    /// The application, ready to `run()`; `onRunning` gets the port it
    /// listens on once it does. Throws the library's error when the index
    /// cannot be opened.
    public static func makeApplication(_ configuration: ServerConfiguration,
                                       onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some ApplicationProtocol {
        let pool = try ReaderPool(path: configuration.indexPath, size: max(1, configuration.readers), timeout: configuration.timeout)
        let service = SearchService(pool: pool)
        let router = Router()
        router.add(middleware: GuardMiddleware(token: configuration.token, loopbackOnly: configuration.token == nil && ServerConfiguration.isLoopback(configuration.host)))
        router.get("/") { _, _ in PageAssets.response(PageAssets.html, type: "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in PageAssets.response(PageAssets.script, type: "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in PageAssets.response(PageAssets.style, type: "text/css; charset=utf-8") }
        let api = router.group("api")
        api.get("search") { request, _ in await json { try await service.search(try QueryParameters(request.uri.query)) } }
        api.get("facets") { request, _ in await json { try await service.facets(try QueryParameters(request.uri.query)) } }
        api.get("document") { request, _ in await json { try await service.document(try QueryParameters(request.uri.query)) } }
        api.get("suggest") { request, _ in await json { try await service.suggest(try QueryParameters(request.uri.query)) } }
        api.get("state") { _, _ in await json { try await service.state() } }
        api.get("file") { request, _ in
            do {
                let file = try await service.file(try QueryParameters(request.uri.query))
                return fileResponse(file.data, path: file.path, kind: file.kind)
            } catch {
                return errorResponse(APIError.from(error))
            }
        }
        api.get("**") { _, _ in errorResponse(.notFound("no such API path")) }
        let port = configuration.port
        // The command says where it listens itself: notices and above only.
        var logger = Logger(label: "petrel-serve")
        logger.logLevel = configuration.quiet ? .critical : .notice
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: port), serverName: "petrel-serve"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// What every response carries: no sniffing, no referrer, no framing.
    static let commonHeaders: HTTPFields = [
        .xContentTypeOptions: "nosniff",
        HTTPField.Name.referrerPolicy: "no-referrer",
        HTTPField.Name.frameOptions: "DENY",
    ]

    private static func json<T: Encodable>(_ body: () async throws -> T) async -> Response {
        do {
            let value = try await body()
            let data = try SearchHitJSON.encoder().encode(value)
            var headers = commonHeaders
            headers[.contentType] = "application/json; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        } catch {
            return errorResponse(APIError.from(error))
        }
    }

    static func errorResponse(_ error: APIError) -> Response {
        var headers = commonHeaders
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .init(code: error.httpStatus), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: error.json)))
    }

    /// A file of the index, sent so that the browser never runs it as a
    /// page of this server: PDF and plain text shown in a sandbox, every
    /// other kind downloaded.
    private static func fileResponse(_ data: Data, path: String, kind: String) -> Response {
        var headers = commonHeaders
        let name = (path as NSString).lastPathComponent
        let asciiName = String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        let encodedName = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? asciiName
        let disposition: String
        switch kind {
        case "pdf":
            headers[.contentType] = "application/pdf"
            disposition = "inline"
        case "txt", "md", "rst", "org", "csv", "log":
            headers[.contentType] = "text/plain; charset=utf-8"
            disposition = "inline"
        default:
            headers[.contentType] = "application/octet-stream"
            disposition = "attachment"
        }
        headers[.contentDisposition] = "\(disposition); filename=\"\(asciiName)\"; filename*=UTF-8''\(encodedName)"
        headers[.contentSecurityPolicy] = "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Refuses API requests without the token (when there is one), and
/// requests whose `Host` is not a loopback name on a loopback server
/// without a token: a page elsewhere that rebinds its DNS name to
/// 127.0.0.1 cannot read the index through the visitor's browser.
struct GuardMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String?
    let loopbackOnly: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if loopbackOnly, let host = request.head.authority {
            let name = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }) + "]" : String(host.prefix { $0 != ":" })
            guard ServerConfiguration.isLoopback(name) else {
                return PetrelServer.errorResponse(APIError(httpStatus: 403, code: "forbidden", message: "this server answers to loopback names only (localhost, 127.0.0.1, [::1])"))
            }
        }
        if let token, request.uri.path.hasPrefix("/api/") {
            let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            let given = bearer ?? (try? QueryParameters(request.uri.query))?["token"]
            guard let given, Self.constantTimeEqual(given, token) else {
                return PetrelServer.errorResponse(APIError(httpStatus: 401, code: "unauthorized", message: "this server needs its token (Authorization: Bearer TOKEN)"))
            }
        }
        return try await next(request, context)
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

/// A server that runs until SIGINT or SIGTERM (the command's view, which
/// needs no Hummingbird type).
public protocol ApplicationRunner: Sendable {
    /// Serves until a signal asks it to stop, then shuts down gracefully.
    func runUntilSignalled() async throws
}

private struct HummingbirdRunner<App: ApplicationProtocol>: ApplicationRunner {
    let application: App
    func runUntilSignalled() async throws { try await application.runService() }
}

extension PetrelServer {
    /// ``makeApplication(_:onRunning:)`` behind ``ApplicationRunner``.
    public static func makeRunner(_ configuration: ServerConfiguration,
                                  onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> any ApplicationRunner {
        HummingbirdRunner(application: try makeApplication(configuration, onRunning: onRunning))
    }
}

extension HTTPField.Name {
    /// `Referrer-Policy`.
    static var referrerPolicy: Self { Self("Referrer-Policy") ?? .contentType }
    /// `X-Frame-Options`.
    static var frameOptions: Self { Self("X-Frame-Options") ?? .contentType }
}
