import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

@Suite("Text decoding")
struct TextDecodingTests {
    @Test func utf8AndByteOrderMarks() throws {
        #expect(TextDecoding.decode(Array("Grüße, 東京".utf8))?.text == "Grüße, 東京")
        #expect(TextDecoding.decode([0xEF, 0xBB, 0xBF] + Array("bom".utf8))?.text == "bom")
        let le: [UInt8] = [0xFF, 0xFE] + "Zoë 東".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(TextDecoding.decode(le)?.text == "Zoë 東")
        #expect(TextDecoding.decode(le)?.encoding == "UTF-16LE")
        let be: [UInt8] = [0xFE, 0xFF] + "Zoë".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(TextDecoding.decode(be)?.text == "Zoë")
        // A mark in front of NUL bytes does not make binary data text.
        #expect(TextDecoding.decode([0xEF, 0xBB, 0xBF, 0x00, 0x23, 0x41]) == nil)
        #expect(TextDecoding.decode([0xFF, 0xFE, 0x41, 0x00, 0x00, 0x00]) == nil)
        let noMark: [UInt8] = "plain UTF-16 text without a mark".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(TextDecoding.decode(noMark)?.text == "plain UTF-16 text without a mark")
    }

    @Test func latin1FallsBackToWindows1252() {
        // "Müller “quoted”" in windows-1252: invalid UTF-8.
        let bytes: [UInt8] = [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72, 0x20, 0x93, 0x71, 0x94]
        let decoded = TextDecoding.decode(bytes)
        #expect(decoded?.text == "Müller “q”")
    }

    @Test func legacyJapaneseIsDetected() throws {
        let text = String(repeating: "日本語の文章を正しく読み込めるかどうかを確認します。東京タワーは高いです。", count: 4)
        let bytes = try #require(ICUCharset.decode([0x82, 0xA0], charset: "Shift_JIS").map { _ in
            Array(text.data(using: .shiftJIS) ?? Data())
        })
        try #require(!bytes.isEmpty)
        let decoded = TextDecoding.decode(bytes)
        #expect(decoded?.text == text)
        #expect(decoded?.encoding == "Shift_JIS")
    }

    @Test func binaryIsRefused() {
        #expect(TextDecoding.decode([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00]) == nil)
        #expect(TextDecoding.decode(Array("text\0with NUL".utf8)) == nil)
        #expect(TextDecoding.decode([UInt8](repeating: 0x01, count: 100) + Array("abc".utf8)) == nil)
        #expect(TextDecoding.decode([])?.text == "")
    }

    @Test func invalidUTF8IsRepairedWhenMostlyUTF8() {
        let bytes = Array("naïve café résumé déjà vu".utf8) + [0xFF] + Array(" fin".utf8)
        let decoded = TextDecoding.decode(bytes)
        #expect(decoded?.text == "naïve café résumé déjà vu\u{FFFD} fin")
    }

    /// The native trim gives what Foundation's gives, on every white space
    /// and line break Unicode has (and the zero-width space, which
    /// Foundation counts), next to marks and invisible characters that are
    /// not white space (zero-width non-joiner, BOM), in random strings.
    @Test func whitespaceIsTrimmedAsFoundationTrimsIt() {
        let spaces: [Unicode.Scalar] = (0...0x3000).compactMap(Unicode.Scalar.init).filter {
            CharacterSet.whitespacesAndNewlines.contains($0)
        }
        #expect(spaces.count == 26 && spaces.contains("\u{200B}"))
        #expect(spaces.allSatisfy { $0.isTrimmedSpace })
        let others: [Unicode.Scalar] = ["a", "東", "\u{301}", "\u{200C}", "\u{FEFF}", "\u{1F600}", "-", "\u{0}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                text.append(Bool.random(using: &generator) ? spaces.randomElement(using: &generator)! : others.randomElement(using: &generator)!)
            }
            let string = String(text)
            #expect(string.trimmingWhitespace == string.trimmingCharacters(in: .whitespacesAndNewlines), "\(string.unicodeScalars.map(\.value))")
            #expect(string.dropFirst().trimmingWhitespace == string.dropFirst().trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(" \n\t Subject line \u{3000}\r\n".trimmingWhitespace == "Subject line")
        #expect("\u{A0}\u{85}".trimmingWhitespace == "")
    }
}

@Suite("HTML extraction")
struct HTMLTests {
    func extract(_ html: String) throws -> ExtractedDocument {
        try HTMLExtractor().extract(ExtractionInput(bytes: Array(html.utf8), name: "page.html", path: "/x/page.html"))
    }

