import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// The office documents in Fixtures/Documents, made by pandoc and
/// LibreOffice from texts in /usr/share (scripts/make-document-fixtures).
enum OfficeFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Documents")

    static func input(_ name: String) throws -> ExtractionInput {
        let path = folder.appendingPathComponent(name).path
        return ExtractionInput(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), name: name, path: path)
    }

    static func extract(_ name: String) throws -> ExtractedDocument {
        try ExtractorRegistry.standard.extract(input(name))
    }

    /// Markup that must never reach the text.
    static let markup = ["<w:", "<a:", "<text:", "<table:", "<?xml", "\\par", "{\\rtf", "\\'", "&amp;", "&lt;", "<number>"]

    static func expectNoMarkup(_ document: ExtractedDocument, sourceLocation: SourceLocation = #_sourceLocation) {
        for fragment in markup {
            #expect(!document.body.contains(fragment), "\(fragment) in the text of a \(document.kind)", sourceLocation: sourceLocation)
        }
    }

    /// Whether `words` appear in `text` in this order.
    static func inOrder(_ text: String, _ words: [String]) -> Bool {
        var rest = text[...]
        for word in words {
            guard let range = rest.range(of: word) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}

@Suite("Office documents")
struct OfficeExtractionTests {
    @Test(arguments: ["license.docx", "license.odt", "license.fodt", "license.rtf", "license.doc"])
    func wordProcessing(_ name: String) throws {
        let document = try OfficeFixtures.extract(name)
        let body = document.body
        // Headings, body, a table's cells, the footnote (from the MPL 2.0).
        #expect(OfficeFixtures.inOrder(body, ["Definitions", "“Licensor” shall mean", "Grant of Copyright License", "Grant of Patent License", "Submission of Contributions", "Trademarks"]))
        #expect(body.contains("Covered Software"))
        if name != "license.doc" {
            // The comment (the Artistic License's intent), which antiword does not print.
            #expect(body.contains("semblance of artistic control"))
            #expect(document.title == "Apache License, Version 2.0")
            #expect(document.metadata.authors == ["The Apache Software Foundation"])
            #expect(document.metadata.keywords == ["license", "patents"])
            #expect(document.metadata.subject == "Terms and conditions for use, reproduction, and distribution")
            #expect(document.metadata.created != nil)
        }
        #expect(document.kind == String(name.split(separator: ".").last ?? "").replacingOccurrences(of: "fodt", with: "odt"))
        #expect(!document.isTruncated)
        OfficeFixtures.expectNoMarkup(document)
    }

    @Test func wordParagraphsAreLinesAndCellsFollowTheTable() throws {
        let lines = try OfficeFixtures.extract("license.docx").body.split(separator: "\n").map(String.init)
        #expect(lines.contains("Definitions"))
        #expect(lines.contains("Grant of Patent License"))
        let section = try #require(lines.firstIndex(of: "Section"))
        #expect(Array(lines[section...].prefix(4)) == ["Section", "Title", "3", "Grant of Patent License"])
        // Footnotes and comments come after the body.
        let footnote = try #require(lines.firstIndex { $0.contains("Covered Software") })
        #expect(footnote > section)
    }

    @Test(arguments: ["sheet.xlsx", "sheet.ods", "sheet.fods", "sheet.xls"])
    func spreadsheets(_ name: String) throws {
        let document = try OfficeFixtures.extract(name)
        let lines = document.body.split(separator: "\n").map(String.init)
        // Cells of a row joined by tabs, numbers as stored, no empty cells.
        #expect(lines.contains("Apache-2.0\tApache License\t11358"))
        #expect(lines.contains("MPL-2.0\tMozilla Public License Version 2.0\t16726"))
        #expect(lines.contains("9\tAccepting Warranty or Additional Liability"))
        #expect(!document.body.contains("\t\t"))
        // Sheet names, the second sheet after the first.
        #expect(OfficeFixtures.inOrder(document.body, ["Licenses", "Apache-2.0", "Apache sections", "Section\tTitle", "1\tDefinitions"]))
        #expect(document.title == "Common licenses")
        #expect(document.metadata.authors == ["Debian base-files"])
        #expect(document.metadata.keywords == ["licenses"])
        OfficeFixtures.expectNoMarkup(document)
    }

    @Test(arguments: ["slides.pptx", "slides.odp", "slides.fodp", "slides.ppt"])
    func presentations(_ name: String) throws {
        let document = try OfficeFixtures.extract(name)
        // Slides in order; the speaker notes (the GPL's preamble).
        #expect(OfficeFixtures.inOrder(document.body, ["Apache License slides", "Definitions", "Grant of Copyright License", "Grant of Patent License"]))
        #expect(document.body.contains("The licenses for most software and other practical works"))
        #expect(!document.body.contains("Click to edit"))
        if name != "slides.ppt" {
            // Each slide's notes follow it.
            #expect(OfficeFixtures.inOrder(document.body, ["Grant of Copyright License", "The licenses for most software", "Grant of Patent License"]))
            #expect(document.metadata.authors == ["The Apache Software Foundation"])
        }
        #expect(document.title == "Apache License slides")
        OfficeFixtures.expectNoMarkup(document)
    }

    @Test(arguments: ["license.epub", "license-epub2.epub"])
    func ebooks(_ name: String) throws {
        let document = try OfficeFixtures.extract(name)
        #expect(document.kind == "epub")
        #expect(document.title == "Apache License, Version 2.0")
        #expect(document.metadata.authors == ["The Apache Software Foundation"])
        #expect(document.metadata.created == PropertyParts.civilDate(year: 2004, month: 1, day: 1))
        // Chapters in spine order; the EPUB 3 navigation document is not one.
        #expect(OfficeFixtures.inOrder(document.body, ["Definitions", "“Licensor” shall mean", "Grant of Copyright License", "Trademarks"]))
        #expect(document.body.contains("Covered Software"))
        #expect(!document.body.contains("Table of Contents"))
        OfficeFixtures.expectNoMarkup(document)
    }

    /// FictionBook, as pandoc writes it: the body without its markup, the
    /// title and authors of `<title-info>`.
    @Test func fictionBook() throws {
        let document = try OfficeFixtures.extract("license.fb2")
        #expect(document.kind == "fb2")
        #expect(document.title == "Apache License, Version 2.0")
        #expect(document.metadata.authors == ["The ApacheSoftware Foundation"])
        #expect(OfficeFixtures.inOrder(document.body, ["Definitions", "“Licensor” shall mean", "Grant of Copyright License", "Trademarks"]))
        #expect(document.body.contains("\nDefinitions\n"))
        #expect(!document.body.contains("<p>") && !document.body.contains("pandoc"))
        OfficeFixtures.expectNoMarkup(document)
    }

    /// Images are base64 in `<binary>`; a book in windows-1251 (the XML
    /// declaration says so) is read in it; a file that is not FictionBook,
    /// or malformed before any text, is unreadable.
    @Test func fictionBookImagesEncodingsAndDamage() throws {
        let book = """
            <?xml version="1.0" encoding="windows-1251"?>
            <FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><description><title-info>\
            <author><first-name>Анна</first-name><last-name>Петрова</last-name></author><book-title>Буревестник</book-title>\
            <keywords>море, птицы</keywords><annotation><p>О море.</p></annotation></title-info></description>\
            <body><section><title><p>Глава первая</p></title><p>Буревестник <emphasis>гордо</emphasis> реет.</p>\
            <poem><stanza><v>Первая строка</v><v>Вторая строка</v></stanza></poem></section></body>\
            <binary id="c.png" content-type="image/png">iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ</binary></FictionBook>
            """
        let bytes = try #require(book.data(using: .windowsCP1251))
        let document = try FB2Extractor().extract(ExtractionInput(bytes: Array(bytes), name: "b.fb2", path: "/b.fb2"))
        #expect(document.title == "Буревестник")
        #expect(document.metadata.authors == ["Анна Петрова"])
        #expect(document.metadata.keywords == ["море", "птицы"])
        #expect(document.body == "О море.\nГлава первая\nБуревестник гордо реет.\nПервая строка\nВторая строка\n")
        #expect(throws: ExtractionError.self) {
            try FB2Extractor().extract(ExtractionInput(bytes: Array("<html><body>x</body></html>".utf8), name: "x.fb2", path: "/x.fb2"))
        }
        #expect(throws: ExtractionError.self) {
            try FB2Extractor().extract(ExtractionInput(bytes: Array("<FictionBook><body><p".utf8), name: "x.fb2", path: "/x.fb2"))
        }
        // Cut in the middle: the text before the cut stays, marked truncated.
        let cut = try FB2Extractor().extract(ExtractionInput(bytes: Array(bytes.prefix(bytes.count - 60)), name: "c.fb2", path: "/c.fb2"))
        #expect(cut.body.contains("Вторая строка"))
        #expect(cut.isTruncated)
    }

    /// The Japanese manual page of gzip (manpages-ja), in each format.
    @Test(arguments: ["gzip-ja.docx", "gzip-ja.odt", "gzip-ja.rtf", "gzip-ja.epub", "gzip-ja.fb2"])
    func japanese(_ name: String) throws {
        let document = try OfficeFixtures.extract(name)
        #expect(document.body.contains("gzip, gunzip, zcat - ファイルの圧縮、伸長を行う"))
        #expect(document.body.contains("Lempel-Ziv コーディング (LZ77) を利用して"))
        #expect(document.title == "gzip のマニュアル")
        #expect(document.metadata.authors == ["manpages-ja"])
        OfficeFixtures.expectNoMarkup(document)
    }

    /// Page headers (tar's name line) come after the body, once.
    @Test(arguments: ["gzip-ja-header.docx", "gzip-ja-header.odt"])
    func pageHeaders(_ name: String) throws {
        let document = try OfficeFixtures.extract(name)
        #expect(OfficeFixtures.inOrder(document.body, ["ファイルの圧縮、伸長を行う", "tar - アーカイブユーティリティ"]))
        #expect(document.body.components(separatedBy: "アーカイブユーティリティ").count == 2)
        OfficeFixtures.expectNoMarkup(document)
    }

    @Test func officeFormatsAreRegisteredNotBinary() {
        let registry = ExtractorRegistry.standard
        for ext in ["doc", "docx", "docm", "dotx", "xls", "xlsx", "xlsm", "ppt", "pptx", "ppsx", "odt", "ods", "odp", "odg", "ott", "fodt", "fods", "fodp", "epub", "rtf", "fb2"] {
            #expect(!registry.isKnownBinary(name: "file." + ext), "\(ext)")
            #expect(registry.readsWholeFile(name: "file." + ext), "\(ext)")
        }
    }

    /// The helpers the scripts install: a missing one fails here, it is not skipped.
    @Test func helpersAreInstalled() {
        for tool in ["antiword", "catdoc", "xls2csv", "catppt", "djvutxt"] {
            #expect(ToolRunner.locate(tool) != nil, "\(tool) is missing: apt-get install antiword catdoc djvulibre-bin")
        }
    }

    @Test func aMemberOfAnArchiveIsReadThroughATemporaryCopy() throws {
        // The bytes of a doc whose path is another file's (an archive's).
        var input = try OfficeFixtures.input("license.doc")
        input.path = OfficeFixtures.folder.appendingPathComponent("license.docx").path
        input.name = "inner.doc"
        let document = try LegacyOfficeExtractor(.doc).extract(input)
        #expect(document.body.contains("Grant of Patent License"))
    }
}

