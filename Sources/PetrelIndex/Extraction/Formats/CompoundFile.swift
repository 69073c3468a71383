import Foundation

/// An OLE2 compound file (Compound File Binary, [MS-CFB]), the container
/// of the binary Office formats: a small file system of sectors, with a
/// sector allocation table (FAT, located through the DIFAT), a mini FAT
/// for the short streams kept in the mini stream, and a directory.
///
/// Read from the file's bytes with bounds-checked reads only. Every chain
/// of sectors is checked as it is followed: a sector out of range, a
/// chain that loops or ends early, or a size larger than the file can
/// hold is an error, never a hang or a trap.
struct CompoundFile {
    /// One entry of the directory.
    struct Entry {
        /// The name (at most 31 UTF-16 units).
        var name: String
        /// 1: storage, 2: stream, 5: the root storage.
        var type: UInt8
        /// The siblings before and after it in its storage's tree, and
        /// (a storage's) the root of its children's tree: entry numbers.
        var left: UInt32
        var right: UInt32
        var child: UInt32
        /// The stream's first sector (in the mini stream when it is short).
        var start: UInt32
        /// The stream's length in bytes.
        var size: UInt64
    }

    private let bytes: [UInt8]
    private let sectorSize: Int
    private let sectorCount: Int
    private let miniCutoff: UInt64
    private let fat: [UInt32]
    private let miniFAT: [UInt32]
    private let miniStream: [UInt8]
    /// The directory, in the file's order; entry 0 is the root.
    let entries: [Entry]

    private static let endOfChain: UInt32 = 0xFFFF_FFFE
    private static let freeSector: UInt32 = 0xFFFF_FFFF
    private static let miniSectorSize = 64
    private static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    /// Reads the header, the FAT, the directory and the mini stream of
    /// the compound file `bytes`.
    init(_ bytes: [UInt8]) throws(ExtractionError) {
        guard bytes.count >= 512, bytes.starts(with: CompoundFile.signature) else {
            throw .unreadable("not an OLE compound file (no signature, or shorter than its header)")
        }
        self.bytes = bytes
        let shift = LittleEndian.u16(bytes, 0x1E) ?? 0
        guard shift == 9 || shift == 12 else { throw .unreadable("OLE compound file: unknown sector size (2^\(shift))") }
        let sectorSize = 1 << Int(shift)
        self.sectorSize = sectorSize
        // A last sector cut short is kept: its missing bytes are not read.
        let sectorCount = max(0, (bytes.count - sectorSize + sectorSize - 1) / sectorSize)
        self.sectorCount = sectorCount
        miniCutoff = UInt64(LittleEndian.u32(bytes, 0x38) ?? 4096)

        // The FAT's sectors: 109 in the header, the rest in DIFAT sectors.
        let fatSectorCount = Int(LittleEndian.u32(bytes, 0x2C) ?? 0)
        guard fatSectorCount <= sectorCount else {
            throw .unreadable("OLE compound file: \(fatSectorCount) FAT sectors declared in a file of \(sectorCount) sectors")
        }
        var fatSectors: [UInt32] = []
        for index in 0..<109 where fatSectors.count < fatSectorCount {
            guard let sector = LittleEndian.u32(bytes, 0x4C + 4 * index) else { break }
            fatSectors.append(sector)
        }
        var difat = LittleEndian.u32(bytes, 0x44) ?? CompoundFile.endOfChain
        var difatVisited = 0
        let perDIFAT = sectorSize / 4 - 1
        while fatSectors.count < fatSectorCount, difat != CompoundFile.endOfChain, difat != CompoundFile.freeSector {
            difatVisited += 1
            guard Int(difat) < sectorCount, difatVisited <= sectorCount else {
                throw .unreadable("OLE compound file: the DIFAT chain points out of the file or loops")
            }
            let base = (Int(difat) + 1) * sectorSize
            for index in 0..<perDIFAT where fatSectors.count < fatSectorCount {
                guard let sector = LittleEndian.u32(bytes, base + 4 * index) else { break }
                fatSectors.append(sector)
            }
            difat = LittleEndian.u32(bytes, base + 4 * perDIFAT) ?? CompoundFile.endOfChain
        }
        var fat: [UInt32] = []
        fat.reserveCapacity(fatSectors.count * sectorSize / 4)
        for sector in fatSectors {
            guard Int(sector) < sectorCount else { throw .unreadable("OLE compound file: a FAT sector lies outside the file") }
            let base = (Int(sector) + 1) * sectorSize
            for index in 0..<sectorSize / 4 {
                fat.append(LittleEndian.u32(bytes, base + 4 * index) ?? CompoundFile.freeSector)
            }
        }
        self.fat = fat

        // The directory: 128-byte entries in a chain of sectors.
        let directory = try CompoundFile.chain(from: LittleEndian.u32(bytes, 0x30) ?? CompoundFile.endOfChain, fat: fat,
                                                 count: sectorCount, unit: sectorSize, limit: nil) { sector in
            let base = (sector + 1) * sectorSize
            return bytes[min(base, bytes.count)..<min(base + sectorSize, bytes.count)]
        }
        var entries: [Entry] = []
        entries.reserveCapacity(directory.count / 128)
        var offset = 0
        while offset + 128 <= directory.count {
            let nameLength = min(64, Int(LittleEndian.u16(directory, offset + 0x40) ?? 0))
            var units: [UInt16] = []
            var index = 0
            while index + 1 < nameLength, let unit = LittleEndian.u16(directory, offset + index), unit != 0 {
                units.append(unit)
                index += 2
            }
            entries.append(Entry(name: String(decoding: units, as: UTF16.self), type: directory[offset + 0x42],
                                 left: LittleEndian.u32(directory, offset + 0x44) ?? CompoundFile.freeSector,
                                 right: LittleEndian.u32(directory, offset + 0x48) ?? CompoundFile.freeSector,
                                 child: LittleEndian.u32(directory, offset + 0x4C) ?? CompoundFile.freeSector,
                                 start: LittleEndian.u32(directory, offset + 0x74) ?? CompoundFile.endOfChain,
                                 // Version 3 files may leave junk in the high half.
                                 size: UInt64(LittleEndian.u32(directory, offset + 0x78) ?? 0)
                                    | (shift == 12 ? UInt64(LittleEndian.u32(directory, offset + 0x7C) ?? 0) << 32 : 0)))
            offset += 128
        }
        guard let root = entries.first, root.type == 5 else { throw .unreadable("OLE compound file: no root entry") }
        self.entries = entries

        // The mini FAT and the mini stream (the root entry's stream).
        let miniFATBytes = try CompoundFile.chain(from: LittleEndian.u32(bytes, 0x3C) ?? CompoundFile.endOfChain, fat: fat,
                                                    count: sectorCount, unit: sectorSize, limit: nil) { sector in
            let base = (sector + 1) * sectorSize
            return bytes[min(base, bytes.count)..<min(base + sectorSize, bytes.count)]
        }
        var miniFAT: [UInt32] = []
        miniFAT.reserveCapacity(miniFATBytes.count / 4)
        var position = 0
        while let value = LittleEndian.u32(miniFATBytes, position) {
            miniFAT.append(value)
            position += 4
        }
        self.miniFAT = miniFAT
        miniStream = root.size == 0 ? [] : try CompoundFile.chain(from: root.start, fat: fat, count: sectorCount, unit: sectorSize,
                                                                 limit: root.size) { sector in
            let base = (sector + 1) * sectorSize
            return bytes[min(base, bytes.count)..<min(base + sectorSize, bytes.count)]
        }
    }

