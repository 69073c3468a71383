import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// Builds BIFF records and compound files for the tests.
private enum BIFF {
    static func record(_ type: UInt16, _ payload: [UInt8]) -> [UInt8] {
        le16(type) + le16(UInt16(payload.count)) + payload
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16)) }
    static func le64(_ value: UInt64) -> [UInt8] { le32(UInt32(value & 0xFFFF_FFFF)) + le32(UInt32(value >> 32)) }
    static func utf16(_ text: String) -> [UInt8] { text.utf16.flatMap { le16($0) } }

    static func bof(_ version: UInt16, _ type: UInt16) -> [UInt8] { record(0x0809, le16(version) + le16(type) + [UInt8](repeating: 0, count: 12)) }
    static let eof = record(0x000A, [])

    static func cell(_ row: UInt16, _ column: UInt16) -> [UInt8] { le16(row) + le16(column) + le16(15) }

    /// A little-endian u32 of `bytes` at `offset`, for patching fixtures.
    static func u32(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    static func put32(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        bytes.replaceSubrange(offset..<offset + 4, with: le32(value))
    }

    /// The directory entry offset in a 512-byte-sector file of the entry
    /// named `name`, and the directory's first sector.
    static func entry(_ bytes: [UInt8], _ name: String) -> Int? {
        let directory = u32(bytes, 0x30)
        let base = (directory + 1) * 512
        for index in 0..<4 {
            let offset = base + 128 * index
            let length = Int(bytes[offset + 0x40]) / 2 - 1
            guard length > 0 else { continue }
            let units = (0..<length).map { UInt16(bytes[offset + 2 * $0]) | UInt16(bytes[offset + 2 * $0 + 1]) << 8 }
            if String(decoding: units, as: UTF16.self) == name { return offset }
        }
        return nil
    }
}

@Suite("XLS reader")
struct XLSReaderTests {
    @Test func japaneseWorkbookWithLongStringsIsReadWhole() throws {
        let expected = try String(contentsOf: OfficeFixtures.folder.appendingPathComponent("gzip-ja.xls.txt"), encoding: .utf8)
        let document = try OfficeFixtures.extract("gzip-ja.xls")
        #expect(document.kind == "xls")
        #expect(!document.isTruncated)
        // Sheet names, each paragraph, the whole text in one cell (its
        // shared string runs on in CONTINUE records), numbers as shown.
        #expect(document.body == expected.trimmingCharacters(in: .newlines))
        let lines = document.body.split(separator: "\n").map(String.init)
        #expect(lines.first == "説明")
        #expect(lines.contains("Sizes"))
        #expect(lines.contains("3\t149\t0.06927\t-119.875"))
        #expect(lines.contains { $0.hasPrefix("全文\tgzip コマンドは Lempel-Ziv コーディング (LZ77) を利用して、 指定されたファイルのサイズを削減します。") && $0.hasSuffix("マジックナンバーを持っているファイルであれば伸長しようとします。") })
    }

    @Test func sheetNamesAndSummaryOfATwoSheetWorkbook() throws {
        let document = try OfficeFixtures.extract("sheet.xls")
        #expect(OfficeFixtures.inOrder(document.body, ["Licenses\nLicense\tFirst line\tBytes\nApache-2.0\tApache License\t11358", "Apache sections\nSection\tTitle\n1\tDefinitions"]))
        #expect(document.body.hasSuffix("9\tAccepting Warranty or Additional Liability"))
        #expect(document.title == "Common licenses")
        #expect(document.metadata.authors == ["Debian base-files"])
        #expect(document.metadata.keywords == ["licenses"])
    }

    @Test func passwordProtectedWorkbookIsEncrypted() throws {
        let bytes = try OfficeFixtures.input("encrypted.xls").bytes
        #expect(throws: ExtractionError.encrypted) { try XLSReader.read(bytes, budget: 1 << 20) }
    }

    @Test func textBudgetCutsTheWorkbook() throws {
        let bytes = try OfficeFixtures.input("gzip-ja.xls").bytes
        let workbook = try XLSReader.read(bytes, budget: 100)
        #expect(workbook.isTruncated)
        #expect(workbook.body.utf8.count <= 100)
        #expect(workbook.body.hasPrefix("説明\n番号\t本文\n1\tgzip"))
    }

