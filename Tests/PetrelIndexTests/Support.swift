import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// A folder tree for a test, written from a dictionary of relative paths.
struct Tree {
    let directory: TemporaryDirectory
    var root: String { directory.url.path }

    init(_ files: [String: String] = [:]) throws {
        directory = try TemporaryDirectory()
        for (path, contents) in files { try write(path, contents) }
    }

    func path(_ relative: String) -> String { root + "/" + relative }

    func write(_ relative: String, _ contents: String) throws {
        try write(relative, bytes: Array(contents.utf8))
    }

    func write(_ relative: String, bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: path(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: path(relative))
    }

    func move(_ from: String, _ to: String) throws {
        let target = URL(fileURLWithPath: path(to))
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: path(from), toPath: path(to))
    }

    /// Sets a file's modification time (seconds since 1970).
    func setModificationTime(_ relative: String, _ seconds: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: path(relative))
    }
}

/// The file names of the hits, in rank order.
func names(_ results: SearchResults) -> [String] {
    results.hits.map { String($0.path.split(separator: "/").last ?? "") }
}

/// Walks a tree and returns the indexed paths relative to its root.
func walk(_ tree: Tree, _ configure: (inout WalkOptions) -> Void = { _ in }) -> (files: [String], walker: TreeWalker) {
    var options = WalkOptions()
    configure(&options)
    var walker = TreeWalker(root: FilePath(tree.root), options: options, excluded: [])
    var files: [String] = []
    walker.run { files.append(FilePath.display($0.path.relative(to: FilePath(tree.root)))) }
    #expect(walker.filesFound == files.count)
    return (files, walker)
}

extension DocumentIndex {
    /// Documents as (path relative to `root`, title, body), sorted by path.
    func contents(relativeTo root: String) throws -> [[String?]] {
        try dbQueue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.path, d.title, f.body, d.kind FROM documents d JOIN documents_fts f ON f.rowid = d.id ORDER BY d.path
                """).map { row in
                let path: String = row[0]
                return [String(path.dropFirst(root.count + 1)), row[1], row[2], row[3]]
            }
        }
    }

    /// Paths (relative to `root`) whose documents match an FTS5 query.
    func search(_ query: String, root: String) throws -> [String] {
        try dbQueue.read { db in
            try FilePath.fetchAll(db, sql: """
                SELECT d.path FROM documents_fts f JOIN documents d ON d.id = f.rowid WHERE documents_fts MATCH ? ORDER BY d.path
                """, arguments: [query]).map { (path: FilePath) in String(path.string.dropFirst(root.count + 1)) }
        }
    }

    func expectSound(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let problems = try check()
        #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
    }
}

/// The built executable next to the test bundle (`swift build` builds it).
func builtProduct(_ name: String) -> String? {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<3 {
        let candidate = folder.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
        let candidate = URL(fileURLWithPath: bundle.bundlePath).deletingLastPathComponent().appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// Runs a process to its end: exit status, stdout and stderr.
func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], in folder: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let result = try runCapturingBytes(executable, arguments, environment: environment, in: folder)
    return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
}

/// Like `run`, with the output as bytes (paths need not be UTF-8).
func runCapturingBytes(_ executable: String, _ arguments: [String], environment: [String: String] = [:], in folder: String? = nil) throws -> (status: Int32, stdout: Data, stderr: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes concurrently with the process so neither fills up,
    // on threads of their own: Dispatch's global queues share the
    // cooperative pool's few threads on Linux, which blocked tests hold.
    let outData = LockedData(), errData = LockedData()
    let group = DispatchGroup()
    for (pipe, box) in [(out, outData), (err, errData)] {
        group.enter()
        Thread.detachNewThread {
            box.set(pipe.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
    }
    process.waitUntilExit()
    group.wait()
    return (process.terminationStatus, outData.get(), errData.get())
}

// @unchecked Sendable: `data` is guarded by `lock`.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
