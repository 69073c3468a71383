import Testing
@testable import PetrelIndex

@Suite("XXH64")
struct XXHash64Tests {
    // Reference values from the xxhash package (Python), same inputs.
    @Test func knownVectors() {
        #expect(XXHash64.hash([]) == 0xEF46_DB37_51D8_E999)
        #expect(XXHash64.hash(Array("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
        #expect(XXHash64.hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(XXHash64.hash(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x0B24_2D36_1FDA_71BC)
        let bytes = (0..<3).flatMap { _ in (0...255).map(UInt8.init) }
        #expect(XXHash64.hash(bytes) == 0x8E03_C838_C596_036F)
    }
}

@Suite("Globs and ignore rules")
struct GlobTests {
    @Test(arguments: [
        ("*.md", "notes.md", true), ("*.md", "dir/notes.md", false), ("?.txt", "a.txt", true), ("?.txt", "ab.txt", false),
        ("[abc].txt", "b.txt", true), ("[!abc].txt", "b.txt", false), ("[a-c]x", "cx", true), ("[a-c]x", "dx", false),
        ("**/build", "build", true), ("**/build", "a/b/build", true), ("docs/**", "docs/a/b.md", true), ("docs/**", "docs", false),
        ("a/**/b", "a/b", true), ("a/**/b", "a/x/y/b", true), ("a/**/b", "a/xb", false), ("\\*.md", "*.md", true),
        ("\\*.md", "x.md", false), ("a*b*c", "aXbYc", true), ("a*b*c", "aXbY/c", false), ("[unclosed", "[unclosed", true),
    ])
    func glob(pattern: String, path: String, matches: Bool) {
        #expect(Glob(pattern).matches(Array(path.utf8)) == matches, "\(pattern) vs \(path)")
    }

    func stack(_ files: [(String, String)]) -> IgnoreStack {
        var stack = IgnoreStack()
        for (folder, contents) in files { stack.push(IgnoreFile(folder: Array(folder.utf8), contents: Array(contents.utf8))) }
        return stack
    }

    @Test func gitignoreSemantics() {
        let rules = stack([("", "# comment\n*.log\n!keep.log\n/top.txt\nbuild/\ndocs/*.tmp\nspace\\ \n  \n")])
        #expect(rules.isIgnored(Array("a.log".utf8), isFolder: false))
        #expect(rules.isIgnored(Array("deep/down/a.log".utf8), isFolder: false))
        #expect(!rules.isIgnored(Array("keep.log".utf8), isFolder: false))
        #expect(rules.isIgnored(Array("top.txt".utf8), isFolder: false))
        #expect(!rules.isIgnored(Array("sub/top.txt".utf8), isFolder: false), "a leading slash anchors to the file's folder")
        #expect(rules.isIgnored(Array("build".utf8), isFolder: true))
        #expect(!rules.isIgnored(Array("build".utf8), isFolder: false), "a trailing slash matches folders only")
        #expect(rules.isIgnored(Array("docs/a.tmp".utf8), isFolder: false))
        #expect(!rules.isIgnored(Array("x/docs/a.tmp".utf8), isFolder: false), "a middle slash anchors too")
        #expect(rules.isIgnored(Array("space ".utf8), isFolder: false), "an escaped trailing space is kept")
        #expect(!rules.isIgnored(Array("# comment".utf8), isFolder: false))
    }

    @Test func deeperFilesOverrideShallowerOnes() {
        let rules = stack([("", "*.txt\n"), ("sub", "!*.txt\nsecret.txt\n")])
        #expect(rules.isIgnored(Array("a.txt".utf8), isFolder: false))
        #expect(!rules.isIgnored(Array("sub/a.txt".utf8), isFolder: false))
        #expect(rules.isIgnored(Array("sub/secret.txt".utf8), isFolder: false))
        #expect(!rules.isIgnored(Array("subway/a.md".utf8), isFolder: false))
        #expect(rules.isIgnored(Array("subway/a.txt".utf8), isFolder: false), "sub's rules do not reach subway")
    }
}
