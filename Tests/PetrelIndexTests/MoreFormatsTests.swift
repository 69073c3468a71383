import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// The formats Recoll reads beside the office ones: OpenOffice.org 1.x,
/// AbiWord, Gnumeric, GNU Info, PostScript and MHTML, each file written by
/// its own program (scripts/make-document-fixtures).
@Suite("More document formats")
struct MoreFormatsTests {
    @Test(arguments: ["license.abw", "license-abw.zabw", "license.sxw"])
    func wordProcessing(_ name: String) throws {
        let document = try OfficeFixtures.extract(name)
        // Headings, body, the table's cells, the footnote (from the MPL 2.0).
        #expect(OfficeFixtures.inOrder(document.body, ["Definitions", "“Licensor” shall mean", "Grant of Copyright License",
                                                        "Grant of Patent License", "Submission of Contributions", "Trademarks"]))
        #expect(document.body.contains("Covered Software"))
        #expect(document.title == "Apache License, Version 2.0")
        #expect(document.kind == (name.hasSuffix(".sxw") ? "sxw" : "abw"))
        #expect(!document.isTruncated)
        OfficeFixtures.expectNoMarkup(document)
        for fragment in ["<p", "<c ", "xid=", "props=", "Heading 1", "AbiWord", "awml"] {
            #expect(!document.body.contains(fragment), "\(fragment) in \(name)")
        }
    }

    @Test func abiWordParagraphsAndCellsAreLines() throws {
        let lines = try OfficeFixtures.extract("license.abw").body.split(separator: "\n").map(String.init)
        #expect(lines.first == "Apache License, Version 2.0")
        let section = try #require(lines.firstIndex(of: "Section"))
        #expect(Array(lines[section...].prefix(4)) == ["Section", "Title", "3", "Grant of Patent License"])
    }

    @Test func openOfficeTemplatesAndOtherKinds() throws {
        // A template is the same package under another name.
        var input = try OfficeFixtures.input("license.sxw")
        input.name = "license.stw"
        let template = try ExtractorRegistry.standard.extract(input)
        #expect(template.kind == "sxw")
        #expect(template.body.contains("Grant of Patent License"))
        // A file of another format under an OpenOffice.org name (".std") is
        // read as text when it is text, and is unreadable when it is not.
        let text = ExtractionInput(bytes: Array("std::vector notes\n".utf8), name: "notes.std", path: "/x/notes.std")
        #expect(try ExtractorRegistry.standard.extract(text).body == "std::vector notes\n")
        let binary = ExtractionInput(bytes: [0, 1, 2, 3, 0, 0, 0, 0xFF] + [UInt8](repeating: 0, count: 64), name: "a.sxc", path: "/x/a.sxc")
        #expect(throws: ExtractionError.unreadable("not an OpenOffice.org file (no zip package)")) { try ExtractorRegistry.standard.extract(binary) }
    }

    @Test func gnumericSheets() throws {
        let document = try OfficeFixtures.extract("sheet.gnumeric")
        let lines = document.body.split(separator: "\n").map(String.init)
        // Sheet names, then rows with cells joined by tabs.
        #expect(lines.first == "Licenses")
        #expect(lines.contains("Apache-2.0\tApache License\t11358"))
        #expect(lines.contains("MPL-2.0\tMozilla Public License Version 2.0\t16726"))
        #expect(lines.contains("Apache sections"))
        #expect(lines.contains("3\tGrant of Patent License"))
        #expect(document.title == "Common licenses")
        #expect(document.metadata.authors == ["Debian base-files"])
        #expect(document.metadata.keywords == ["licenses"])
        #expect(document.kind == "gnumeric")
        OfficeFixtures.expectNoMarkup(document)
        for fragment in ["gnm:", "WorkbookView", "Print_Area", "ValueType", "LibreOffice"] {
            #expect(!document.body.contains(fragment), "\(fragment)")
        }
    }

    @Test(arguments: ["license.info", "license.info.gz"])
    func gnuInfo(_ name: String) throws {
        let document = try OfficeFixtures.extract(name)
        #expect(OfficeFixtures.inOrder(document.body, ["Definitions", "“Licensor” shall mean", "Grant of Copyright License", "Grant of Patent License"]))
        #expect(document.body.contains("Covered Software"))
        #expect(document.title == "Apache License, Version 2.0")
        #expect(document.kind == "info")
        for fragment in ["\u{1F}", "\u{7F}", "Tag Table", "File: license.info", "Local Variables", "produced by makeinfo"] {
            #expect(!document.body.contains(fragment), "\(fragment.debugDescription) in \(name)")
        }
    }

    /// makeinfo marks an index node with NUL and backspace bytes: a small
    /// manual with an index is still a manual, compressed or not, and so is
    /// a part of a long one (find.info-2.gz).
    @Test func indexMarksAndPartsOfLongManuals() throws {
        var bytes = try OfficeFixtures.input("license.info").bytes
        let top = try #require(bytes.firstRange(of: Array("* Menu:".utf8))?.lowerBound)
        bytes.insert(contentsOf: [0, 0x08] + Array("[index".utf8) + [0, 0x08] + Array("]\n".utf8), at: top)
        let tree = try Tree()
        try tree.write("license.info-2", bytes: bytes)
        let gzip = try run("/bin/gzip", ["-9", "-n", "-k", "license.info-2"], in: tree.root)
        try #require(gzip.status == 0, "\(gzip.stderr)")
        for name in ["license.info-2", "license.info-2.gz"] {
            let input = ExtractionInput(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: tree.path(name)))), name: name, path: tree.path(name))
            #expect(ExtractorRegistry.standard.readsWholeFile(name: name), "\(name)")
            let document = try ExtractorRegistry.standard.extract(input)
            #expect(document.kind == "info", "\(name)")
            #expect(document.title == "Apache License, Version 2.0", "\(name)")
            #expect(document.body.contains("Grant of Patent License"), "\(name)")
            #expect(!document.body.contains("\u{0}") && !document.body.contains("[index"), "\(name)")
        }
        #expect(InfoExtractor.isPartName("find.info-12"))
        #expect(!InfoExtractor.isPartName("find.info-x") && !InfoExtractor.isPartName("find.info-") && !InfoExtractor.isPartName("find.info"))
    }

    @Test func infoWithoutNodesIsText() throws {
        let input = ExtractionInput(bytes: Array("Build info: release 3\n".utf8), name: "build.info", path: "/x/build.info")
        let document = try InfoExtractor().extract(input)
        #expect(document.body == "Build info: release 3\n")
        let binary = ExtractionInput(bytes: [0x1F, 0, 0, 0, 1, 2, 3, 0, 0, 0xFF, 0xFE] + [UInt8](repeating: 0, count: 64), name: "a.info", path: "/x/a.info")
        #expect(throws: ExtractionError.binary) { try InfoExtractor().extract(binary) }
    }

    @Test(arguments: ["license.ps", "license.eps"])
    func postScript(_ name: String) throws {
        let document = try OfficeFixtures.extract(name)
        #expect(OfficeFixtures.inOrder(document.body, ["TERMS AND CONDITIONS", "Definitions", "shall mean the terms and conditions",
                                                        "\"Licensor\" shall mean", "\"Source\" form"]))
        #expect(document.kind == "ps")
        for fragment in ["%%", "showpage", "findfont", "moveto", "def\n"] {
            #expect(!document.body.contains(fragment), "\(fragment) in \(name)")
        }
    }

    @Test func postScriptTitleComesFromItsComments() {
        #expect(PostScriptExtractor.title(Array("%!PS-Adobe-3.0\n%%Title: (Annual report)\n%%EndComments\n".utf8)) == "Annual report")
        #expect(PostScriptExtractor.title(Array("%!PS-Adobe-3.0\n%%EndComments\n%%Title: late\n".utf8)) == nil)
        #expect(PostScriptExtractor.isPostScript([0xC5, 0xD0, 0xD3, 0xC6, 0, 0]))
        #expect(PostScriptExtractor.isPostScript(Array("\u{4}%!PS".utf8)))
        #expect(!PostScriptExtractor.isPostScript(Array("%PDF-1.4".utf8)))
    }

    @Test func savedWebPage() throws {
        let document = try OfficeFixtures.extract("license.mhtml")
        #expect(OfficeFixtures.inOrder(document.body, ["Definitions", "“Licensor” shall mean", "Grant of Copyright License", "Grant of Patent License"]))
        #expect(document.body.contains("Covered Software"))
        #expect(document.title == "Apache License, Version 2.0")
        #expect(document.kind == "mhtml")
        for fragment in ["<", "Content-Type", "Content-Location", "font-family", "=3D", "cid:", "Snapshot-Content-Location"] {
            #expect(!document.body.contains(fragment), "\(fragment)")
        }
    }

    @Test func newFormatsAreRegisteredNotBinary() {
        let registry = ExtractorRegistry.standard
        for ext in ["sxw", "stw", "sxc", "stc", "sxi", "sti", "sxd", "std", "sxg", "abw", "zabw", "awt", "gnumeric", "gnm", "ps", "eps", "mht", "mhtml", "kepub"] {
            #expect(!registry.isKnownBinary(name: "file." + ext), "\(ext)")
            #expect(registry.readsWholeFile(name: "file." + ext), "\(ext)")
        }
        #expect(!registry.isKnownBinary(name: "file.info"))
    }

    /// The helper the scripts install: a missing one fails here, it is not skipped.
    @Test func ghostscriptIsInstalled() {
        #expect(ToolRunner.locate("gs") != nil, "gs is missing: apt-get install ghostscript")
    }
}