    @Test func textWithoutMarkup() throws {
        let document = try extract("""
            <!DOCTYPE html><html><head><title>Storm &amp; Petrel</title>
            <meta name="description" content="Seabirds &lt;small&gt;">
            <style>p { color: red } .hidden { display: none }</style>
            <script>if (a < b && c > d) { document.write("<p>not text</p>") }</script>
            </head><body><!-- a comment <p>hidden</p> -->
            <p class="x>y" title='a > b'>Caf&eacute; &#233;t&#xE9; &copy 2024 &zzzz; &notit; &#128512;</p>
            <ul><li>one</li><li>two</li></ul><![CDATA[raw <cdata>]]><textarea>&lt;typed&gt;</textarea>
            </body></html>
            """)
        #expect(document.title == "Storm & Petrel")
        #expect(document.kind == "html")
        let lines = document.body.split(separator: "\n").map(String.init)
        #expect(lines.first == "Seabirds <small>")
        // "&notit;" is "¬it;": HTML reads the legacy "&not" without its semicolon.
        #expect(lines.contains("Café été © 2024 &zzzz; ¬it; 😀"))
        #expect(lines.contains("one") && lines.contains("two"))
        #expect(document.body.contains("raw <cdata>"))
        #expect(document.body.contains("<typed>"))
        #expect(!document.body.contains("color"))
        #expect(!document.body.contains("not text"))
        #expect(!document.body.contains("hidden"))
        #expect(!document.body.contains("class"))
    }

    @Test func headingIsTheTitleWhenThereIsNone() throws {
        let document = try extract("<body><h1>The <em>real</em> title</h1><p>text</p>")
        #expect(document.title == "The real title")
    }

    @Test func unclosedScriptAndStrayBrackets() throws {
        #expect(try extract("a < b and 3 <4 <script>never closed").body == "a < b and 3 <4")
        #expect(try extract("x <d <3 <script>y").body == "x y", "attributes may contain '<' (the HTML standard agrees)")
        #expect(try extract("<p>x</p><scripts>kept</scripts>").body.contains("kept"))
    }

    @Test func declaredCharsetIsUsed() throws {
        var bytes = Array("<html><head><meta charset=\"windows-1251\"><title>".utf8)
        bytes += [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2] // "Привет" in windows-1251
        bytes += Array("</title></head><body>ok</body></html>".utf8)
        let document = try HTMLExtractor().extract(ExtractionInput(bytes: bytes, name: "a.html", path: "/a.html"))
        #expect(document.title == "Привет")
    }

    @Test func entityTableIsComplete() {
        #expect(HTMLEntities.table.count == 2231)
        #expect(HTMLEntities.decodeAll(Array("&NotNestedGreaterGreater;&fjlig;&amp".utf8)) == "\u{2AA2}\u{338}fj&")
    }
}

@Suite("Markup titles and formats")
struct FormatTests {
    @Test func markdownTitles() {
        #expect(TitleFinder.markdownTitle("intro\n\n# Real title #\n") == "Real title")
        #expect(TitleFinder.markdownTitle("Setext title\n============\n\ntext") == "Setext title")
        #expect(TitleFinder.markdownTitle("---\ntitle: \"From front matter\"\n---\n# Heading") == "From front matter")
        #expect(TitleFinder.markdownTitle("```\n# not a title\n```\n## Second level") == "Second level")
        #expect(TitleFinder.markdownTitle("#hashtag is not a heading") == nil)
    }

    /// Texts saved with Windows line ends ("\r\n", one Swift character)
    /// have the same titles, and a title never runs past its line.
    @Test func titlesOfTextsWithWindowsLineEnds() {
        let crlf = { (text: String) in text.replacingOccurrences(of: "\n", with: "\r\n") }
        #expect(TitleFinder.markdownTitle(crlf("intro\n\n# Real title #\n\nBody text.\n")) == "Real title")
        #expect(TitleFinder.markdownTitle(crlf("Setext title\n============\n\ntext")) == "Setext title")
        #expect(TitleFinder.markdownTitle(crlf("---\ntitle: \"From front matter\"\n---\n# Heading")) == "From front matter")
        #expect(TitleFinder.title(of: crlf(".. comment\n\nThe Title\n=========\nText.\n"), kind: "rst") == "The Title")
        #expect(TitleFinder.title(of: crlf("= AsciiDoc Title\nAuthor\n"), kind: "adoc") == "AsciiDoc Title")
        #expect(TitleFinder.title(of: crlf("=pod\n\n=head1 NAME\n\nFoo::Bar - does things\n\nMore.\n"), kind: "pod") == "Foo::Bar - does things")
    }

    /// Titles are looked for in the first 64 KB only, cut at a character.
    @Test func titlesNearTheTopOfLongTexts() {
        let filler = String(repeating: "é", count: 40_000) + "\n"
        #expect(TitleFinder.markdownTitle(filler + "# Too far\n") == nil)
        #expect(TitleFinder.markdownTitle("# Near\n" + filler) == "Near")
        let lines = TitleFinder.leadingLines(String(repeating: "é", count: 40_000))
        #expect(lines.count == 1 && lines[0].utf8.count == 65_536 && lines[0].allSatisfy { $0 == "é" })
        let odd = TitleFinder.leadingLines("a" + String(repeating: "é", count: 40_000))
        #expect(odd[0].utf8.count == 65_535)
    }