    /// A shared string split by a CONTINUE record: the first part
    /// compressed, the rest UTF-16 after a new flags byte; its formatting
    /// runs and phonetic data run on across the next boundary.
    @Test func sharedStringsAcrossContinueRecords() throws {
        let first = Array("Tokyo ".utf8)
        let second = BIFF.utf16("東京都")
        // String 1: 9 characters, rich (2 runs) and phonetic (5 bytes).
        let sst = BIFF.le32(2) + BIFF.le32(2) + BIFF.le16(9) + [0x0C] + BIFF.le16(2) + BIFF.le32(5) + first
        let continuation = [0x01] + second + [UInt8](repeating: 0xAA, count: 4)
        var continuation2 = [UInt8](repeating: 0xBB, count: 4 + 5)
        // String 2, plain, uncompressed, wholly in the last record.
        continuation2 += BIFF.le16(2) + [0x01] + BIFF.utf16("大阪")
        let globals = BIFF.bof(0x0600, 0x0005)
            + BIFF.record(0x0085, BIFF.le32(0) + [0, 0] + [3, 0x01] + BIFF.utf16("表一"))
            + BIFF.record(0x00FC, sst) + BIFF.record(0x003C, continuation) + BIFF.record(0x003C, continuation2)
            + BIFF.eof
        let sheet = BIFF.bof(0x0600, 0x0010)
            + BIFF.record(0x00FD, BIFF.cell(0, 0) + BIFF.le32(0))
            + BIFF.record(0x00FD, BIFF.cell(0, 2) + BIFF.le32(1))
            + BIFF.record(0x027E, BIFF.cell(1, 0) + BIFF.le32(123 << 2 | 3))   // 1.23, an integer times 100
            + BIFF.record(0x00BD, BIFF.le16(1) + BIFF.le16(1) + BIFF.le16(15) + BIFF.le32(0x3FF0_0000) + BIFF.le16(15) + BIFF.le32(UInt32(bitPattern: -7 << 2) | 2) + BIFF.le16(2))
            + BIFF.record(0x0203, BIFF.cell(2, 0) + BIFF.le64((-2.5).bitPattern))
            + BIFF.record(0x0006, BIFF.cell(2, 1) + [0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + [0, 0, 0, 0, 0, 0])
            + BIFF.record(0x0207, BIFF.le16(3) + [0] + Array("sum".utf8))
            + BIFF.record(0x0006, BIFF.cell(2, 2) + BIFF.le64((1e20).bitPattern) + [0, 0, 0, 0, 0, 0])
            + BIFF.record(0x0205, BIFF.cell(2, 3) + [1, 0])
            + BIFF.record(0x0204, BIFF.cell(3, 0) + BIFF.le16(4) + [0] + Array("a\tb\n".utf8))
            + BIFF.eof
        let workbook = try XLSReader.read(stream: globals + sheet, budget: 1 << 20)
        #expect(workbook.body == "表一\nTokyo 東京都\t大阪\n1.23\t1\t-7\n-2.5\tsum\t1e+20\tTRUE\na b")
        #expect(workbook.sheetNames == ["表一"])
    }

    @Test func excel95WorkbookBestEffort() throws {
        // BIFF5: 8-bit strings in the code page (here Shift-JIS), no SST.
        let name: [UInt8] = [0x95, 0x5C] // 表
        let globals = BIFF.bof(0x0500, 0x0005) + BIFF.record(0x0042, BIFF.le16(932))
            + BIFF.record(0x0085, BIFF.le32(0) + [0, 0] + [UInt8(name.count)] + name) + BIFF.eof
        let sheet = BIFF.bof(0x0500, 0x0010)
            + BIFF.record(0x0204, BIFF.cell(0, 0) + BIFF.le16(4) + [0x93, 0x8C, 0x8B, 0x9E]) // 東京
            + BIFF.record(0x027E, BIFF.cell(0, 1) + BIFF.le32(42 << 2 | 2)) + BIFF.eof
        let workbook = try XLSReader.read(stream: globals + sheet, budget: 1 << 20)
        #expect(workbook.body == "表\n東京\t42")
    }

    @Test func aWordFileHasNoWorkbook() throws {
        let bytes = try OfficeFixtures.input("license.doc").bytes
        #expect(throws: ExtractionError.unreadable("no Workbook stream: not an Excel 97–2003 workbook")) { try XLSReader.read(bytes, budget: 1 << 20) }
    }

    @Test func olderExcelIsUnreadableWithAReason() throws {
        let biff4 = BIFF.record(0x0409, BIFF.le16(0) + BIFF.le16(0x10)) + BIFF.eof
        #expect(throws: ExtractionError.unreadable("the Workbook stream does not start with a BIFF5 or BIFF8 BOF record (Excel 2–4, or damaged)")) {
            try XLSReader.read(stream: biff4, budget: 1 << 20)
        }
    }

