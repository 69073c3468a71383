import Foundation
import Testing
import PetrelTestSupport
@testable import PetrelIndex

/// The mail and archive files of these tests, made once per test run by
/// `Fixtures/make-mail-and-archives.py` (Python's email package, zipfile,
/// tarfile, and Debian's zip, 7z and zstd) in a temporary folder.
enum MailFixtures {
    static let folder: Result<String, FixtureError> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petrel-mail-\(UUID().uuidString)").path
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/make-mail-and-archives.py").path
        do {
            let result = try run("/usr/bin/python3", [script, folder])
            guard result.status == 0 else { return .failure(FixtureError(message: result.stderr)) }
        } catch {
            return .failure(FixtureError(message: "\(error)"))
        }
        return .success(folder)
    }()

    struct FixtureError: Error { var message: String }

    /// Everything in the fixture file at `relative`, read by the standard registry.
    static func extract(_ relative: String, registry: ExtractorRegistry = .standard) throws -> ExtractedFile {
        let path = try folder.get() + "/" + relative
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return try registry.extractAll(ExtractionInput(bytes: bytes, name: (relative as NSString).lastPathComponent, path: path))
    }

    /// The documents of `box.mbox`: its third message has a Markdown and
    /// a PDF attachment (the PDF read when pdftotext is installed).
    static let mailboxPaths = ["1", "2", "3", "3!/report.md"] + (PDFExtractor.pdftotext == nil ? [] : ["3!/report.pdf"])
    static let mailboxSkipped = PDFExtractor.pdftotext == nil ? ["3!/report.pdf: pdftotext is not installed (apt-get install poppler-utils)"] : []

    static func has(_ tool: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool)
    }
}

extension ExtractedFile {
    /// The inner paths of the documents ("" for the file's own).
    var innerPaths: [String] { documents.map { $0.innerPath ?? "" } }

    /// The document at an inner path ("" for the file's own).
    func document(_ innerPath: String) -> ExtractedDocument? {
        documents.first { ($0.innerPath ?? "") == innerPath }
    }

    /// The skipped parts as "inner path: reason".
    var skipped: [String] { skippedParts.map { "\($0.innerPath): \($0.reason)" } }
}

@Suite("Mail")
struct MailTests {
    @Test func messageWithAttachments() throws {
        let file = try MailFixtures.extract("mail/plain.eml")
        #expect(file.innerPaths == ["", "notes.md", "report.txt", "report.txt (2)", "legacy.txt", "Puffins.eml"])
        #expect(file.skipped == ["photo.png: binary file"])
        let message = try #require(file.document(""))
        #expect(message.title == "Grüße aus Köln: the quarterly plan")
        #expect(message.kind == "eml")
        #expect(message.body == "Dear team,\nthe quarterly plan is attached. Café au lait for everyone.")
        #expect(message.metadata.from == ["Ann Smith <ann@example.org>"])
        #expect(message.metadata.authors == ["Ann Smith"])
        #expect(message.metadata.to == ["Bob Jones <bob@example.org>", "carol@example.org"])
        #expect(message.metadata.cc == ["Dörte Grün <doerte@example.de>"])
        #expect(message.metadata.subject == "Grüße aus Köln: the quarterly plan")
        #expect(message.metadata.modified == Date(timeIntervalSince1970: 1_699_950_600))
        #expect(file.document("notes.md")?.title == "Planning notes")
        #expect(file.document("notes.md")?.kind == "md")
        #expect(file.document("report.txt")?.body == "First report: albatross counts.\n")
        #expect(file.document("report.txt (2)")?.body == "Second report: shearwater counts.\n")
        #expect(file.document("legacy.txt")?.body == "Uuencoded legacy attachment about gannets.\n")
        let forwarded = try #require(file.document("Puffins.eml"))
        #expect(forwarded.title == "Puffin sightings")
        #expect(forwarded.body == "The forwarded message talks about puffins.")
        #expect(forwarded.metadata.from == ["Dan <dan@example.org>"])
    }