    @Test func otherMarkupTitles() {
        #expect(TitleFinder.title(of: ".. comment\n\nThe Title\n=========\n", kind: "rst") == "The Title")
        #expect(TitleFinder.title(of: "= AsciiDoc Title\nAuthor\n", kind: "adoc") == "AsciiDoc Title")
        #expect(TitleFinder.title(of: "=pod\n\n=head1 NAME\n\nFoo::Bar - does things\n", kind: "pod") == "Foo::Bar - does things")
        #expect(TitleFinder.title(of: "\\documentclass{article}\\title{On Petrels}", kind: "tex") == "On Petrels")
    }

    func gzip(_ text: String) throws -> [UInt8] {
        let tree = try Tree(["plain.txt": text])
        let result = try run("/bin/gzip", ["-k", "-n", tree.path("plain.txt")])
        try #require(result.status == 0)
        return try Array(Data(contentsOf: URL(fileURLWithPath: tree.path("plain.txt.gz"))))
    }

    @Test func gzipIsUnwrapped() throws {
        let registry = ExtractorRegistry.standard
        let compressed = try gzip("# Compressed\nstorm petrel text")
        let document = try registry.extract(ExtractionInput(bytes: compressed, name: "notes.md.gz", path: "/notes.md.gz"))
        #expect(document.kind == "md")
        #expect(document.title == "Compressed")
        // Two members, as `cat a.gz b.gz` makes.
        let twice = try registry.extract(ExtractionInput(bytes: compressed + compressed, name: "n.txt.gz", path: "/n.txt.gz"))
        #expect(twice.body == "# Compressed\nstorm petrel text# Compressed\nstorm petrel text")
        #expect(throws: ExtractionError.self) {
            try registry.extract(ExtractionInput(bytes: Array(compressed.prefix(compressed.count - 12)), name: "cut.txt.gz", path: "/cut.txt.gz"))
        }
        // Garbage after a complete member is ignored, as gzip does.
        let trailing = try registry.extract(ExtractionInput(bytes: compressed + Array("\nappended".utf8), name: "t.txt.gz", path: "/t.txt.gz"))
        #expect(trailing.body == "# Compressed\nstorm petrel text")
        var small = registry
        small.maximumDecompressedSize = 10
        let error = #expect(throws: ExtractionError.self) {
            try small.extract(ExtractionInput(bytes: compressed, name: "n.txt.gz", path: "/n.txt.gz"))
        }
        guard case .tooLarge? = error else { Issue.record("expected tooLarge, got \(String(describing: error))"); return }
    }

    /// Compressed text is cut to the text budget like a plain file (the
    /// rest is not inflated, and a UTF-8 character is never split), even
    /// past the limit for files read whole; a PDF inside gzip still has
    /// that limit.
    @Test func compressedTextIsCutToTheTextBudget() throws {
        var registry = ExtractorRegistry.standard
        registry.maximumTextBytes = 8
        registry.maximumDecompressedSize = 20
        let text = "petrel é " + String(repeating: "storm ", count: 20)
        let cut = try registry.extract(ExtractionInput(bytes: try gzip(text), name: "n.txt.gz", path: "/n.txt.gz"))
        #expect(cut.body == "petrel ")
        #expect(cut.isTruncated)
        let whole = try registry.extract(ExtractionInput(bytes: try gzip("petrel"), name: "n.txt.gz", path: "/n.txt.gz"))
        #expect(whole.body == "petrel")
        #expect(!whole.isTruncated)
        let error = #expect(throws: ExtractionError.self) {
            try registry.extract(ExtractionInput(bytes: try gzip("%PDF-1.4 " + String(repeating: "x", count: 40)), name: "a.pdf.gz", path: "/a.pdf.gz"))
        }
        guard case .tooLarge? = error else { Issue.record("expected tooLarge, got \(String(describing: error))"); return }
    }

    /// A file compressed by a command, as `tool arguments plain.txt` leaves
    /// it (`plain.txt.ext`).
    func compressed(_ text: String, tool: String, _ arguments: [String], extension ext: String) throws -> [UInt8] {
        let tree = try Tree(["plain.txt": text])
        let result = try run(tool, arguments + [tree.path("plain.txt")])
        try #require(result.status == 0, "\(tool): \(result.stderr)")
        return try Array(Data(contentsOf: URL(fileURLWithPath: tree.path("plain.txt." + ext))))
    }

    /// bzip2, xz, lzma, zstd and lz4 files are read like gzip ones: the
    /// document of the file inside, by its name; cut to the text budget;
    /// refused past the size limit; a damaged file is unreadable, not text.
    @Test(arguments: [
        ("/bin/bzip2", ["-k"], "bz2"), ("/usr/bin/xz", ["-k"], "xz"), ("/usr/bin/xz", ["-k", "--format=lzma"], "lzma"),
        ("/usr/bin/zstd", ["-q", "-k"], "zst"), ("/usr/bin/lz4", ["-q", "-k", "-m"], "lz4"),
    ])
    func otherCompressionsAreUnwrapped(tool: String, arguments: [String], ext: String) throws {
        let registry = ExtractorRegistry.standard
        let bytes = try compressed("# Compressed\nstorm petrel text", tool: tool, arguments, extension: ext)
        #expect(!registry.isKnownBinary(name: "notes.md." + ext))
        #expect(registry.isKnownBinary(name: "photo.jpg." + ext))
        #expect(registry.readsWholeFile(name: "notes.md." + ext))
        let document = try registry.extract(ExtractionInput(bytes: bytes, name: "notes.md." + ext, path: "/notes.md." + ext))
        #expect(document.kind == "md")
        #expect(document.title == "Compressed")
        let text = try registry.extract(ExtractionInput(bytes: bytes, name: "notes.txt." + ext, path: "/notes.txt." + ext))
        #expect(text.body == "# Compressed\nstorm petrel text")
        #expect(!text.isTruncated)
        // The format is known by the bytes: a wrong extension still reads.
        let renamed = try registry.extract(ExtractionInput(bytes: bytes, name: "notes.txt.xz", path: "/notes.txt.xz"))
        #expect(renamed.body == text.body)
        let truncated = #expect(throws: ExtractionError.self) {
            try registry.extract(ExtractionInput(bytes: Array(bytes.prefix(bytes.count / 2)), name: "cut.txt." + ext, path: "/cut.txt." + ext))
        }
        guard case .unreadable? = truncated else { Issue.record("expected unreadable, got \(String(describing: truncated))"); return }
        // Plain text with a compression's name is not compressed data.
        #expect(throws: ExtractionError.self) {
            try registry.extract(ExtractionInput(bytes: Array("plain text".utf8), name: "fake.txt." + ext, path: "/fake.txt." + ext))
        }
        var small = registry
        small.maximumDecompressedSize = 10
        let tooLarge = #expect(throws: ExtractionError.self) {
            try small.extract(ExtractionInput(bytes: bytes, name: "notes.pdf." + ext, path: "/notes.pdf." + ext))
        }
        guard case .tooLarge? = tooLarge else { Issue.record("expected tooLarge, got \(String(describing: tooLarge))"); return }
        var budget = registry
        budget.maximumTextBytes = 8
        let cut = try budget.extract(ExtractionInput(bytes: bytes, name: "notes.txt." + ext, path: "/notes.txt." + ext))
        #expect(cut.body == "# Compre")
        #expect(cut.isTruncated)
    }

    /// Compressed binary data is known by its first bytes: only those are
    /// expanded (past them, this file would be over the limit, and was
    /// refused as too large once fully expanded); compressed UTF-16 text
    /// still reads.
    @Test func compressedBinaryIsKnownByItsHead() throws {
        let tree = try Tree()
        let made = try run("/bin/bash", ["-c", "head -c 1000000 /dev/urandom | /usr/bin/xz -0 > \(tree.path("data.xz")) && "
                                         + "printf 'storm petrel UTF-16 text' | iconv -f UTF-8 -t UTF-16 | /usr/bin/xz > \(tree.path("utf16.txt.xz"))"])
        try #require(made.status == 0, "\(made.stderr)")
        var registry = ExtractorRegistry.standard
        registry.maximumTextBytes = 8 << 20
        registry.maximumDecompressedSize = 200_000
        #expect(throws: ExtractionError.binary) {
            try registry.extract(ExtractionInput(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: tree.path("data.xz")))), name: "data.xz", path: "/data.xz"))
        }
        let text = try registry.extract(ExtractionInput(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: tree.path("utf16.txt.xz")))), name: "utf16.txt.xz", path: "/utf16.txt.xz"))
        #expect(text.body == "storm petrel UTF-16 text")
    }

    /// A bomb of a compressed file expands only to the limit.
    @Test func compressedBombIsBounded() throws {
        let tree = try Tree()
        let zeros = try run("/bin/bash", ["-c", "head -c 80000000 /dev/zero | tr '\\0' a | /usr/bin/xz -1 > \(tree.path("bomb.txt.xz"))"])
        try #require(zeros.status == 0, "\(zeros.stderr)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: tree.path("bomb.txt.xz"))))
        #expect(bytes.count < 100_000)
        var registry = ExtractorRegistry.standard
        registry.maximumTextBytes = nil
        let error = #expect(throws: ExtractionError.self) {
            try registry.extract(ExtractionInput(bytes: bytes, name: "bomb.txt.xz", path: "/bomb.txt.xz"))
        }
        guard case .tooLarge(let size)? = error else { Issue.record("expected tooLarge, got \(String(describing: error))"); return }
        #expect(size <= registry.maximumDecompressedSize + 64 * 1024)
    }

    @Test func registryChoosesByExtensionAndSniffs() throws {
        let registry = ExtractorRegistry.standard
        #expect(registry.isKnownBinary(name: "photo.JPG"))
        // An archive is a container of documents (MailAndArchiveTests).
        #expect(!registry.isKnownBinary(name: "backup.tar.gz"))
        #expect(registry.isKnownBinary(name: "backup.rar"))
        #expect(!registry.isKnownBinary(name: "changelog.gz"))
        #expect(!registry.isKnownBinary(name: "backup.tar.lz") && !registry.isKnownBinary(name: "old.tar.Z"))
        #expect(registry.container(forName: "backup.tar.lzma") != nil && registry.container(forName: "notes.txt.lzma") == nil)
        let go = try registry.extract(ExtractionInput(bytes: Array("package main".utf8), name: "main.go", path: "/main.go"))
        #expect(go.kind == "go")
        let sniffed = try registry.extract(ExtractionInput(bytes: Array("<!DOCTYPE html><title>T</title>x".utf8), name: "README", path: "/README"))
        #expect(sniffed.kind == "html" && sniffed.title == "T")
        #expect(throws: ExtractionError.binary) {
            try registry.extract(ExtractionInput(bytes: [0, 1, 2, 3, 0], name: "blob", path: "/blob"))
        }
    }

    @Test func pdfNeedsPdftotext() throws {
        let input = ExtractionInput(bytes: Array("%PDF-1.4 broken".utf8), name: "a.pdf", path: "/nonexistent/a.pdf")
        if PDFExtractor.pdftotext == nil {
            #expect(throws: ExtractionError.missingTool("pdftotext", install: "apt-get install poppler-utils")) { try PDFExtractor().extract(input) }
        } else {
            #expect(throws: ExtractionError.self) { try PDFExtractor().extract(input) }
        }
        #expect(throws: ExtractionError.unreadable("not a PDF file (no %PDF header)")) {
            try PDFExtractor().extract(ExtractionInput(bytes: Array("hello".utf8), name: "a.pdf", path: "/a.pdf"))
        }
    }

    /// A DjVu of two pages, each a bitmap (cjb2) with a text layer
    /// (djvused), bundled by djvm: its text, page after page. A page
    /// without a text layer alone has nothing to index.
    @Test func djvuTextLayers() throws {
        let tree = try Tree([
            "blank.pbm": "P1\n8 8\n" + String(repeating: "0 0 0 0 0 0 0 0\n", count: 8),
            "one.txt": #"(page 0 0 8 8 (line 0 4 8 8 (word 0 4 4 8 "Storm") (word 4 4 8 8 "petrels")) (line 0 0 8 4 (word 0 0 8 4 "burrows")))"#,
            "two.txt": #"(page 0 0 8 8 (line 0 0 8 8 (word 0 0 8 8 "Guillemots")))"#,
        ])
        let script = """
            set -e; cd \(tree.root)
            cjb2 blank.pbm bare.djvu; cp bare.djvu one.djvu; cp bare.djvu two.djvu
            djvused one.djvu -e 'select 1; set-txt one.txt' -s; djvused two.djvu -e 'select 1; set-txt two.txt' -s
            djvm -c book.djvu one.djvu two.djvu
            """
        let made = try run("/bin/bash", ["-c", script])
        try #require(made.status == 0, "djvulibre-bin: \(made.stderr)")
        let book = try ExtractorRegistry.standard.extract(ExtractionInput(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: tree.path("book.djvu")))),
                                                                          name: "book.djvu", path: tree.path("book.djvu")))
        #expect(book.kind == "djvu")
        #expect(book.title == "Storm petrels")
        #expect(OfficeFixtures.inOrder(book.body, ["Storm petrels", "burrows", "Guillemots"]))
        #expect(throws: ExtractionError.unreadable("the DjVu file has no text layer")) {
            try DjVuExtractor().extract(ExtractionInput(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: tree.path("bare.djvu")))),
                                                        name: "bare.djvu", path: tree.path("bare.djvu")))
        }
        #expect(throws: ExtractionError.unreadable("not a DjVu file (no AT&TFORM header)")) {
            try DjVuExtractor().extract(ExtractionInput(bytes: Array("plain".utf8), name: "x.djvu", path: "/x.djvu"))
        }
        #expect(throws: ExtractionError.missingTool("djvutxt", install: "apt-get install djvulibre-bin")) {
            try DjVuExtractor(searchPath: tree.root).extract(ExtractionInput(bytes: Array("AT&TFORM".utf8), name: "x.djvu", path: "/x.djvu"))
        }
        #expect(!ExtractorRegistry.standard.isKnownBinary(name: "scan.djvu") && ExtractorRegistry.standard.readsWholeFile(name: "scan.djvu"))
    }

    /// `manual.pdf.gz` is read expanded: pdftotext gets those bytes, not
    /// the compressed file (which it cannot read).
    @Test(.requires(PDFExtractor.pdftotext != nil, "pdftotext is not installed (apt-get install poppler-utils)"))
    func compressedPDF() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let pdf = try Data(contentsOf: repository.appendingPathComponent("corpora/tiny/formats/annual-report.pdf"))
        let tree = try Tree()
        try tree.write("report.pdf", bytes: Array(pdf))
        let gzip = try run("/bin/gzip", ["-n", tree.path("report.pdf")])
        #expect(gzip.status == 0)
        let document = try ExtractorRegistry.standard.extract(
            ExtractionInput(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: tree.path("report.pdf.gz")))), name: "report.pdf.gz", path: tree.path("report.pdf.gz")))
        #expect(document.kind == "pdf")
        #expect(document.title == "Storm petrel annual report")
        #expect(document.body.contains("Burrow counts rose on the north slope"))
    }

    @Test(arguments: [
        ("The storm petrel is a small seabird that flies over the ocean and feeds on plankton.", "en"),
        ("Le pétrel tempête est un petit oiseau de mer qui vole au-dessus des vagues et il se nourrit de plancton.", "fr"),
        ("Die Sturmschwalbe ist ein kleiner Seevogel, der über dem Meer fliegt und sich von Plankton ernährt.", "de"),
        ("海燕是一种小型海鸟，在海面上飞行，以浮游生物为食。", "zh"),
        ("ウミツバメは小さな海鳥で、海の上を飛びながらプランクトンを食べます。", "ja"),
        ("바다제비는 바다 위를 나는 작은 바닷새입니다.", "ko"),
        ("นกนางแอ่นทะเลเป็นนกทะเลขนาดเล็ก", "th"),
        ("Буревестник — это морская птица, и она летает над волнами, как и все они.", "ru"),
    ])
    func languageGuess(text: String, language: String) {
        #expect(LanguageGuess.guess(text) == language)
    }

    /// Text that starts in ASCII is judged on its bytes: the same answers as
    /// counting its scalars' scripts, up to the same number of characters.
    @Test func languageGuessOfASCIIText() {
        // Fewer than eight letters: no guess.
        #expect(LanguageGuess.guess("a1 b2 c3 4567 --- 89") == nil)
        let english = String(repeating: "the cat and the dog ", count: 205)
        let chinese = String(repeating: "海燕是一种小型海鸟，在海面上飞行。", count: 300)
        // Han past the characters judged does not count; Han before them does.
        #expect(LanguageGuess.guess(english + chinese) == "en")
        #expect(LanguageGuess.guess("the cat " + chinese) == "zh")
        #expect(LanguageGuess.guess(String(repeating: "der Hund und die Katze ", count: 300)) == "de")
    }

    /// Only whole words count: a long word ending in a common word is not
    /// that word, and words of up to eight bytes (`olarak`, `questo`) are.
    @Test func languageGuessCountsWholeWordsOnly() {
        let padding = String(repeating: "Abcdethe bothand otherwise ", count: 40)
        #expect(LanguageGuess.guess(padding + "le chat est dans la maison et il dort") == "fr")
        #expect(LanguageGuess.guessQuery("questo olarak") == nil)
        #expect(LanguageGuess.guessQuery("QUESTO non è") == "it")
        #expect(LanguageGuess.guessQuery("olarak bir") == "tr")
        #expect(LanguageGuess.guessQuery("zzzzzzzzzzolarak") == nil)
    }

    /// A run of blank lines in a man page is one blank line, wherever it is.
    @Test func blankLineRunsCollapse() {
        #expect(RoffText.collapsingBlankLines("a\n\n\n\nb\n\n\nc\nd\n\n") == "a\n\nb\n\nc\nd\n\n")
        #expect(RoffText.collapsingBlankLines("\n\n\n\né\n\n\n") == "\n\né\n\n")
        #expect(RoffText.collapsingBlankLines("") == "")
    }

    /// reStructuredText titles: the underline may be indented, by any
    /// white space, and must be the title's own marker throughout.
    @Test func underlinedTitles() {
        #expect(TitleFinder.title(of: "Intro text\n\nStorm petrels\n  ~~~~~~~~~\nBody", kind: "rst") == "Storm petrels")
        #expect(TitleFinder.title(of: "Storm petrels\n\u{A0}=====\n", kind: "rst") == "Storm petrels")
        #expect(TitleFinder.title(of: "Not a title\n==-==\nTitle\n-----\n", kind: "rst") == "Title")
        #expect(TitleFinder.title(of: "No title here\nat all\n", kind: "rst") == nil)
    }
}