@Suite("More document formats, hostile")
struct MoreFormatsHostileTests {
    @Test func truncatedAbiWordKeepsTheTextBeforeTheCut() throws {
        var input = try OfficeFixtures.input("license.abw")
        let cut = try #require(input.bytes.firstRange(of: Array("Grant of Copyright".utf8))?.lowerBound)
        input.bytes = Array(input.bytes[..<cut])
        let document = try AbiWordExtractor().extract(input)
        #expect(document.body.contains("“Licensor” shall mean"))
        #expect(!document.body.contains("Grant of Patent License"))
        #expect(document.isTruncated)
        // Cut before any text: unreadable, with libxml2's reason.
        input.bytes = Array(input.bytes.prefix(300))
        #expect {
            try AbiWordExtractor().extract(input)
        } throws: { error in
            guard case ExtractionError.unreadable(let reason) = error else { return false }
            return reason.hasPrefix("malformed XML")
        }
        let other = ExtractionInput(bytes: Array("<?xml version=\"1.0\"?><html><p>x</p></html>".utf8), name: "a.abw", path: "/x/a.abw")
        #expect(throws: ExtractionError.unreadable("not an AbiWord file: its root is <html>")) { try AbiWordExtractor().extract(other) }
    }

    @Test func truncatedGzipIsDamaged() throws {
        var input = try OfficeFixtures.input("sheet.gnumeric")
        input.bytes = Array(input.bytes.prefix(input.bytes.count / 2))
        #expect {
            try ExtractorRegistry.standard.extract(input)
        } throws: { error in
            guard case ExtractionError.unreadable = error else { return false }
            return true
        }
        #expect {
            try GnumericExtractor().extract(input)
        } throws: { error in
            guard case ExtractionError.unreadable(let reason) = error else { return false }
            return reason.hasPrefix("damaged gzip data")
        }
    }

    /// A small gzipped workbook that expands past the limit (a
    /// decompression bomb) is refused as too large, not expanded.
    @Test func gzipBombStopsAtTheSizeLimit() throws {
        let tree = try Tree()
        let cells = String(repeating: "<gnm:Cell Row=\"0\" Col=\"0\" ValueType=\"60\">storm petrel</gnm:Cell>", count: 40_000)
        try tree.write("bomb.gnumeric", "<?xml version=\"1.0\"?><gnm:Workbook xmlns:gnm=\"http://www.gnumeric.org/v10.dtd\"><gnm:Sheets><gnm:Sheet><gnm:Cells>"
                       + cells + "</gnm:Cells></gnm:Sheet></gnm:Sheets></gnm:Workbook>")
        let gzip = try run("/bin/gzip", ["-9", "-n", "bomb.gnumeric"], in: tree.root)
        try #require(gzip.status == 0, "\(gzip.stderr)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: tree.path("bomb.gnumeric.gz"))))
        try #require(bytes.count < 64 << 10)
        var registry = ExtractorRegistry.standard
        registry.maximumDecompressedSize = 1 << 20
        let input = ExtractionInput(bytes: bytes, name: "bomb.gnumeric", path: tree.path("bomb.gnumeric.gz"))
        #expect {
            try registry.extract(input)
        } throws: { error in
            guard case ExtractionError.tooLarge = error else { return false }
            return true
        }
        // Within the limit, the same file is read, to its text budget.
        let document = try GnumericExtractor(textBudget: 1000).extract(input)
        #expect(document.isTruncated)
        #expect(document.body.hasPrefix("storm petrel"))
    }

    @Test func postScriptThatLoopsIsKilledAtItsLimit() throws {
        let input = ExtractionInput(bytes: Array("%!PS-Adobe-3.0\n{ 1 pop } loop\n".utf8), name: "loop.ps", path: "")
        let start = Date()
        #expect(throws: ExtractionError.unreadable("gs did not finish within 1 s and was stopped")) {
            try PostScriptExtractor(timeLimit: 1).extract(input)
        }
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func postScriptMayNotReadOtherFiles() throws {
        // -dSAFER: a program that opens /etc/passwd fails, and shows nothing of it.
        let program = "%!PS\n/Times-Roman findfont 12 scalefont setfont 72 700 moveto\n(/etc/passwd) (r) file 200 string readstring pop show showpage\n"
        let input = ExtractionInput(bytes: Array(program.utf8), name: "read.ps", path: "")
        #expect {
            try PostScriptExtractor().extract(input)
        } throws: { error in
            guard case ExtractionError.unreadable(let reason) = error else { return false }
            return reason.hasPrefix("gs could not read the PostScript (exit 1): Error: /invalidfileaccess") && !reason.contains("root:")
        }
    }

    @Test func damagedPostScriptIsUnreadable() throws {
        var input = try OfficeFixtures.input("license.ps")
        input.bytes = Array(input.bytes.prefix(input.bytes.count / 3)) + Array("\n(unterminated".utf8)
        input.name = "cut.ps"
        #expect {
            try PostScriptExtractor().extract(input)
        } throws: { error in
            guard case ExtractionError.unreadable(let reason) = error else { return false }
            return reason.hasPrefix("gs could not read the PostScript")
        }
        let text = ExtractionInput(bytes: Array("plain words".utf8), name: "a.ps", path: "/x/a.ps")
        #expect(throws: ExtractionError.unreadable("not a PostScript file (no %! header)")) { try PostScriptExtractor().extract(text) }
    }

    @Test func missingGhostscriptIsNamed() throws {
        let empty = try TemporaryDirectory()
        #expect(throws: ExtractionError.missingTool("gs", install: "apt-get install ghostscript poppler-utils")) {
            try PostScriptExtractor(searchPath: empty.url.path).extract(OfficeFixtures.input("license.ps"))
        }
    }

    @Test func truncatedOpenOfficeFileIsDamaged() throws {
        var input = try OfficeFixtures.input("license.sxw")
        input.bytes = Array(input.bytes.prefix(input.bytes.count / 2))
        #expect {
            try ExtractorRegistry.standard.extract(input)
        } throws: { error in
            guard case ExtractionError.unreadable(let reason) = error else { return false }
            return reason.hasPrefix("damaged zip package") || reason.hasPrefix("not an OpenDocument file")
        }
    }

    @Test func notAWebPage() throws {
        let text = ExtractionInput(bytes: Array("just words, no headers".utf8), name: "a.mhtml", path: "/x/a.mhtml")
        #expect {
            try MHTMLExtractor().extract(text)
        } throws: { error in
            guard case ExtractionError.unreadable = error else { return false }
            return true
        }
        // A saved page cut short keeps the text before the cut.
        var input = try OfficeFixtures.input("license.mhtml")
        let cut = try #require(input.bytes.firstRange(of: Array("Grant of Copyright".utf8))?.lowerBound)
        input.bytes = Array(input.bytes[..<cut])
        let document = try MHTMLExtractor().extract(input)
        #expect(document.body.contains("Definitions"))
        #expect(!document.body.contains("Grant of Patent License"))
    }

    /// A PostScript file that hangs Ghostscript, a damaged workbook and a
    /// binary manual stop nothing else: the other files of the folder are
    /// indexed, each bad one listed with its reason.
    @Test func badFilesStopNothingElse() throws {
        let tree = try Tree()
        for name in ["license.abw", "sheet.gnumeric", "license.info.gz", "license.ps", "license.sxw", "license.mhtml"] {
            try tree.write(name, bytes: OfficeFixtures.input(name).bytes)
        }
        try tree.write("loop.ps", "%!PS-Adobe-3.0\n{ 1 pop } loop\n")
        try tree.write("cut.gnumeric", bytes: Array(try OfficeFixtures.input("sheet.gnumeric").bytes.prefix(500)))
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"))
        var options = UpdateOptions()
        options.extractors.register(PostScriptExtractor(timeLimit: 2), forExtensions: ["ps"])
        let report = try index.update(roots: [tree.root], options: options)
        #expect(report.added == 6)
        #expect(report.failed.map(\.path).sorted() == [tree.path("cut.gnumeric"), tree.path("loop.ps")])
        #expect(try index.search("trademarks", root: tree.root) == ["license.abw", "license.info.gz", "license.mhtml", "license.sxw", "sheet.gnumeric"])
        #expect(try index.search("mozilla", root: tree.root) == ["sheet.gnumeric"])
        #expect(try index.search("licensor", root: tree.root) == ["license.abw", "license.info.gz", "license.mhtml", "license.ps", "license.sxw"])
        try index.expectSound()
    }
}
