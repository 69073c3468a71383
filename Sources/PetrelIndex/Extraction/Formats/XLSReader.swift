import Foundation

/// The text of an Excel 97–2003 workbook (BIFF8, [MS-XLS]), read in
/// process from the Workbook stream of its compound file; Excel 5 and 95
/// workbooks (BIFF5, a Book stream) best-effort, their 8-bit strings in
/// the workbook's code page.
///
/// Each worksheet gives its name as a line, then one line per row, the
/// cells tab-separated: shared strings (with their CONTINUE records),
/// inline labels, numbers (RK, MULRK, NUMBER), formulas' cached results
/// and booleans. Empty cells are left out. A workbook with a FILEPASS
/// record throws ``ExtractionError/encrypted``.
enum XLSReader {
    /// The text read, and the workbook's summary title when it has one.
    struct Workbook {
        var body: String
        var isTruncated: Bool
        var sheetNames: [String]
        /// The summary information's fields (nil when absent).
        var summary = CompoundFile.Summary()
    }

    /// Reads the workbook in the compound file `bytes`, keeping at most
    /// `budget` bytes of text.
    static func read(_ bytes: [UInt8], budget: Int) throws(ExtractionError) -> Workbook {
        let file = try CompoundFile(bytes)
        if try file.stream(named: "EncryptionInfo") != nil { throw .encrypted }
        var stream = try file.stream(named: "Workbook")
        if stream == nil { stream = try file.stream(named: "Book") }
        guard let stream else {
            throw .unreadable("no Workbook stream: not an Excel 97–2003 workbook")
        }
        var workbook = try read(stream: stream, budget: budget)
        workbook.summary = file.summary()
        return workbook
    }

    // Record types.
    private static let bof: UInt16 = 0x0809, eof: UInt16 = 0x000A, filePass: UInt16 = 0x002F
    private static let boundSheet: UInt16 = 0x0085, codePageRecord: UInt16 = 0x0042
    private static let sst: UInt16 = 0x00FC, continuation: UInt16 = 0x003C
    private static let labelSST: UInt16 = 0x00FD, label: UInt16 = 0x0204, richString: UInt16 = 0x00D6
    private static let number: UInt16 = 0x0203, rk: UInt16 = 0x027E, mulRK: UInt16 = 0x00BD
    private static let formula: UInt16 = 0x0006, string: UInt16 = 0x0207, boolErr: UInt16 = 0x0205

    private struct Record {
        var type: UInt16
        /// Where the record's header starts in the stream.
        var offset: Int
        var payload: ArraySlice<UInt8>
    }

    private struct Cell {
        var row: UInt16
        var column: UInt16
        var text: String
    }

    private struct Sheet {
        var name: String
        var cells: [Cell] = []
    }