    @Test func utf16BecomesUTF8WithSurrogatePairsJoined() {
        var builder = UTF8Builder()
        for unit in "é東🐦".utf16 { builder.append(unit) }
        builder.append(0xDC00)  // a low surrogate alone
        builder.append(0xD83D)  // a high surrogate at the end
        builder.finish()
        #expect(String(decoding: builder.bytes, as: UTF8.self) == "é東🐦\u{FFFD}\u{FFFD}")
    }

    @Test func numbersAsAPersonReadsThem() {
        #expect(XLSReader.text(of: 11358) == "11358")
        #expect(XLSReader.text(of: -0.0) == "0")
        #expect(XLSReader.text(of: 0.1) == "0.1")
        #expect(XLSReader.text(of: 1e300) == "1e+300")
        #expect(XLSReader.text(of: .nan) == nil)
        #expect(XLSReader.rkValue(0x3FF0_0000) == 1)
        #expect(XLSReader.rkValue(123 << 2 | 3) == 1.23)
    }

    /// A compound file whose FAT has more sectors than the header's 109
    /// slots: the last is found through a DIFAT sector, and it alone maps
    /// the Workbook stream, placed past sector 13,952.
    @Test func fatSectorsListedInAnExtraDIFATSector() throws {
        let globals = BIFF.bof(0x0600, 0x0005) + BIFF.record(0x0085, BIFF.le32(0) + [0, 0] + [5, 0] + Array("DIFAT".utf8)) + BIFF.eof
        let sheet = BIFF.bof(0x0600, 0x0010) + BIFF.record(0x0204, BIFF.cell(0, 0) + BIFF.le16(7) + [0] + Array("reached".utf8))
            + BIFF.record(0x00EF, [UInt8](repeating: 0, count: 4100)) + BIFF.eof
        let stream = globals + sheet
        let streamSectors = (stream.count + 511) / 512
        let first = 14000
        var file = [UInt8](repeating: 0, count: 512 * (1 + first + streamSectors))
        func sector(_ index: Int) -> Int { (index + 1) * 512 }
        // Header: version 3, 512-byte sectors, 110 FAT sectors (0...109),
        // the directory in sector 111, one DIFAT sector (110), no mini FAT.
        file.replaceSubrange(0..<8, with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1])
        file.replaceSubrange(0x18..<0x20, with: BIFF.le16(0x3E) + BIFF.le16(3) + BIFF.le16(0xFFFE) + BIFF.le16(9))
        file.replaceSubrange(0x20..<0x22, with: BIFF.le16(6))
        BIFF.put32(&file, 0x2C, 110)
        BIFF.put32(&file, 0x30, 111)
        BIFF.put32(&file, 0x38, 4096)
        BIFF.put32(&file, 0x3C, 0xFFFF_FFFE)
        BIFF.put32(&file, 0x44, 110)
        BIFF.put32(&file, 0x48, 1)
        for index in 0..<109 { BIFF.put32(&file, 0x4C + 4 * index, UInt32(index)) }
        BIFF.put32(&file, sector(110), 109)
        for index in 1..<127 { BIFF.put32(&file, sector(110) + 4 * index, 0xFFFF_FFFF) }
        BIFF.put32(&file, sector(110) + 508, 0xFFFF_FFFE)
        // The FAT: every entry free, then the special sectors and the stream's chain.
        for index in 0..<110 * 128 { BIFF.put32(&file, sector(index / 128) + 4 * (index % 128), 0xFFFF_FFFF) }
        func link(_ index: Int, _ next: UInt32) { BIFF.put32(&file, sector(index / 128) + 4 * (index % 128), next) }
        for index in 0..<110 { link(index, 0xFFFF_FFFD) }
        link(110, 0xFFFF_FFFC)
        link(111, 0xFFFF_FFFE)
        for index in 0..<streamSectors { link(first + index, index == streamSectors - 1 ? 0xFFFF_FFFE : UInt32(first + index + 1)) }
        // The directory: the root, then the Workbook stream as its child.
        func entry(_ index: Int, _ name: String, type: UInt8, child: UInt32, start: UInt32, size: UInt32) {
            let base = sector(111) + 128 * index
            let name = BIFF.utf16(name) + [0, 0]
            file.replaceSubrange(base..<base + name.count, with: name)
            file.replaceSubrange(base + 0x40..<base + 0x42, with: BIFF.le16(UInt16(name.count)))
            file[base + 0x42] = type
            BIFF.put32(&file, base + 0x44, 0xFFFF_FFFF)
            BIFF.put32(&file, base + 0x48, 0xFFFF_FFFF)
            BIFF.put32(&file, base + 0x4C, child)
            BIFF.put32(&file, base + 0x74, start)
            BIFF.put32(&file, base + 0x78, size)
        }
        entry(0, "Root Entry", type: 5, child: 1, start: 0xFFFF_FFFE, size: 0)
        entry(1, "Workbook", type: 2, child: 0xFFFF_FFFF, start: UInt32(first), size: UInt32(stream.count))
        for index in 2..<4 { BIFF.put32(&file, sector(111) + 128 * index + 0x44, 0xFFFF_FFFF) }
        file.replaceSubrange(sector(first)..<sector(first) + stream.count, with: stream)