@Suite("Robustness on random input")
struct RandomInputTests {
    /// Random bytes, biased towards markup and multi-byte sequences.
    func randomBytes(_ generator: inout SeededGenerator) -> [UInt8] {
        let alphabet: [[UInt8]] = ["<", ">", "&", "#", ";", "\"", "'", "=", "/", "!", "-", "[", "]", "script", "title", "amp", "x", " ", "\n",
                                   "é", "東", "\u{FEFF}", "<!--", "-->", "<![CDATA[", "]]>", "&#x", "&#", "9", "charset=", "\u{0}"].map { Array($0.utf8) }
        var bytes: [UInt8] = []
        for _ in 0..<Int(generator.next() % 40) {
            if generator.next() % 5 == 0 {
                bytes.append(UInt8(truncatingIfNeeded: generator.next()))
            } else {
                bytes += alphabet[Int(generator.next() % UInt64(alphabet.count))]
            }
        }
        return bytes
    }

    @Test func extractorsNeverTrapAndAlwaysReturnValidText() throws {
        var generator = SeededGenerator(seed: 2024)
        let registry = ExtractorRegistry.standard
        for n in 0..<3000 {
            let bytes = randomBytes(&generator)
            for name in ["page.html", "notes.md", "plain.txt", "noextension", "data.gz"] {
                let input = ExtractionInput(bytes: bytes, name: name, path: "/r/\(n)/\(name)")
                if let document = try? registry.extract(input) {
                    // A NUL makes a file binary: no text keeps one.
                    #expect(!document.body.unicodeScalars.contains("\u{0}") && !(document.title ?? "").unicodeScalars.contains("\u{0}"), "\(name) \(bytes)")
                    // The same bytes give the same document.
                    #expect((try? registry.extract(input)) == document)
                }
            }
            _ = HTMLText(html: bytes)
            _ = TextDecoding.decode(bytes)
            _ = Glob(bytes: bytes).matches(bytes)
            _ = IgnoreRule(line: bytes)
        }
    }
}