    /// Reads a Workbook (BIFF8) or Book (BIFF5) stream.
    static func read(stream: [UInt8], budget: Int) throws(ExtractionError) -> Workbook {
        // The records; a record running past the end (a cut file) ends the list.
        var records: [Record] = []
        var position = 0
        while let type = LittleEndian.u16(stream, position), let length = LittleEndian.u16(stream, position + 2),
              position + 4 + Int(length) <= stream.count {
            records.append(Record(type: type, offset: position, payload: stream[position + 4..<position + 4 + Int(length)]))
            position += 4 + Int(length)
        }
        guard let first = records.first, first.type == bof, let version = u16(first.payload, 0) else {
            throw .unreadable("the Workbook stream does not start with a BIFF5 or BIFF8 BOF record (Excel 2–4, or damaged)")
        }
        guard version == 0x0600 || version == 0x0500 else {
            throw .unreadable("unsupported Excel BIFF version 0x\(String(version, radix: 16))")
        }
        let biff8 = version == 0x0600
        var codePage: UInt16 = 1252

        var boundSheets: [(offset: UInt32, name: String, worksheet: Bool)] = []
        var strings: [String] = []
        var sheets: [Sheet] = []
        var current: Sheet?
        var substreams = 0
        var depth = 0
        var pendingFormula: (row: UInt16, column: UInt16)?

        var index = 0
        while index < records.count {
            let record = records[index]
            let payload = record.payload
            index += 1
            switch record.type {
            case bof:
                depth += 1
                if depth == 1 {
                    substreams += 1
                    if substreams > 1, u16(payload, 2) == 0x0010 {
                        let ordinal = substreams - 2
                        let named = boundSheets.first { $0.offset == UInt32(record.offset) }
                            ?? (ordinal < boundSheets.count ? boundSheets[ordinal] : nil)
                        current = Sheet(name: named?.name ?? "Sheet\(sheets.count + 1)")
                    }
                }
            case eof:
                depth = max(0, depth - 1)
                if depth == 0, let sheet = current {
                    sheets.append(sheet)
                    current = nil
                }
            case filePass where substreams == 1:
                throw .encrypted
            case codePageRecord:
                if let value = u16(payload, 0) { codePage = value }
            case boundSheet where substreams == 1:
                guard let offset = u32(payload, 0), payload.count >= 7 else { break }
                var reader = ContinuedBytes(Array(payload.dropFirst(6)))
                let name = biff8 ? reader.unicodeString(lengthBytes: 1, rich: false) : reader.byteString(lengthBytes: 1, codePage: codePage)
                boundSheets.append((offset, name ?? "", payload[payload.startIndex + 5] == 0))
            case sst where biff8 && substreams == 1:
                var reader = continued(payload, records: records, index: &index)
                _ = reader.u32()
                _ = reader.u32()
                while !reader.isAtEnd, let text = reader.unicodeString(lengthBytes: 2, rich: true) {
                    strings.append(text)
                }
            case labelSST where depth == 1 && current != nil:
                if let (row, column) = place(payload), let item = u32(payload, 6), Int(item) < strings.count {
                    current?.cells.append(Cell(row: row, column: column, text: strings[Int(item)]))
                }
            case label where depth == 1 && current != nil, richString where depth == 1 && current != nil:
                guard let (row, column) = place(payload) else { break }
                var reader = biff8 ? continued(payload, records: records, index: &index) : ContinuedBytes(Array(payload))
                reader.position = 6
                let text = biff8 ? reader.unicodeString(lengthBytes: 2, rich: false) : reader.byteString(lengthBytes: 2, codePage: codePage)
                if let text { current?.cells.append(Cell(row: row, column: column, text: text)) }
            case number where depth == 1 && current != nil:
                if let (row, column) = place(payload), let bits = u64(payload, 6), let text = XLSReader.text(of: Double(bitPattern: bits)) {
                    current?.cells.append(Cell(row: row, column: column, text: text))
                }
            case rk where depth == 1 && current != nil:
                if let (row, column) = place(payload), let value = u32(payload, 6), let text = XLSReader.text(of: rkValue(value)) {
                    current?.cells.append(Cell(row: row, column: column, text: text))
                }
            case mulRK where depth == 1 && current != nil:
                guard let row = u16(payload, 0), let firstColumn = u16(payload, 2) else { break }
                var offset = 4
                var column = firstColumn
                while offset + 6 + 2 <= payload.count, let value = u32(payload, offset + 2) {
                    if let text = XLSReader.text(of: rkValue(value)) {
                        current?.cells.append(Cell(row: row, column: column, text: text))
                    }
                    offset += 6
                    column &+= 1
                }
            case formula where depth == 1 && current != nil:
                guard let (row, column) = place(payload), let bits = u64(payload, 6) else { break }
                pendingFormula = nil
                if bits >> 48 == 0xFFFF {
                    switch bits & 0xFF {
                    case 0: pendingFormula = (row, column)
                    case 1: current?.cells.append(Cell(row: row, column: column, text: (bits >> 16) & 0xFF == 0 ? "FALSE" : "TRUE"))
                    default: break
                    }
                } else if let text = XLSReader.text(of: Double(bitPattern: bits)) {
                    current?.cells.append(Cell(row: row, column: column, text: text))
                }
            case string where depth == 1 && current != nil:
                guard let (row, column) = pendingFormula else { break }
                pendingFormula = nil
                var reader = biff8 ? continued(payload, records: records, index: &index) : ContinuedBytes(Array(payload))
                let text = biff8 ? reader.unicodeString(lengthBytes: 2, rich: false) : reader.byteString(lengthBytes: 2, codePage: codePage)
                if let text { current?.cells.append(Cell(row: row, column: column, text: text)) }
            case boolErr where depth == 1 && current != nil:
                if let (row, column) = place(payload), payload.count >= 8, payload[payload.startIndex + 7] == 0 {
                    current?.cells.append(Cell(row: row, column: column, text: payload[payload.startIndex + 6] == 0 ? "FALSE" : "TRUE"))
                }
            default:
                break
            }
        }
        // A cut stream: the sheet being read when it ended is kept.
        if let sheet = current { sheets.append(sheet) }

        var sink = TextSink(budget: budget)
        for sheet in sheets where !sink.isFull {
            sink.endLine()
            sink.append(clean(sheet.name))
            var lastRow: UInt16?
            let cells = sheet.cells.enumerated().sorted { a, b in
                (a.element.row, a.element.column, a.offset) < (b.element.row, b.element.column, b.offset)
            }
            for (_, cell) in cells {
                let text = clean(cell.text)
                guard !text.isEmpty else { continue }
                if cell.row != lastRow {
                    sink.endLine()
                    lastRow = cell.row
                } else {
                    sink.append("\t")
                }
                sink.append(text)
                if sink.isFull { break }
            }
        }
        return Workbook(body: sink.string, isTruncated: sink.isTruncated, sheetNames: sheets.map(\.name))
    }