    @Test(arguments: [
        ("iso-2022-jp", "会議の予定について", "来週の会議は東京で行います。資料を確認してください。"),
        ("shift_jis", "東京タワーの写真", "写真を添付しました。よろしくお願いします。"),
        ("euc-jp", "大阪の天気", "明日の大阪は晴れるでしょう。"),
        ("gb2312", "简体中文邮件", "这是一封用简体中文写的电子邮件。"),
        ("gbk", "中文測試郵件", "這封郵件使用GBK編碼，包含繁體字。"),
        ("big5", "繁體中文郵件", "這是一封用繁體中文寫的電子郵件。"),
        ("koi8-r", "Привет из Москвы", "Встреча назначена на понедельник."),
        ("windows-1252", "Café “menu” – €5", "Crème brûlée, naïve façade, “quoted” — done."),
        ("euc-kr", "안녕하세요", "서울에서 보내는 편지입니다."),
        ("iso-8859-2", "Zażółć gęślą jaźń", "Łódź i Kraków są w Polsce."),
    ])
    func everyCharset(charset: String, subject: String, body: String) throws {
        let file = try MailFixtures.extract("mail/charset-\(charset).eml")
        let message = try #require(file.document(""))
        #expect(message.title == subject)
        #expect(message.body == body)
        #expect(message.encoding?.lowercased() == charset)
        #expect(message.metadata.from == ["Sender Name <sender@example.org>"])
        #expect(file.innerPaths == [""] && file.skipped.isEmpty)
    }

    @Test func htmlOnlyAndAlternative() throws {
        let html = try #require(try MailFixtures.extract("mail/html-only.eml").document(""))
        #expect(html.title == "HTML only")
        #expect(html.body == "Storm petrels & prions")
        let both = try #require(try MailFixtures.extract("mail/alternative.eml").document(""))
        #expect(both.body == "Plain words about skuas.")
        let related = try MailFixtures.extract("mail/related-html.eml")
        #expect(related.innerPaths == [""])
        #expect(related.skipped.isEmpty)
        #expect(related.document("")?.body == "Café naïve “news”")
        #expect(related.document("")?.encoding == "windows-1252")
    }

    @Test func mbox() throws {
        let file = try MailFixtures.extract("mail/box.mbox")
        #expect(file.innerPaths == MailFixtures.mailboxPaths)
        #expect(file.skipped == MailFixtures.mailboxSkipped)
        #expect(file.documents.prefix(4).map(\.title) == ["First message", "Second message", "Third message with a report", "Report"])
        if PDFExtractor.pdftotext != nil {
            #expect(file.document("3!/report.pdf")?.kind == "pdf")
            #expect(file.document("3!/report.pdf")?.body.hasPrefix("Storm petrel annual report\nBurrow counts rose on the north slope.") == true)
        }
        #expect(file.document("1")?.body == "Hello from the first message.\nFrom the beginning, this line was escaped.")
        #expect(file.document("2")?.body == "The second one.\n>From here on, mboxrd quoting.")
        #expect(file.document("3")?.metadata.to == ["Bob Jones <bob@example.org>", "carol@example.org"])
        #expect(file.document("3!/report.md")?.body == "# Report\n\nGuillemot colony census.\n")
    }

    /// A body line starting "From " that its writer did not escape is no
    /// envelope (no time, no header after it): it stays in its message.
    @Test func unescapedFromLinesStayInTheirMessage() throws {
        let file = try MailFixtures.extract("mail/unescaped.mbox")
        #expect(file.innerPaths == ["1", "2"])
        #expect(file.document("1")?.body == "Minutes of the meeting.\nFrom the start, the budget was the question.\nFrom Ann, a proposal.")
        #expect(file.document("2")?.title == "Message 2")
        #expect(file.skipped.isEmpty)
    }

    @Test func messagesPastThePartLimitAreLeftOut() throws {
        var registry = ExtractorRegistry.standard
        registry.containerLimits.maximumParts = 2
        let file = try MailFixtures.extract("mail/box.mbox", registry: registry)
        #expect(file.innerPaths == ["1", "2"])
        #expect(file.skipped == ["3: more than 2 parts: this and 0 later messages left out"])
    }