    /// The bytes of the stream `name` (compared ignoring ASCII case) that
    /// sits directly in the root storage; nil when there is none.
    func stream(named name: String) throws(ExtractionError) -> [UInt8]? {
        guard let entry = rootChildren().first(where: { $0.type == 2 && $0.name.lowercased() == name.lowercased() }) else {
            return nil
        }
        return try contents(of: entry)
    }

    /// The fields of a SummaryInformation property set that a document
    /// index keeps.
    struct Summary: Equatable {
        var title: String?
        var subject: String?
        var author: String?
        var keywords: String?
    }

    /// The title, subject, author and keywords of the
    /// `\u{5}SummaryInformation` stream ([MS-OLEPS]); empty fields when the
    /// stream is missing or damaged.
    func summary() -> Summary {
        guard let stream = try? stream(named: "\u{5}SummaryInformation"),
              LittleEndian.u16(stream, 0) == 0xFFFE, let section = LittleEndian.u32(stream, 44).map(Int.init),
              let count = LittleEndian.u32(stream, section + 4) else { return Summary() }
        var values: [UInt32: (type: UInt32, offset: Int)] = [:]
        for index in 0..<min(Int(count), stream.count / 8) {
            guard let id = LittleEndian.u32(stream, section + 8 + 8 * index),
                  let offset = LittleEndian.u32(stream, section + 12 + 8 * index),
                  let type = LittleEndian.u32(stream, section + Int(offset)) else { break }
            values[id] = (type, section + Int(offset) + 4)
        }
        // The code page of 8-bit strings (PID 1, a 16-bit integer).
        var codePage: UInt16 = 1252
        if let entry = values[1], entry.type == 2, let value = LittleEndian.u16(stream, entry.offset) { codePage = value }
        func text(_ id: UInt32) -> String? {
            guard let entry = values[id], let length = LittleEndian.u32(stream, entry.offset).map(Int.init) else { return nil }
            let start = entry.offset + 4
            var result: String
            switch entry.type {
            case 0x1E where codePage == 1200:
                result = CompoundFile.utf16(stream, start, min(length, stream.count - start) / 2)
            case 0x1E:
                result = ContinuedBytes.decode(stream[start..<start + max(0, min(length, stream.count - start))], codePage: codePage)
            case 0x1F:
                result = CompoundFile.utf16(stream, start, min(length, (stream.count - start) / 2))
            default:
                return nil
            }
            if let end = result.firstIndex(of: "\u{0}") { result = String(result[..<end]) }
            result = result.trimmingWhitespace
            return result.isEmpty ? nil : result
        }
        return Summary(title: text(2), subject: text(3), author: text(4), keywords: text(5))
    }

