import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PetrelIndex
import PetrelServe
import PetrelTestSupport
import Testing

/// A small tree of documents indexed in a temporary folder: notes, a
/// hostile HTML page and text file (markup, quotes, script), a mailbox
/// with two messages, and a secret file beside the indexed folder that no
/// request may read.
final class ServeFixture: Sendable {
    let directory: TemporaryDirectory
    let root: String
    let indexPath: String
    let secretPath: String

    /// Text that would run as script if it were ever taken as markup.
    static let hostileText = #"<script>window.__petrelInjected = 1</script><img src=x onerror="window.__petrelInjected = 2"> "quoted" & 'single' lantern"#

    init() throws {
        directory = try TemporaryDirectory()
        root = directory.path("docs")
        indexPath = directory.path("index.sqlite")
        secretPath = directory.path("secret.txt")
        let files: [(String, String)] = [
            ("notes/storm.md", "# Storm petrel\n\nThe storm petrel follows ships; a petrel of the open sea, seen near the lantern of the lighthouse.\n"),
            ("notes/albatross.md", "# Albatross\n\nThe albatross glides for days. No small birds here.\n"),
            ("notes/burrow.txt", "Petrels nest in a burrow on islands. The burrow keeps the egg warm.\n"),
            ("web/hostile.html", "<html><head><title>\(Self.hostileText.replacingOccurrences(of: "<", with: "&lt;"))</title></head><body><p>\(Self.hostileText.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "&", with: "&amp;"))</p></body></html>"),
            ("web/hostile.txt", "Hostile text: \(Self.hostileText)\nThe petrel here is only a word.\n"),
            ("mail/lighthouse.mbox", """
                From ann@example.org Mon Jan  8 10:00:00 2024
                From: Ann Sender <ann@example.org>
                To: Bob <bob@example.org>
                Subject: Lantern budget
                Date: Mon, 08 Jan 2024 10:00:00 +0000
                Message-ID: <1@example.org>

                The lantern of the lighthouse needs a new budget.

                From cara@example.org Tue Jan  9 11:00:00 2024
                From: Cara Writer <cara@example.org>
                To: Bob <bob@example.org>
                Subject: Petrel count
                Date: Tue, 09 Jan 2024 11:00:00 +0000
                Message-ID: <2@example.org>

                We counted forty storm petrel nests.

                """),
        ]
        for (relative, contents) in files {
            let path = root + "/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try contents.write(toFile: path, atomically: true, encoding: .utf8)
        }
        try "the secret lantern petrel, outside the index\n".write(toFile: secretPath, atomically: true, encoding: .utf8)
        let index = try DocumentIndex(path: indexPath)
        _ = try index.addRoot(root)
        try index.update()
        try index.dbQueue.close()
    }
}

/// A petrel-serve server on an ephemeral loopback port, run as its own
/// process (``ServeProcess``): its requests never wait for a thread of this
/// process's cooperative pool, which the suite's other tests keep busy (an
/// in-process server starved there under load, and its requests timed out).
final class TestServer: Sendable {
    let port: Int
    let fixture: ServeFixture
    private let process: ServeProcess

    static func start(_ fixture: ServeFixture, token: String? = nil, readers: Int = 2, timeout: Duration = .seconds(10)) async throws -> TestServer {
        var options = ["--readers", "\(readers)", "--timeout", "\(timeout.components.seconds)"]
        if let token { options += ["--token", token] }
        let process = try ServeProcess(indexPath: fixture.indexPath, options: options)
        let port = try #require(URLComponents(string: process.url)?.port, "no port in \(process.url)")
        return TestServer(port: port, fixture: fixture, process: process)
    }

    private init(port: Int, fixture: ServeFixture, process: ServeProcess) {
        self.port = port
        self.fixture = fixture
        self.process = process
    }

    var base: String { "http://127.0.0.1:\(port)" }

    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var data: Data
        var text: String { String(decoding: data, as: UTF8.self) }
        func json() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: data) }
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    /// GETs `pathAndQuery` (already percent-encoded).
    func get(_ pathAndQuery: String, headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: try #require(URL(string: base + pathAndQuery)))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields["\(key)"] = "\(value)" }
        return Reply(status: http.statusCode, headers: fields, data: data)
    }

    /// GETs an API path with `parameters` encoded as a form would.
    func api(_ path: String, _ parameters: [String: String] = [:], headers: [String: String] = [:]) async throws -> Reply {
        var components = URLComponents()
        components.queryItems = parameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        // `+` is a space in a form: encode it, as browsers do.
        let query = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        return try await get(path + (query.isEmpty ? "" : "?" + query), headers: headers)
    }

    func stop() { process.stop() }
}

/// The built `petrel-serve` next to the test bundle (`swift build` builds it).
func builtServe() -> String? {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<3 {
        let candidate = folder.appendingPathComponent("petrel-serve").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
        let candidate = URL(fileURLWithPath: bundle.bundlePath).deletingLastPathComponent().appendingPathComponent("petrel-serve").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// A petrel-serve process on an ephemeral loopback port: a server with its
/// own threads, for tests whose client must not wait on this process's
/// cooperative pool (which the suite's other tests keep busy).
// @unchecked Sendable: `process` is set in `init` and only read after;
// `stop()` is called once, by the test that made it.
final class ServeProcess: @unchecked Sendable {
    private let process: Process
    /// The page's address, as the server printed it (`http://127.0.0.1:N/`).
    let url: String
    /// The first line the server printed.
    let firstLine: String

    /// The server on `indexPath`, listening where `listen` says, with
    /// `options` (`--readers`, `--token`, `--timeout`; 2 readers unless told).
    init(indexPath: String, listen: [String] = ["--port", "0"], options: [String] = ["--readers", "2"]) throws {
        let executable = try #require(builtServe(), "petrel-serve is not built next to the tests")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--index", indexPath] + options + listen
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The first line names the URL.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = error.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let url = text.split(separator: " ").first(where: { $0.hasPrefix("http://") }).map({ String($0).trimmingCharacters(in: .whitespacesAndNewlines) }) else {
            process.terminate()
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "petrel-serve did not say where it listens: \(text)"])
        }
        self.process = process
        self.url = url
        firstLine = text
    }

    /// Stops the server with SIGTERM; its exit status.
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// Runs a program to its end on threads of its own, off the cooperative
/// pool and Dispatch's global queues (a server in this process needs
/// them): its status, standard output and standard error, both read as
/// they come. With `errorsInOutput`, standard error goes into the output,
/// interleaved as written, and `stderr` is empty.
func runToEnd(_ executable: String, _ arguments: [String], errorsInOutput: Bool = false) async throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errorsInOutput ? output : errors
    return try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            do {
                try process.run()
                let errorText = LockedText()
                let errorsRead = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    if !errorsInOutput { errorText.set(errors.fileHandleForReading.readDataToEndOfFile()) }
                    errorsRead.signal()
                }
                let outputData = output.fileHandleForReading.readDataToEndOfFile()
                errorsRead.wait()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, String(decoding: outputData, as: UTF8.self), errorText.get()))
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}

/// Text handed from one thread to another.
// @unchecked Sendable: `text` is only read or written under `lock`.
private final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func set(_ data: Data) { lock.withLock { text = String(decoding: data, as: UTF8.self) } }
    func get() -> String { lock.withLock { text } }
}