    @Test func maildirAndSpoolFilesAreSniffed() throws {
        let maildir = try MailFixtures.extract("mail/Maildir/cur/1699950600.M1P2.host:2,S")
        #expect(maildir.innerPaths == [""])
        #expect(maildir.documents.first?.kind == "eml")
        #expect(maildir.documents.first?.title == "Maildir message")
        #expect(maildir.documents.first?.body == "A message kept in a Maildir.")
        let spool = try MailFixtures.extract("mail/spool/ann")
        #expect(spool.innerPaths == MailFixtures.mailboxPaths)
        // `extract` gives a message's own document too.
        let path = try MailFixtures.folder.get() + "/mail/Maildir/cur/1699950600.M1P2.host:2,S"
        let single = try ExtractorRegistry.standard.extract(ExtractionInput(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), name: "1699950600.M1P2.host:2,S", path: path))
        #expect(single.title == "Maildir message")
    }

    @Test func textThatOnlyLooksLikeMailStaysText() throws {
        let cases = [
            "From: the editor\nThis note has no date and no blank line after its first line.\n",
            "Subject: notes\nDate: today\nFrom: me\n\nA header block that starts with a field messages do not start with.\n",
            "Date: 2024-01-01\nFrom: me\nsome words without a colon\n\nbody\n",
            "From me to you, a letter.\nDate: none\n",
            "date: 2024-01-01\nfrom: a YAML file\n\nitems: []\n",
        ]
        for text in cases {
            let file = try ExtractorRegistry.standard.extractAll(ExtractionInput(bytes: Array(text.utf8), name: "NOTES", path: "/x/NOTES"))
            #expect(file.documents.map(\.kind) == ["txt"], "\(text)")
            #expect(file.documents.first?.body == text)
        }
    }

    @Test func unreadableMessageThrows() throws {
        #expect(throws: ExtractionError.unreadable("not a mail message")) {
            try ExtractorRegistry.standard.extractAll(ExtractionInput(bytes: [], name: "empty.eml", path: "/x/empty.eml"))
        }
    }
}

@Suite("Hostile mail")
struct HostileMailTests {
    @Test func missingClosingBoundary() throws {
        let file = try MailFixtures.extract("mail/no-closing-boundary.eml")
        #expect(file.innerPaths == ["", "tail.txt"])
        #expect(file.document("")?.body == "The body survives the cut.")
        #expect(file.document("tail.txt")?.body == "The attachment has no closing boundary.\n")
        #expect(file.skipped.isEmpty)
    }

    /// GMime lists no part of a multipart whose boundary never appears;
    /// its body is then the message's text, not lost.
    @Test(arguments: ["mail/boundary-never-seen.eml", "mail/no-boundary.eml"])
    func boundaryNeverSeen(_ relative: String) throws {
        let file = try MailFixtures.extract(relative)
        #expect(file.innerPaths == [""])
        #expect(file.document("")?.title == "No boundary")
        #expect(file.document("")?.body == "The sender's program wrote the text with no boundary around it.\nStill worth reading, café.")
        #expect(file.skipped.isEmpty)
    }

    @Test func badBase64() throws {
        let file = try MailFixtures.extract("mail/bad-base64.eml")
        // GMime's decoder passes over what is not base64.
        #expect(file.document("")?.title == "Bad base64")
        #expect(file.document("")?.body == "The body is fine.")
        #expect(file.innerPaths == [""])
        #expect(file.skipped == ["broken.txt: empty"])
    }

    @Test func tenThousandPartsAreBounded() throws {
        var registry = ExtractorRegistry.standard
        registry.containerLimits.maximumParts = 500
        let file = try MailFixtures.extract("mail/many-parts.eml", registry: registry)
        // 500 leaf parts: the body and 499 attachments.
        #expect(file.documents.count == 500)
        #expect(file.document("")?.body == "The body of the many-part message.")
        #expect(file.document("part499.txt")?.body == "part number 499")
        #expect(file.document("part500.txt") == nil)
        #expect(file.skipped == [": more than 500 MIME parts or nested deeper than 32: 9500 left out"])
    }