    /// The payload of `first` joined with those of the CONTINUE records
    /// after `index`, which is moved past them.
    private static func continued(_ first: ArraySlice<UInt8>, records: [Record], index: inout Int) -> ContinuedBytes {
        var data = Array(first)
        var boundaries: [Int] = []
        while index < records.count, records[index].type == continuation {
            boundaries.append(data.count)
            data.append(contentsOf: records[index].payload)
            index += 1
        }
        return ContinuedBytes(data, boundaries: boundaries)
    }

    /// A cell's row and column.
    private static func place(_ payload: ArraySlice<UInt8>) -> (UInt16, UInt16)? {
        guard let row = u16(payload, 0), let column = u16(payload, 2) else { return nil }
        return (row, column)
    }

    /// An RK number: a 30-bit integer or the high bits of a double,
    /// perhaps times 100.
    static func rkValue(_ rk: UInt32) -> Double {
        var value = rk & 2 != 0 ? Double(Int32(bitPattern: rk) >> 2) : Double(bitPattern: UInt64(rk & 0xFFFF_FFFC) << 32)
        if rk & 1 != 0 { value /= 100 }
        return value
    }

    /// A number as a person reads it: integers without a fraction, others
    /// in their shortest form; nil for NaN and infinities.
    static func text(of value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A cell's text on one line: control characters (line ends, tabs)
    /// as spaces, trimmed.
    private static func clean(_ text: String) -> ArraySlice<UInt8> {
        var bytes = Array(text.utf8)
        for index in bytes.indices where bytes[index] < 0x20 || bytes[index] == 0x7F { bytes[index] = 0x20 }
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 { end -= 1 }
        return bytes[start..<end]
    }

    private static func u16(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let base = bytes.startIndex + offset
        return UInt16(bytes[base]) | UInt16(bytes[base + 1]) << 8
    }

    private static func u32(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32? {
        guard let low = u16(bytes, offset), let high = u16(bytes, offset + 2) else { return nil }
        return UInt32(low) | UInt32(high) << 16
    }

    private static func u64(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt64? {
        guard let low = u32(bytes, offset), let high = u32(bytes, offset + 4) else { return nil }
        return UInt64(low) | UInt64(high) << 32
    }
}

/// A record's payload joined with its CONTINUE records', read front to
/// back; `boundaries` are where each continuation starts.
struct ContinuedBytes {
    let data: [UInt8]
    let boundaries: [Int]
    var position = 0
    /// The first boundary at or after `position` (boundaries.count: none).
    private var nextBoundary = 0

    init(_ data: [UInt8], boundaries: [Int] = []) {
        self.data = data
        self.boundaries = boundaries
    }

    var isAtEnd: Bool { position >= data.count }

    mutating func byte() -> UInt8? {
        guard position < data.count else { return nil }
        position += 1
        return data[position - 1]
    }

    mutating func u16() -> UInt16? {
        guard let low = byte(), let high = byte() else { return nil }
        return UInt16(low) | UInt16(high) << 8
    }

    mutating func u32() -> UInt32? {
        guard let low = u16(), let high = u16() else { return nil }
        return UInt32(low) | UInt32(high) << 16
    }

    /// Where the current continuation ends: the next boundary at or after
    /// the position, else the end.
    private mutating func segmentEnd() -> Int {
        while nextBoundary < boundaries.count, boundaries[nextBoundary] < position { nextBoundary += 1 }
        return nextBoundary < boundaries.count ? boundaries[nextBoundary] : data.count
    }

    /// A BIFF8 Unicode string: its length in characters (`lengthBytes`
    /// bytes), a flags byte, with `rich` the counts of formatting runs and
    /// phonetic data (skipped after the characters), then the characters,
    /// one byte (the low half of UTF-16) or two each. Characters split by
    /// a continuation go on after a new flags byte, which may change their
    /// width. Nil when the data ends before the header.
    mutating func unicodeString(lengthBytes: Int, rich: Bool) -> String? {
        guard let count = lengthBytes == 1 ? byte().map(UInt16.init) : u16(), let flags = byte() else { return nil }
        var runs = 0
        var extended = 0
        if rich, flags & 0x08 != 0 { runs = Int(u16() ?? 0) }
        if rich, flags & 0x04 != 0 { extended = Int(u32() ?? 0) }
        var wide = flags & 0x01 != 0
        var remaining = Int(count)
        var text = UTF8Builder()
        text.bytes.reserveCapacity(min(3 * remaining, 3 * (data.count - min(position, data.count))))
        while remaining > 0, position < data.count {
            let end = segmentEnd()
            let width = wide ? 2 : 1
            let available = min(remaining, (end - position) / width)
            for _ in 0..<available {
                text.append(wide ? UInt16(data[position]) | UInt16(data[position + 1]) << 8 : UInt16(data[position]))
                position += width
            }
            remaining -= available
            guard remaining > 0, end < data.count else { break }
            // An odd byte left at a continuation's end is damage: skipped.
            position = end
            guard let next = byte() else { break }
            wide = next & 0x01 != 0
        }
        // Runs are 4 bytes each; both are read plainly across boundaries.
        position = min(data.count, position + 4 * runs + extended)
        text.finish()
        return String(decoding: text.bytes, as: UTF8.self)
    }

    /// A BIFF5 string: its length in bytes (`lengthBytes` bytes), then
    /// the bytes in the workbook's code page.
    mutating func byteString(lengthBytes: Int, codePage: UInt16) -> String? {
        guard let count = lengthBytes == 1 ? byte().map(UInt16.init) : u16() else { return nil }
        let end = min(data.count, position + Int(count))
        let bytes = data[position..<end]
        position = end
        return ContinuedBytes.decode(bytes, codePage: codePage)
    }

    /// Bytes in a Windows or Mac code page (the workbook's CODEPAGE),
    /// decoded by ICU; Latin-1 when it cannot.
    static func decode(_ bytes: ArraySlice<UInt8>, codePage: UInt16) -> String {
        let charset = WindowsCodePage.charset(Int(codePage))
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return ICUCharset.decode(Array(bytes), charset: charset) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
    }
}

/// UTF-16 code units turned into UTF-8 as they come; an unpaired
/// surrogate becomes U+FFFD.
struct UTF8Builder {
    var bytes: [UInt8] = []
    private var high: UInt32?

    mutating func append(_ unit: UInt16) {
        let value = UInt32(unit)
        switch value {
        case 0xD800...0xDBFF:
            if high != nil { scalar(0xFFFD) }
            high = value
        case 0xDC00...0xDFFF:
            if let first = high {
                scalar(0x10000 + (first - 0xD800) << 10 + (value - 0xDC00))
                high = nil
            } else {
                scalar(0xFFFD)
            }
        default:
            if high != nil {
                scalar(0xFFFD)
                high = nil
            }
            scalar(value)
        }
    }

    /// Ends the text: a high surrogate left alone becomes U+FFFD.
    mutating func finish() {
        if high != nil { scalar(0xFFFD) }
        high = nil
    }

    private mutating func scalar(_ value: UInt32) {
        switch value {
        case ..<0x80:
            bytes.append(UInt8(value))
        case ..<0x800:
            bytes.append(UInt8(0xC0 | value >> 6))
            bytes.append(UInt8(0x80 | value & 0x3F))
        case ..<0x10000:
            bytes.append(UInt8(0xE0 | value >> 12))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | value >> 18))
            bytes.append(UInt8(0x80 | value >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