    private static func utf16(_ bytes: [UInt8], _ start: Int, _ count: Int) -> String {
        var units: [UInt16] = []
        for index in 0..<max(0, count) {
            guard let unit = LittleEndian.u16(bytes, start + 2 * index) else { break }
            units.append(unit)
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// The entries directly in the root storage: its red-black tree of
    /// children, walked with each entry visited at most once.
    func rootChildren() -> [Entry] {
        var found: [Entry] = []
        var visited = Set<UInt32>()
        var pending = [entries[0].child]
        while let index = pending.popLast() {
            guard Int(index) < entries.count, visited.insert(index).inserted else { continue }
            let entry = entries[Int(index)]
            found.append(entry)
            pending.append(entry.left)
            pending.append(entry.right)
        }
        return found
    }

    /// The bytes of a stream entry, from the mini stream when it is shorter
    /// than the cutoff, else from the file's sectors.
    func contents(of entry: Entry) throws(ExtractionError) -> [UInt8] {
        guard entry.size > 0 else { return [] }
        if entry.size < miniCutoff {
            let miniStream = miniStream
            let size = CompoundFile.miniSectorSize
            return try CompoundFile.chain(from: entry.start, fat: miniFAT, count: miniStream.count / size, unit: size,
                                          limit: entry.size) { sector in
                miniStream[sector * size..<sector * size + size]
            }
        }
        let bytes = bytes
        let sectorSize = sectorSize
        return try CompoundFile.chain(from: entry.start, fat: fat, count: sectorCount, unit: sectorSize, limit: entry.size) { sector in
            let base = (sector + 1) * sectorSize
            return bytes[min(base, bytes.count)..<min(base + sectorSize, bytes.count)]
        }
    }

    /// The bytes of the chain of sectors that starts at `start`, each
    /// `unit` bytes read by `read`, the next found in `fat`. With a
    /// `limit`, the chain must hold that many bytes and is read no
    /// further; without, it runs to its end. A sector at or past `count`
    /// or met twice (a loop) is an error.
    private static func chain(from start: UInt32, fat: [UInt32], count: Int, unit: Int, limit: UInt64?,
                              read: (Int) -> ArraySlice<UInt8>) throws(ExtractionError) -> [UInt8] {
        if let limit, limit > UInt64(count) * UInt64(unit) {
            throw .unreadable("OLE compound file: a stream of \(limit) bytes declared in a file that holds fewer")
        }
        var result: [UInt8] = []
        if let limit { result.reserveCapacity(Int(limit)) }
        var visited = [Bool](repeating: false, count: count)
        var sector = start
        while sector != endOfChain {
            if let limit, UInt64(result.count) >= limit { break }
            guard Int(sector) < count, !visited[Int(sector)] else {
                throw .unreadable("OLE compound file: a chain of sectors points out of the file or loops")
            }
            visited[Int(sector)] = true
            result.append(contentsOf: read(Int(sector)))
            guard Int(sector) < fat.count else { throw .unreadable("OLE compound file: a chain of sectors points out of the file") }
            sector = fat[Int(sector)]
        }
        if let limit {
            guard UInt64(result.count) >= limit else { throw .unreadable("OLE compound file: a stream's chain of sectors ends early") }
            result.removeSubrange(Int(limit)...)
        }
        return result
    }
}

/// Bounds-checked little-endian reads from bytes: nil past the end.
enum LittleEndian {
    static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    static func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64? {
        guard let low = u32(bytes, offset), let high = u32(bytes, offset + 4) else { return nil }
        return UInt64(low) | UInt64(high) << 32
    }
}