@Suite("Office documents, hostile")
struct OfficeHostileTests {
    @Test(arguments: ["encrypted.docx", "encrypted.odt", "encrypted.doc", "encrypted.xls"])
    func passwordProtectedDocumentsAreEncrypted(_ name: String) throws {
        #expect(throws: ExtractionError.encrypted) { try OfficeFixtures.extract(name) }
    }

    @Test func malformedXMLKeepsTheTextBeforeIt() throws {
        let document = try OfficeFixtures.extract("license-malformed.docx")
        #expect(document.body.contains("“Licensor” shall mean"))
        #expect(!document.body.contains("Grant of Patent License"))
        #expect(document.isTruncated)
        OfficeFixtures.expectNoMarkup(document)
    }

    @Test func malformedXMLWithNoTextIsUnreadable() throws {
        var input = try OfficeFixtures.input("license.fodt")
        input.bytes = Array(input.bytes.prefix(300))
        #expect {
            try OpenDocumentExtractor(kind: "odt").extract(input)
        } throws: { error in
            guard case ExtractionError.unreadable(let reason) = error else { return false }
            return reason.contains("malformed XML in license.fodt")
        }
        // Cut in the middle of the body: the text before the cut stays.
        var cut = try OfficeFixtures.input("license.fodt")
        let end = try #require(cut.bytes.firstRange(of: Array("Grant of Copyright".utf8))?.lowerBound)
        cut.bytes = Array(cut.bytes[..<end])
        let document = try OpenDocumentExtractor(kind: "odt").extract(cut)
        #expect(document.body.contains("“Licensor” shall mean"))
        #expect(document.isTruncated)
    }

    /// A main part left unread past the expansion limit (a bomb of XML) is
    /// named, with the limit, not reported missing.
    @Test func oversizedMainPartIsNamed() throws {
        let paragraphs = String(repeating: "<w:p><w:r><w:t>storm petrel</w:t></w:r></w:p>", count: 60_000)
        let tree = try Tree([
            "[Content_Types].xml": "<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>",
            "word/document.xml": "<?xml version=\"1.0\"?><w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>"
                + paragraphs + "</w:body></w:document>",
        ])
        let zip = try run("/usr/bin/zip", ["-q", "-9", "-r", "big.docx", "[Content_Types].xml", "word"], in: tree.root)
        try #require(zip.status == 0, "\(zip.stderr)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: tree.path("big.docx"))))
        // A part may expand to 200 times the package, or a mebibyte.
        let limit = max(1 << 20, bytes.count * 200)
        try #require(paragraphs.utf8.count > limit)
        #expect {
            try OOXMLExtractor(.wordprocessing).extract(ExtractionInput(bytes: bytes, name: "big.docx", path: tree.path("big.docx")))
        } throws: { error in
            guard case ExtractionError.unreadable(let reason) = error else { return false }
            return reason.hasPrefix("word/document.xml not read: ") && reason.contains("larger than the size limit (\(limit) bytes)")
        }
    }

    @Test func externalEntitiesAreNotLoaded() throws {
        let document = try OfficeFixtures.extract("license-xxe.docx")
        #expect(document.body.contains("Outside entity:"))
        #expect(!document.body.contains("root:"))
    }

    @Test func entityExpansionStaysSmall() throws {
        let start = Date()
        let document = try OfficeFixtures.extract("license-laughs.docx")
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(!document.body.contains("lollol"))
        #expect(document.body.utf8.count < 100_000)
    }

    @Test func hugeSheetsStopAtTheTextBudget() throws {
        for (extractor, name) in [(OOXMLExtractor(.spreadsheet, textBudget: 120) as any DocumentExtractor, "sheet.xlsx"),
                                  (OpenDocumentExtractor(kind: "ods", textBudget: 120), "sheet.ods"),
                                  (OOXMLExtractor(.wordprocessing, textBudget: 120), "license.docx"),
                                  (RTFExtractor(textBudget: 120), "license.rtf"),
                                  (EPUBExtractor(textBudget: 120), "license.epub")] {
            let document = try extractor.extract(OfficeFixtures.input(name))
            #expect(document.isTruncated, "\(name)")
            #expect(document.body.utf8.count <= 120, "\(name)")
            #expect(!document.body.isEmpty, "\(name)")
        }
    }

    @Test func macroEnabledNamesAreReadAsXMLOnly() throws {
        // A .docm is read like a .docx: its XML, never its macros.
        var input = try OfficeFixtures.input("license.docx")
        input.name = "license.docm"
        let document = try ExtractorRegistry.standard.extract(input)
        #expect(document.kind == "docx")
        #expect(document.body.contains("Grant of Patent License"))
    }

    /// A folder holding one executable script named `name`.
    func fakeTool(_ name: String, _ script: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent(name).path
        try writeScript(script, to: path)
        return directory
    }

    @Test func aHelperThatHangsIsKilledAtItsLimit() throws {
        // It starts a child that holds the output open: the whole group goes.
        let directory = try fakeTool("antiword", "sleep 60 &\nsleep 60")
        let extractor = LegacyOfficeExtractor(.doc, timeLimit: 0.5, searchPath: directory.url.path)
        let start = Date()
        #expect {
            try extractor.extract(OfficeFixtures.input("license.doc"))
        } throws: { error in
            guard case ExtractionError.unreadable(let reason) = error else { return false }
            return reason == "antiword did not finish within 0.5 s and was stopped"
        }
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func aHelperOutputIsBounded() throws {
        let directory = try fakeTool("catppt", "exec yes 'slide text'")
        let extractor = LegacyOfficeExtractor(.ppt, timeLimit: 10, searchPath: directory.url.path, textBudget: 4096)
        let document = try extractor.extract(OfficeFixtures.input("slides.ppt"))
        #expect(document.isTruncated)
        #expect(document.body.utf8.count <= 4096)
        #expect(document.body.hasPrefix("slide text\nslide text"))
    }

    @Test func aMissingHelperIsNamed() throws {
        let empty = try TemporaryDirectory()
        #expect(throws: ExtractionError.missingTool("antiword", install: "apt-get install antiword catdoc")) {
            try LegacyOfficeExtractor(.doc, searchPath: empty.url.path).extract(OfficeFixtures.input("license.doc"))
        }
        #expect(throws: ExtractionError.missingTool("pdftotext", install: "apt-get install poppler-utils")) {
            try PDFExtractor(searchPath: empty.url.path).extract(ExtractionInput(bytes: Array("%PDF-1.4".utf8), name: "a.pdf", path: "/nowhere/a.pdf"))
        }
    }

    @Test func catdocIsTheFallbackForDoc() throws {
        // antiword fails (exit 1): catdoc, from the real PATH's folder, reads it.
        let directory = try fakeTool("antiword", "exit 1")
        let catdoc = try #require(ToolRunner.locate("catdoc"))
        try FileManager.default.createSymbolicLink(atPath: directory.url.appendingPathComponent("catdoc").path, withDestinationPath: catdoc)
        let document = try LegacyOfficeExtractor(.doc, searchPath: directory.url.path).extract(OfficeFixtures.input("license.doc"))
        #expect(document.body.contains("Grant of Patent License"))
    }

    @Test func notAnOfficeFile() {
        let input = ExtractionInput(bytes: Array("plain words".utf8), name: "a.docx", path: "/x/a.docx")
        #expect(throws: ExtractionError.unreadable("not a zip package (no PK signature)")) { try OOXMLExtractor(.wordprocessing).extract(input) }
        #expect(throws: ExtractionError.unreadable("not an RTF file (no {\\rtf header)")) { try RTFExtractor().extract(input) }
        let binary = ExtractionInput(bytes: [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + [UInt8](repeating: 0, count: 64) + [0xFF, 0xFE, 0x00, 0x01],
                                     name: "a.doc", path: "/x/a.doc")
        #expect(throws: ExtractionError.unreadable("not a doc file (no OLE compound file signature)")) { try LegacyOfficeExtractor(.doc).extract(binary) }
    }

    /// The legacy Office extensions also name text formats: a Graphviz
    /// `.dot`, a gettext `.pot`, an `.xls` that is an HTML table or
    /// tab-separated text are read as what they are.
    @Test func textWithALegacyOfficeExtensionIsReadAsText() throws {
        let graph = ExtractionInput(bytes: Array("digraph lighthouse {\n  keeper -> lamp [label=\"lights\"];\n}\n".utf8), name: "flow.dot", path: "/x/flow.dot")
        let dot = try LegacyOfficeExtractor(.doc).extract(graph)
        #expect(dot.body.contains("keeper -> lamp") && dot.kind == "dot")
        let template = ExtractionInput(bytes: Array("msgid \"Storm warning\"\nmsgstr \"\"\n".utf8), name: "messages.pot", path: "/x/messages.pot")
        let pot = try LegacyOfficeExtractor(.ppt).extract(template)
        #expect(pot.body.contains("Storm warning") && pot.kind == "pot")
        let table = ExtractionInput(bytes: Array("\u{FEFF}<html><head><title>Tides</title></head><body><table><tr><td>high water</td><td>06:12</td></tr></table></body></html>".utf8),
                                    name: "tides.xls", path: "/x/tides.xls")
        let html = try LegacyOfficeExtractor(.xls).extract(table)
        #expect(html.title == "Tides" && html.body.contains("high water") && !html.body.contains("<td>"), "\(html.body)")
        let tabs = ExtractionInput(bytes: Array("port\tdepth\nNewhaven\t4.5\n".utf8), name: "ports.xls", path: "/x/ports.xls")
        #expect(try LegacyOfficeExtractor(.xls).extract(tabs).body.contains("Newhaven\t4.5"))
        #expect(try !LegacyOfficeExtractor(.xls).extract(tabs).isTruncated)
        // Read whole like an Office file, but kept to the text budget, cut
        // at a line's end.
        let lines = (0..<20_000).map { "  node\($0) -> node\($0 + 1);" }.joined(separator: "\n")
        let large = ExtractionInput(bytes: Array(("digraph big {\n" + lines + "\n}\n").utf8), name: "big.dot", path: "/x/big.dot")
        let cut = try LegacyOfficeExtractor(.doc, textBudget: 100_000).extract(large)
        #expect(cut.isTruncated && cut.body.utf8.count <= 100_000 && cut.body.utf8.count > 90_000)
        #expect(cut.body.hasSuffix(";") || cut.body.hasSuffix(";\n"), "\(cut.body.suffix(40))")
    }
}