@Suite("Manual pages")
struct ManPageTests {
    static let page = #"""
    .\" -*- coding: UTF-8 -*-
    '\" t
    .TH IPCS 1 "11 mai 2022" "util\-linux 2.38.1"
    .ie  \n(.g .ds Aq \(aq
    .el       .ds Aq '
    .de  URL
    \fI\\$2\fP <\\$1>\\$3
    ..
    .if  \n[.g] \{\
    .  am URL
    .    ad l
    .  .
    .\}
    .SH NAME
    ipcs \- show information on IPC facilities
    .SH SYNOPSIS
    .B ipcs
    [\fIoptions\fP]
    .SH DESCRIPTION
    .BR ipcs (1)
    shows information on System\ V inter\-process communication facilities \(em by default.
    .TP
    \fB\-a\fR, \fB\-\-all\fR
    Write information about all three resources.
    """#

    func extract(_ text: String, name: String) throws -> ExtractedDocument {
        try ExtractorRegistry.standard.extract(ExtractionInput(bytes: Array(text.utf8), name: name, path: "/x/" + name))
    }

    @Test func textAndTitleAsManShowsThem() throws {
        let document = try extract(Self.page, name: "ipcs.1")
        #expect(document.kind == "man")
        #expect(document.title == "ipcs — show information on IPC facilities")
        // Macro definitions (an `.am` block closed by `.  .` included) are
        // skipped, not the rest of the page.
        #expect(document.body.contains("ipcs(1)\nshows information on System V inter-process communication facilities — by default."))
        #expect(document.body.contains("-a, --all\nWrite information about all three resources."))
        #expect(!document.body.contains("\\f") && !document.body.contains(".TH") && !document.body.contains("$2"))
    }

    /// A page whose generator writes a long preamble before `.TH`, as
    /// Pod::Man does for every Perl page (about 75 lines of comments,
    /// strings, conditionals and macro definitions): it is read as roff,
    /// not as plain text, and its index entries (`.IX`) are not text.
    static func pagePrecededByPreamble() -> String {
        var lines = [#".\" Generated by a documentation tool"#, #".\""#]
        lines += (1...30).map { #".\" Preamble comment line \#($0): strings, registers and a nicer C++."# }
        lines += [
            #".de Sp \" Vertical space"#, ".if t .sp .5v", ".if n .sp", "..",
            #".de Vb \" Begin verbatim text"#, ".ft CW", ".nf", #".ne \\$1"#, "..",
            #".de Ve \" End verbatim text"#, ".ft R", ".fi", "..",
            #".tr \(*W-"#,
            #".ie n \{\"#, #".    ds -- \(*W-"#, ".    ds PI pi", #"'br\}"#,
            #".el\{\"#, #".    ds -- \|\(em\|"#, #"'br\}"#,
            ".de IX", "..",
            ".nr rF 0",
            #".if (\n(rF:(\n(.g==0)) \{\"#, #".    if \nF \{\"#, ".        de IX",
            #".        tm Index:\\$1\t\\n%\t"\\$2""#, "..", #".    \}"#, #".\}"#,
            ".rr rF",
        ]
        lines += (1...30).map { #".\" More preamble \#($0)."# }
        lines += [
            #".IX Title "PERLDEMO 1""#,
            #".TH PERLDEMO 1 "2024-01-01" "perl v5.36.0" "Perl Programmers Reference Guide""#,
            #".SH "NAME""#,
            #"perldemo \- what is new for perl v5.99.1"#,
            #".SH "DESCRIPTION""#,
            #".IX Header "DESCRIPTION""#,
            "This document describes differences between the 5.99.0 release and the 5.99.1 release.",
            ".Sp",
            ".Vb 1",
            #"\&    use v5.99;"#,
            ".Ve",
        ]
        return lines.joined(separator: "\n")
    }

    @Test func longPreamblesBeforeTheHeader() throws {
        let source = Self.pagePrecededByPreamble()
        #expect(source.split(separator: "\n").count > ManPageExtractor.headerSearchLines / 10)
        #expect(ManPageExtractor.looksLikeRoff(source))
        let document = try extract(source, name: "perldemo.1")
        #expect(document.title == "perldemo — what is new for perl v5.99.1")
        #expect(document.body.hasPrefix("NAME\nperldemo - what is new for perl v5.99.1\nDESCRIPTION\nThis document describes"))
        #expect(document.body.contains("use v5.99;"))
        for leak in ["Preamble", "nicer C++", "Index:", "Title", "Header", "PERLDEMO", "diablo", "\\"] {
            #expect(!document.body.contains(leak), "\(leak) leaked into the text")
        }
        // A header further down than the search reaches: plain text.
        let buried = String(repeating: ".\\\" comment\n", count: ManPageExtractor.headerSearchLines + 1) + ".TH LATE 1\nText."
        #expect(!ManPageExtractor.looksLikeRoff(buried))
        // Text before any header: plain text, as before.
        #expect(!ManPageExtractor.looksLikeRoff(".\\\" a comment\nJust prose.\n.TH X 1"))
    }

    /// A page saved with Windows line ends reads as the same page: "\r\n"
    /// is one Swift character, so lines must be cut at bytes.
    @Test func windowsLineEndsInManualPages() throws {
        let unix = Self.pagePrecededByPreamble() + "\n\n"
        let windows = unix.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(ManPageExtractor.looksLikeRoff(windows))
        let expected = try extract(unix, name: "perldemo.1")
        let document = try extract(windows, name: "perldemo.1")
        #expect(document.title == "perldemo — what is new for perl v5.99.1")
        #expect(document.body == expected.body)
        #expect(!document.body.contains("\r"))
    }

    @Test func sectionSuffixesAndPlainText() throws {
        #expect(ManPageExtractor.isManualName("open.3pm") && ManPageExtractor.isManualName("SSL_read.3ssl") && ManPageExtractor.isManualName("ls.1"))
        #expect(!ManPageExtractor.isManualName("notes.txt") && !ManPageExtractor.isManualName("v1.10"))
        #expect(try extract(Self.page, name: "ipcs.8posix").title == "ipcs — show information on IPC facilities")
        // A file named like a manual page that is not roff stays text.
        let plain = try extract("Release notes\n\nNothing to see.", name: "notes.1")
        #expect(plain.body == "Release notes\n\nNothing to see.")
        // The summary removed: the title is the page's name.
        let nameOnly = Self.page.replacingOccurrences(of: #"ipcs \- show information on IPC facilities"#, with: #"ipcs \-"#)
        #expect(try extract(nameOnly, name: "ipcs.1").title == "ipcs")
    }
}

/// The metadata's JSON is written by hand; it must be the text Foundation's
/// encoder gives, which is what indexes made before hold.
@Suite("Metadata JSON")
struct MetadataJSONTests {
    static func encoded(_ metadata: DocumentMetadata) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(metadata), as: UTF8.self)
    }

    @Test func sameAsJSONEncoder() throws {
        var generator = SystemRandomNumberGenerator()
        // Every control character, JSON's specials, slashes, non-ASCII,
        // U+2028, an emoji, a lone combining mark.
        let pieces = (0..<32).map { String(UnicodeScalar(UInt8($0))) }
            + ["\"", "\\", "/", "</script>", "a", "Zoë", "海燕", "\u{2028}", "\u{7F}", "🐦", "\u{301}", " ", "ann@example.org"]
        func text() -> String { (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() }
        func texts() -> [String] { (0..<Int.random(in: 0...3, using: &generator)).map { _ in text() } }
        func date() -> Date? {
            // From year 1 to 9999, whole and fractional seconds.
            Bool.random(using: &generator) ? nil : Date(timeIntervalSince1970: Double.random(in: -62_135_596_800...253_402_300_799, using: &generator))
        }
        for _ in 0..<2_000 {
            var metadata = DocumentMetadata()
            metadata.authors = texts()
            metadata.subject = Bool.random(using: &generator) ? text() : nil
            metadata.keywords = texts()
            metadata.created = date()
            metadata.modified = date()
            metadata.from = texts()
            metadata.to = texts()
            metadata.cc = texts()
            if metadata.isEmpty {
                #expect(metadata.json == nil)
            } else {
                let json = try #require(metadata.json)
                #expect(json == (try Self.encoded(metadata)))
                #expect(DocumentMetadata(json: json)?.authors == metadata.authors)
            }
        }
    }

    /// Dates at the limits a file or a mail header can give.
    @Test(arguments: [0, -62_135_596_800, 253_402_300_799, 10_413_792_000, 1_764_547_200.999])
    func datesAsJSONEncoder(seconds: Double) throws {
        var metadata = DocumentMetadata()
        metadata.modified = Date(timeIntervalSince1970: seconds)
        #expect(metadata.json == (try Self.encoded(metadata)))
    }
}