    @Test func tenThousandPartsWithTheDefaultLimits() throws {
        _ = try MailFixtures.folder.get()
        let started = Date()
        let file = try MailFixtures.extract("mail/many-parts.eml")
        #expect(file.documents.count == 10_000)
        #expect(file.skipped.isEmpty)
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test func partsOverTheSizeLimitAreSkipped() throws {
        var registry = ExtractorRegistry.standard
        registry.containerLimits.maximumPartBytes = 40
        let file = try MailFixtures.extract("mail/plain.eml", registry: registry)
        // Over 40 bytes: the body (71), the notes (55), the uuencoded text
        // (43) and the forwarded message; the two reports (33, 35) are not.
        #expect(file.innerPaths == ["", "report.txt", "report.txt (2)"])
        #expect(file.document("")?.body == "")
        #expect(file.document("")?.title == "Grüße aus Köln: the quarterly plan")
        #expect(file.skipped == [
            ": a text part larger than the size limit (40 bytes)", "notes.md: larger than the size limit (40 bytes)",
            "photo.png: binary file", "legacy.txt: larger than the size limit (40 bytes)", "Puffins.eml: larger than the size limit (40 bytes)",
        ])
    }

    @Test func hugeHeader() throws {
        let file = try MailFixtures.extract("mail/huge-header.eml")
        let message = try #require(file.document(""))
        #expect(message.body == "A small body under a huge header.")
        #expect(message.title?.count == MailExtractor.maximumHeaderLength)
        #expect(message.title?.hasPrefix("Huge subject subject") == true)
    }

    @Test func invalidUTF8InHeaders() throws {
        let message = try #require(try MailFixtures.extract("mail/raw-8bit-headers.eml").document(""))
        #expect(message.metadata.from == ["Müller <mueller@example.org>"])
        #expect(message.metadata.authors == ["Müller"])
        // GMime reads the raw bytes as UTF-8 where they are, else windows-1252.
        #expect(message.title == "Invalid ÿþ bytes and café")
        #expect(message.body == "Body with a stray \u{FFFD} byte.")
    }

    @Test func deepNesting() throws {
        let file = try MailFixtures.extract("mail/deep-nesting.eml")
        #expect(file.document("")?.body == "Shallow text is kept.")
        #expect(file.skipped == [": more than 10000 MIME parts or nested deeper than 32: 1 left out"])
    }

    @Test func tooManyBoundariesAreRefusedBeforeParsing() throws {
        _ = try MailFixtures.folder.get()
        let started = Date()
        #expect(throws: ExtractionError.unreadable("more than 1000 multipart boundaries")) {
            try MailFixtures.extract("mail/deeper-nesting.eml")
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func encryptedMessage() throws {
        let file = try MailFixtures.extract("mail/encrypted.eml")
        #expect(file.innerPaths == [""])
        #expect(file.document("")?.title == "Secret plans")
        #expect(file.document("")?.body == "")
        #expect(file.skipped == ["encrypted: encrypted"])
    }
}

@Suite("Archives")
struct ArchiveTests {
    static let formats = ["zip", "tar", "tar.gz", "tgz", "tar.bz2", "tar.xz", "tar.zst", "7z"]

    @Test(arguments: formats)
    func members(format: String) throws {
        try #require(format != "tar.zst" || MailFixtures.has("zstd"))
        try #require(format != "7z" || MailFixtures.has("7z"))
        let file = try MailFixtures.extract("archives/docs.\(format)")
        #expect(Set(file.innerPaths) == ["notes/plan.md", "readme.txt"])
        #expect(file.document("notes/plan.md")?.title == "Survey plan")
        #expect(file.document("notes/plan.md")?.body == "# Survey plan\n\nCount the storm petrels on the island.\n")
        #expect(file.document("readme.txt")?.body == "Archive readme about kittiwakes.\n")
        #expect(file.skipped.isEmpty)
    }

    @Test func registryNames() {
        let registry = ExtractorRegistry.standard
        for name in ["a.zip", "a.tar", "a.tar.gz", "a.TGZ", "a.tar.bz2", "a.tbz2", "a.tar.xz", "a.txz", "a.tar.zst", "a.tar.lz", "a.tar.Z", "a.7z", "a.eml", "a.mbox"] {
            #expect(registry.container(forName: name) != nil, "\(name)")
            #expect(!registry.isKnownBinary(name: name), "\(name)")
            #expect(registry.readsWholeFile(name: name), "\(name)")
        }
        for name in ["a.jar", "a.apk", "a.deb", "a.rar", "a.png.gz", "a.png.bz2", "a.jpg.zst"] {
            #expect(registry.container(forName: name) == nil, "\(name)")
            #expect(registry.isKnownBinary(name: name), "\(name)")
        }
        #expect(registry.container(forName: "notes.txt.gz") == nil)
        #expect(!registry.isKnownBinary(name: "notes.txt.gz"))
        // A file compressed whole is read, as the file inside it.
        #expect(!registry.isKnownBinary(name: "notes.txt.bz2") && !registry.isKnownBinary(name: "a.xz"))
    }

