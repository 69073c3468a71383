import Foundation
import Testing
@testable import PetrelIndex

@Suite("Tree walker")
struct WalkerTests {
    @Test func hiddenIgnoredAndGlobs() throws {
        let tree = try Tree([
            "a.md": "a", ".hidden.md": "h", ".config/x.txt": "x", "notes/b.txt": "b", "notes/c.log": "c",
            "build/out.txt": "o", ".gitignore": "build/\n*.log\n", "notes/.ignore": "!c.log\n",
            "vendor/v.txt": "v", ".petrelignore": "vendor\n", ".git/HEAD": "ref",
        ])
        #expect(walk(tree).files == ["a.md", "notes/b.txt", "notes/c.log"])
        #expect(walk(tree) { $0.includeHidden = true }.files == [".config/x.txt", ".gitignore", ".hidden.md", ".petrelignore", "a.md", "notes/.ignore", "notes/b.txt", "notes/c.log"])
        #expect(walk(tree) { $0.honorIgnoreFiles = false }.files == ["a.md", "build/out.txt", "notes/b.txt", "notes/c.log", "vendor/v.txt"])
        #expect(walk(tree) { $0.includeGlobs = ["*.txt"] }.files == ["notes/b.txt"])
        #expect(walk(tree) { $0.excludeGlobs = ["notes"] }.files == ["a.md"])
    }

    @Test func filesComeInBytewiseOrderOfTheirPaths() throws {
        // Depth first with plain name order would give a/x.txt before
        // a.txt ('.' < '/' in a path, but "a" < "a.txt" as names).
        let tree = try Tree(["a.txt": "1", "a/x.txt": "2", "a0.txt": "3", "a-b/y.txt": "4", "a/b/z.txt": "5", "a/b.txt": "6"])
        let files = walk(tree).files
        #expect(files == ["a-b/y.txt", "a.txt", "a/b.txt", "a/b/z.txt", "a/x.txt", "a0.txt"])
        #expect(files == files.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }

    @Test func sizeLimitIsReported() throws {
        let tree = try Tree(["small.txt": "tiny", "big.txt": String(repeating: "x", count: 5000)])
        let (files, walker) = walk(tree) { $0.maximumFileSize = 1000 }
        #expect(files == ["small.txt"])
        #expect(walker.skipped.map(\.reason) == [.tooLarge])
    }

    @Test func symbolicLinksAndLoops() throws {
        let tree = try Tree(["real/a.txt": "a"])
        try FileManager.default.createSymbolicLink(atPath: tree.path("link.txt"), withDestinationPath: tree.path("real/a.txt"))
        try FileManager.default.createSymbolicLink(atPath: tree.path("real/loop"), withDestinationPath: tree.path("real"))
        try FileManager.default.createSymbolicLink(atPath: tree.path("broken.txt"), withDestinationPath: tree.path("nowhere"))
        let plain = walk(tree)
        #expect(plain.files == ["real/a.txt"])
        #expect(plain.walker.symbolicLinksNotFollowed == 3)
        let followed = walk(tree) { $0.followSymbolicLinks = true }
        #expect(followed.files == ["link.txt", "real/a.txt"])
        #expect(followed.walker.skipped.map(\.reason) == [.symbolicLinkLoop])
        #expect(followed.walker.failed.map(\.message) == ["broken symbolic link"])
    }

    @Test func oddNamesAndSpecialFiles() throws {
        let tree = try Tree(["line\nbreak.txt": "newline in the name", "ok.txt": "ok"])
        #expect(mkfifo(tree.path("fifo"), 0o644) == 0)
        let files = walk(tree).files
        #expect(files.contains("line\nbreak.txt"))
        #expect(files.contains("ok.txt"))
        #expect(!files.contains("fifo"))
    }

    @Test func namesThatAreNotUTF8() throws {
        let tree = try Tree()
        let name: [UInt8] = [0x62, 0xFF, 0x2E, 0x74, 0x78, 0x74] // "b\xFF.txt"
        var path = Array(tree.root.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        #expect(fd >= 0)
        _ = write(fd, "latin", 5)
        close(fd)
        #expect(walk(tree).files == ["b\\xFF.txt"])
        let index = try DocumentIndex(path: tree.path("index.sqlite"), tokenizer: .unicode61)
        let report = try index.update(roots: [tree.root])
        #expect(report.added == 1)
        #expect(try index.search("latin", root: tree.root) == ["b\\xFF.txt"])
        // Stored as a blob, after every text path: the re-run still finds
        // it unchanged, beside files stored as text on either side of it.
        try "before".write(toFile: tree.path("a.txt"), atomically: true, encoding: .utf8)
        try "after".write(toFile: tree.path("c.txt"), atomically: true, encoding: .utf8)
        let second = try index.update()
        #expect((second.added, second.unchanged, second.deleted) == (2, 1, 0))
        let third = try index.update()
        #expect((third.added, third.unchanged, third.updated, third.deleted) == (0, 3, 0, 0))
    }
}