@Suite("RTF reader")
struct RTFReaderTests {
    func text(_ rtf: String) throws -> ExtractedDocument {
        try RTFExtractor().extract(ExtractionInput(bytes: Array(rtf.utf8), name: "a.rtf", path: "/x/a.rtf"))
    }

    @Test func codePagesUnicodeAndSkippedDestinations() throws {
        let document = try text(#"""
            {\rtf1\ansi\ansicpg1251\deff0{\fonttbl{\f0\fswiss Arial;}{\f1\fcharset128 MS Gothic;}}{\colortbl;\red0\green0\blue0;}
            {\stylesheet{\s1 heading 1;}}{\info{\title Notes}{\author Ann}{\keywords a, b}{\creatim\yr2021\mo5\dy6\hr7\min8}}
            {\*\generator Writer;}\pard\plain \'cf\'f0\'e8\'e2\'e5\'f2 \uc1\u8364? euro\par
            {\f1 \'93\'fa\'96\'7b}\par
            \uc2\u26085\'93\'fa one{\pict\pngblip 89504e47}{\*\bkmkstart x}\tab two\line three\bin4 {}\\ end}
            """#)
        #expect(document.body == "Привет € euro\n日本\n日 one\ttwo\nthree end")
        #expect(document.title == "Notes")
        #expect(document.metadata.authors == ["Ann"])
        #expect(document.metadata.keywords == ["a", "b"])
        #expect(document.metadata.created == PropertyParts.civilDate(year: 2021, month: 5, day: 6, hour: 7, minute: 8))
        #expect(document.encoding == "windows-1251")
    }

    @Test func surrogatePairsAndEscapes() throws {
        let document = try text(#"{\rtf1 \u-10179?\u-8694? \{braces\} \\ \ldblquote q\rdblquote \emdash\~x}"#)
        #expect(document.body == "😊 {braces} \\ “q”— x")
    }
}

@Suite("Helper programs")
struct ToolRunnerTests {
    @Test func runsWithoutAShell() throws {
        // Arguments reach the program as they are: no globbing, no expansion.
        let output = try ToolRunner.run("/bin/echo", arguments: ["$HOME", "*", "a b"], timeLimit: 5, outputLimit: 1000)
        #expect(String(decoding: output.bytes, as: UTF8.self) == "$HOME * a b\n")
        #expect(output.status == 0)
        let failing = try ToolRunner.run("/bin/sh", arguments: ["-c", "echo oops >&2; echo out; exit 3"], timeLimit: 5, outputLimit: 1000)
        #expect(failing.status == 3)
        // Error messages are kept apart from the text.
        #expect(failing.bytes == Array("out\n".utf8))
        #expect(failing.errors == Array("oops\n".utf8))
        // Standard input is closed: a program reading it ends at once.
        let reading = try ToolRunner.run("/bin/cat", arguments: [], timeLimit: 5, outputLimit: 1000)
        #expect(reading.status == 0 && reading.bytes.isEmpty && !reading.timedOut)
    }
}

@Suite("Office documents in an index")
struct OfficeIndexTests {
    @Test func officeFilesAreSearchableAndEncryptedOnesSkipped() throws {
        let tree = try Tree()
        for name in ["license.docx", "license.doc", "sheet.ods", "slides.pptx", "gzip-ja.odt", "license.epub", "encrypted.docx"] {
            try tree.write(name, bytes: OfficeFixtures.input(name).bytes)
        }
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"))
        let report = try index.update(roots: [tree.root])
        #expect(report.added == 6)
        #expect(report.skipped.map(\.reason) == [.encrypted])
        #expect(try index.search("trademarks", root: tree.root) == ["license.doc", "license.docx", "license.epub", "sheet.ods"])
        #expect(try index.search("mozilla", root: tree.root) == ["sheet.ods"])
        #expect(try index.search("practical", root: tree.root) == ["slides.pptx"])
        #expect(try index.search("伸長", root: tree.root) == ["gzip-ja.odt"])
        let titles = try index.contents(relativeTo: tree.root).map { [$0[0], $0[1], $0[3]] }
        #expect(titles.contains(["sheet.ods", "Common licenses", "ods"]))
        #expect(titles.contains(["license.docx", "Apache License, Version 2.0", "docx"]))
        try index.expectSound()
    }
}