    @Test func extractGivesAContainersOwnDocumentOnly() throws {
        // `extract`, one document a file: a message's own, none for an archive.
        let root = try MailFixtures.folder.get()
        let mail = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/mail/plain.eml")))
        let message = try ExtractorRegistry.standard.extract(ExtractionInput(bytes: mail, name: "plain.eml", path: root + "/mail/plain.eml"))
        #expect(message.title == "Grüße aus Köln: the quarterly plan")
        #expect(message.innerPath == nil)
        let zip = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/archives/docs.zip")))
        #expect(throws: ExtractionError.binary) {
            try ExtractorRegistry.standard.extract(ExtractionInput(bytes: zip, name: "docs.zip", path: root + "/archives/docs.zip"))
        }
    }

    @Test func gzippedTextStillReadAsText() throws {
        let text = "Compressed notes about fulmars.\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let compressed = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        let file = try ExtractorRegistry.standard.extractAll(ExtractionInput(bytes: compressed, name: "notes.txt.gz", path: "/x/notes.txt.gz"))
        #expect(file.documents.map(\.body) == [text])
        #expect(file.innerPaths == [""])
    }

    @Test func nestingIsBounded() throws {
        let file = try MailFixtures.extract("archives/nested.zip")
        #expect(file.innerPaths == [
            "level1.txt", "inner2.zip!/level2.txt", "inner2.zip!/inner3.zip!/level3.txt",
            "inner2.zip!/inner3.zip!/inner4.zip!/level4.txt",
        ])
        #expect(file.document("inner2.zip!/inner3.zip!/level3.txt")?.body == "Level 3 text.\n")
        #expect(file.skipped == ["inner2.zip!/inner3.zip!/inner4.zip!/inner5.zip: nested deeper than 4 containers"])
    }

    @Test func mailboxInsideAnArchive() throws {
        let file = try MailFixtures.extract("archives/mail.zip")
        #expect(file.innerPaths == MailFixtures.mailboxPaths.map { "mail/box.mbox!/" + $0 } + ["readme.txt"])
        #expect(file.skipped == MailFixtures.mailboxSkipped.map { "mail/box.mbox!/" + $0 })
        #expect(file.document("mail/box.mbox!/3")?.title == "Third message with a report")
    }

    @Test func membersPastThePartLimitAreLeftOut() throws {
        var registry = ExtractorRegistry.standard
        registry.containerLimits.maximumParts = 1
        let file = try MailFixtures.extract("archives/docs.zip", registry: registry)
        #expect(file.innerPaths == ["notes/plan.md"])
        #expect(file.skipped == ["readme.txt: more than 1 members"])
    }

    @Test func pathStoredTwice() throws {
        let root = try MailFixtures.folder.get()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/archives/docs.tar")))
        // A tar appended to: the same path again, with new content.
        let second = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/archives/docs.tar")))
        while bytes.count > 512, bytes.suffix(512).allSatisfy({ $0 == 0 }) { bytes.removeLast(512) }
        let file = try ExtractorRegistry.standard.extractAll(ExtractionInput(bytes: bytes + second, name: "twice.tar", path: "/x/twice.tar"))
        #expect(file.innerPaths == ["notes/plan.md", "readme.txt", "notes/plan.md (2)", "readme.txt (2)"])
        #expect(file.document("readme.txt (2)")?.body == "Archive readme about kittiwakes.\n")
    }

    @Test func notAnArchive() {
        #expect(throws: ExtractionError.self) {
            try MailFixtures.extract("archives/not-an-archive.zip")
        }
        do {
            _ = try MailFixtures.extract("archives/not-an-archive.zip")
        } catch let error as ExtractionError {
            guard case .unreadable = error else { Issue.record("\(error)"); return }
        } catch {
            Issue.record("\(error)")
        }
    }
}

@Suite("Hostile archives")
struct HostileArchiveTests {
    @Test(.requires(MailFixtures.has("zip"), "needs Debian's zip"))
    func encryptedMembersAreSkipped() throws {
        let file = try MailFixtures.extract("archives/locked.zip")
        #expect(file.innerPaths == ["notes/plan.md"])
        #expect(file.skipped == ["readme.txt: encrypted"])
    }