        let workbook = try XLSReader.read(file, budget: 1 << 20)
        #expect(workbook.body == "DIFAT\nreached")
        // The same file without its DIFAT sector cannot map the stream.
        var cut = file
        BIFF.put32(&cut, 0x44, 0xFFFF_FFFE)
        #expect(throws: ExtractionError.self) { try XLSReader.read(cut, budget: 1 << 20) }
    }

    @Test func xlsNeedsNoHelperAndFallsBackToXls2csv() throws {
        let empty = try TemporaryDirectory()
        // Read in process: no helper on the path.
        let document = try LegacyOfficeExtractor(.xls, searchPath: empty.url.path).extract(OfficeFixtures.input("sheet.xls"))
        #expect(document.body.hasPrefix("Licenses\nLicense\tFirst line\tBytes"))
        // What the reader cannot read, with no xls2csv, keeps the reader's reason.
        var damaged = try OfficeFixtures.input("sheet.xls")
        BIFF.put32(&damaged.bytes, 0x2C, 0x7FFF_FFFF)
        #expect(throws: ExtractionError.unreadable("OLE compound file: 2147483647 FAT sectors declared in a file of 13 sectors")) {
            try LegacyOfficeExtractor(.xls, searchPath: empty.url.path).extract(damaged)
        }
        // With xls2csv (here a stand-in), its text is taken.
        let helpers = try TemporaryDirectory()
        let tool = helpers.url.appendingPathComponent("xls2csv").path
        try writeScript("echo 'read by the helper'", to: tool)
        let fallback = try LegacyOfficeExtractor(.xls, searchPath: helpers.url.path)
            .extract(ExtractionInput(bytes: damaged.bytes, name: "damaged.xls", path: ""))
        #expect(fallback.body == "read by the helper")
    }

    // MARK: Hostile input

    @Test func truncatedFilesThrowOrReadWhatIsThere() throws {
        let bytes = try OfficeFixtures.input("gzip-ja.xls").bytes
        let whole = try XLSReader.read(bytes, budget: 1 << 20).body
        var unreadable = 0
        for length in stride(from: 0, to: bytes.count, by: 97) {
            do {
                // Cut in sectors no stream needs, the file still reads whole.
                let body = try XLSReader.read(Array(bytes[..<length]), budget: 1 << 20).body
                #expect(body == whole, "cut at \(length) bytes")
            } catch .unreadable {
                unreadable += 1
            } catch {
                Issue.record("unexpected \(error) at \(length) bytes")
            }
        }
        // Cut almost anywhere, the declared stream sizes no longer fit.
        #expect(unreadable > (bytes.count / 97) * 9 / 10)
    }

    @Test func cyclicChainsAreErrors() throws {
        var bytes = try OfficeFixtures.input("gzip-ja.xls").bytes
        let fat = (BIFF.u32(bytes, 0x4C) + 1) * 512
        // The Workbook stream (longer than the mini stream cutoff) loops on its first sector.
        let entry = try #require(BIFF.entry(bytes, "Workbook"))
        let start = BIFF.u32(bytes, entry + 0x74)
        BIFF.put32(&bytes, fat + 4 * start, UInt32(start))
        #expect(throws: ExtractionError.unreadable("OLE compound file: a chain of sectors points out of the file or loops")) {
            try XLSReader.read(bytes, budget: 1 << 20)
        }
        // The directory's chain loops.
        var directory = try OfficeFixtures.input("gzip-ja.xls").bytes
        let first = BIFF.u32(directory, 0x30)
        BIFF.put32(&directory, fat + 4 * first, UInt32(first))
        #expect(throws: ExtractionError.self) { try XLSReader.read(directory, budget: 1 << 20) }
        // A DIFAT sector that names itself as the next.
        var difat = try OfficeFixtures.input("gzip-ja.xls").bytes + [UInt8](repeating: 0, count: 512 * 120)
        BIFF.put32(&difat, 0x2C, 115)
        BIFF.put32(&difat, 0x44, 140)
        BIFF.put32(&difat, (140 + 1) * 512 + 508, 140)
        #expect(throws: ExtractionError.self) { try XLSReader.read(difat, budget: 1 << 20) }
    }

    @Test func hugeDeclaredSizesAreRefusedBeforeAllocation() throws {
        let original = try OfficeFixtures.input("gzip-ja.xls").bytes
        let entry = try #require(BIFF.entry(original, "Workbook"))
        var bytes = original
        BIFF.put32(&bytes, entry + 0x78, 0xFFFF_FFF0)
        #expect(throws: ExtractionError.unreadable("OLE compound file: a stream of 4294967280 bytes declared in a file that holds fewer")) {
            try XLSReader.read(bytes, budget: 1 << 20)
        }
        var fatCount = original
        BIFF.put32(&fatCount, 0x2C, 0x7FFF_FFFF)
        #expect(throws: ExtractionError.unreadable("OLE compound file: 2147483647 FAT sectors declared in a file of 33 sectors")) {
            try XLSReader.read(fatCount, budget: 1 << 20)
        }
    }

    @Test func randomMutationsNeitherTrapNorHang() throws {
        let originals = [try OfficeFixtures.input("gzip-ja.xls").bytes, try OfficeFixtures.input("sheet.xls").bytes]
        var generator = SeededGenerator(seed: 0x5045_5452_454C)
        let clock = ContinuousClock()
        let started = clock.now
        var read = 0
        for round in 0..<3000 {
            var bytes = originals[round % 2]
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                // Half the changes in the header and directory, where they hurt most.
                let limit = Bool.random(using: &generator) ? min(bytes.count, 1536) : bytes.count
                bytes[Int.random(in: 0..<limit, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if let workbook = try? XLSReader.read(bytes, budget: 1 << 20), !workbook.body.isEmpty { read += 1 }
        }
        // The Workbook stream itself, past the container's checks.
        let workbook = try #require(try CompoundFile(originals[0]).stream(named: "Workbook"))
        var streamsRead = 0
        for _ in 0..<3000 {
            var bytes = workbook
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if let workbook = try? XLSReader.read(stream: bytes, budget: 1 << 20), !workbook.body.isEmpty { streamsRead += 1 }
        }
        #expect(clock.now - started < .seconds(60))
        // Most mutations land in cells or padding: those files still read.
        #expect(read > 1000)
        #expect(streamsRead > 1000)
    }
}