    @Test(.requires(MailFixtures.has("7z"), "needs 7z (p7zip-full)"))
    func encryptedSevenZip() throws {
        #expect(throws: ExtractionError.encrypted) { try MailFixtures.extract("archives/hidden.7z") }
        let file = try MailFixtures.extract("archives/locked.7z")
        #expect(file.documents.isEmpty)
        #expect(file.skipped == ["readme.txt: encrypted"])
    }

    @Test func bombThatSaysItsSize() throws {
        _ = try MailFixtures.folder.get()
        let started = Date()
        let file = try MailFixtures.extract("archives/bomb-declared.zip")
        #expect(file.documents.isEmpty)
        #expect(file.skipped == ["zeros.txt: 10737418240 bytes, larger than the size limit (67108864 bytes)"])
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func bombThatHidesItsSize() throws {
        _ = try MailFixtures.folder.get()
        let started = Date()
        let file = try MailFixtures.extract("archives/bomb-hidden.zip")
        #expect(file.documents.isEmpty)
        #expect(file.skipped == ["zeros.txt: expands past the size limit (67108864 bytes)"])
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func bombOfManyMembersStopsAtTheTotal() throws {
        let file = try MailFixtures.extract("archives/bomb-total.zip")
        // 50 MiB each, 256 MiB in all: five are read.
        #expect(file.documents.count == 5)
        #expect(file.skipped.count == 3)
        #expect(file.skipped.allSatisfy { $0.contains("size limit") })
    }

    @Test func nestedBombs() throws {
        _ = try MailFixtures.folder.get()
        let started = Date()
        let file = try MailFixtures.extract("archives/bomb-nested.zip")
        #expect(file.documents.isEmpty)
        #expect(file.skipped.count == 16)
        #expect(file.skipped.first == "bomb00.zip!/zeros.txt: 10737418240 bytes, larger than the size limit (67108864 bytes)")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func damagedContainersNeverTrap() throws {
        // Every fixture with bytes overwritten at random places: each
        // either throws an ExtractionError or gives valid text.
        var generator = SeededGenerator(seed: 46)
        let root = try MailFixtures.folder.get()
        for relative in ["mail/plain.eml", "mail/box.mbox", "mail/charset-iso-2022-jp.eml", "archives/docs.zip", "archives/docs.tar.gz",
                         "archives/docs.tar.xz", "archives/nested.zip", "archives/mail.zip"] {
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/" + relative)))
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<(1 + Int(generator.next() % 8)) {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
                if generator.next() % 4 == 0 { bytes.removeLast(Int(generator.next() % UInt64(bytes.count))) }
                let input = ExtractionInput(bytes: bytes, name: (relative as NSString).lastPathComponent, path: "/r/" + relative)
                guard let file = try? ExtractorRegistry.standard.extractAll(input) else { continue }
                for document in file.documents {
                    #expect(String(validating: Array(document.body.utf8), as: UTF8.self) != nil)
                }
            }
        }
    }

    /// gmime_declarations.h and libxml2_declarations.h stand in for the
    /// libraries' headers: compiled with the real headers first, any
    /// disagreement is an error.
    @Test(arguments: [("gmime-3.0", "CPetrelMail", "petrel_mail.c", "PETREL_MAIL_CHECK_DECLARATIONS"),
                      ("libxml-2.0", "CPetrelXML", "petrel_xml.c", "PETREL_XML_CHECK_DECLARATIONS")])
    func declarationsMatchTheHeaders(package: String, target: String, file: String, check: String) throws {
        let flags = try run("/usr/bin/pkg-config", ["--cflags", package])
        try #require(flags.status == 0, "pkg-config \(package): \(flags.stderr)")
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let sources = folder.appendingPathComponent(target).path
        let compiler = ["/usr/bin/cc", "/usr/bin/clang", "/usr/bin/gcc"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let cc = try #require(compiler, "no C compiler")
        let arguments = ["-fsyntax-only", "-Werror", "-D" + check, "-I", sources + "/include", "-I", folder.appendingPathComponent("CPetrelLoader/include").path]
            + flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init) + [sources + "/" + file]
        let result = try run(cc, arguments)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// GMime, libarchive, libxml2 and ICU's libicui18n are loaded when a
    /// message, an archive, an office document or an encoding to guess is
    /// first read (libicui18n also for collations and transliteration):
    /// petrel-search never loads them, and an indexer that
    /// cannot load them reports each such file as unreadable, with the
    /// reason, and indexes everything else.
    @Test func gmimeLibarchiveAndLibxml2AreLoadedOnlyToReadWhatNeedsThem() throws {
        for tool in ["petrel-search", "petrel-index"] {
            let executable = try #require(builtProduct(tool))
            let libraries = try run("/usr/bin/ldd", [executable])
            #expect(libraries.status == 0, "\(libraries.stderr)")
            for library in ["libgmime", "libglib", "libarchive", "libxml2", "libicui18n"] {
                #expect(!libraries.stdout.contains(library), "\(tool) loads \(library) at start:\n\(libraries.stdout)")
            }
        }
        let tree = try Tree([
            "note.txt": "the keeper's note about puffins",
            "letter.eml": "From: Ann <ann@example.org>\nTo: bob@example.org\nSubject: Puffins\n\nThe puffins came back to the lighthouse.\n",
            "inside/log.txt": "razorbills nested on the cliff",
        ])
        let zipped = try run("/usr/bin/zip", ["-q", "-j", tree.path("logs.zip"), tree.path("inside/log.txt")])
        try #require(zipped.status == 0, "\(zipped.stderr)")
        try tree.remove("inside/log.txt")
        try FileManager.default.copyItem(atPath: OfficeFixtures.folder.appendingPathComponent("license.docx").path, toPath: tree.path("license.docx"))
        // Libraries that cannot load: empty files found first.
        let broken = try TemporaryDirectory()
        for name in ["libgmime-3.0.so.0", "libarchive.so.13", "libxml2.so.2"] {
            try Data().write(to: broken.url.appendingPathComponent(name))
        }
        let index = tree.path("index.sqlite")
        let indexer = try #require(builtProduct("petrel-index"))
        let without = try run(indexer, ["--index", index, "--progress", "never", tree.root], environment: ["LD_LIBRARY_PATH": broken.url.path])
        #expect(without.status == 1, "\(without.stdout)\(without.stderr)")
        #expect(without.stderr.contains("letter.eml") && without.stderr.contains("mail needs GMime 3 (libgmime-3.0), which cannot be loaded"),
                "\(without.stderr)")
        #expect(without.stderr.contains("logs.zip") && without.stderr.contains("archives need libarchive, which cannot be loaded"),
                "\(without.stderr)")
        #expect(without.stderr.contains("license.docx") && without.stderr.contains("office documents and e-books need libxml2, which cannot be loaded"),
                "\(without.stderr)")
        let searcher = try #require(builtProduct("petrel-search"))
        #expect(try run(searcher, ["--index", index, "--files-only", "keeper"]).stdout == tree.path("note.txt") + "\n")
        // Nor does a search load them later (ICU's libicui18n: collation,
        // transliteration, regular expressions, charset detection).
        let traced = try run(searcher, ["--index", index, "--files-only", "keeper's", "note"], environment: ["LD_DEBUG": "files"])
        for library in ["libgmime", "libarchive", "libxml2", "libicui18n"] {
            #expect(!traced.stderr.contains(library + "."), "a search loads \(library)")
        }
        // Snowball's stemmers are inside petrel-search (libstemmer.a), not
        // loaded and relocated at each start; `keeper's` is still stemmed.
        if ProcessInfo.processInfo.environment["PETREL_SHARED_SWIFT_RUNTIME"] != "1" {
            #expect(!traced.stderr.contains("libstemmer."), "a search loads libstemmer.so")
            let stemmed = try run(searcher, ["--index", index, "--explain", "keepers"])
            #expect(stemmed.stdout.contains("\"keeper\" *"), "\(stemmed.stdout)")
        }
        // With the libraries, the next run reads the message and the archive.
        let with = try run(indexer, ["--index", index, "--progress", "never", tree.root])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(try run(searcher, ["--index", index, "--files-only", "puffins", "lighthouse"]).stdout.hasPrefix(tree.path("letter.eml")))
        #expect(try run(searcher, ["--index", index, "--files-only", "razorbills"]).stdout.hasPrefix(tree.path("logs.zip")))
        #expect(try run(searcher, ["--index", index, "--files-only", "Licensor"]).stdout == tree.path("license.docx") + "\n")
    }
}
