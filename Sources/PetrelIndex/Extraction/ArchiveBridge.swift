// Archives through libarchive: the only file of PetrelIndex that hands
// buffers to libarchive. Zip, tar (plain or compressed with gzip, bzip2, xz,
// zstd), 7z, cpio and ar, and single files compressed with bzip2, xz, lzma,
// zstd, lzip, lz4 or compress, read from memory, within limits, so that a
// zip bomb or a damaged archive stays harmless.
import CPetrelArchive

/// Reads the members of an archive held in memory.
enum ArchiveReader {
    /// One regular file of an archive.
    struct Member: Sendable {
        /// The member's path in the archive, as stored ("notes/plan.md").
        var path: String
        /// Its bytes, or nil when it was not read (see ``skipReason``).
        var bytes: [UInt8]?
        /// Why the member was not read: encrypted, or past a limit.
        var skipReason: String?
    }

    enum Failure: Error, Sendable {
        /// Not an archive libarchive knows, or damaged before its first member.
        case unreadable(String)
        /// The archive is encrypted as a whole (its member list too).
        case encrypted
    }

    /// The regular-file members of `archive`, in stored order; members for
    /// which `wanted` is false are passed over without being expanded.
    /// Members past `limits.maximumParts`, larger than
    /// `limits.maximumPartBytes`, past `limits.maximumTotalBytes` in all, or
    /// expanding more than `limits.maximumCompressionRatio` times the
    /// archive's size, come back with a skip reason and no bytes; a member
    /// damaged midway ends the listing there, keeping what came before.
    /// With `zipOnly`, only the zip format is tried (the office formats'
    /// packages): setting up every format and filter took most of the time
    /// of a small document.
    static func members(of archive: [UInt8], limits: ContainerLimits, zipOnly: Bool = false, wanted: (String) -> Bool = { _ in true }) throws(Failure) -> [Member] {
        if let reason = petrel_archive_unavailable() {
            throw .unreadable("archives need libarchive, which cannot be loaded: \(String(cString: reason))")
        }
        guard let reader = petrel_archive_read_new() else { throw .unreadable("libarchive could not start") }
        defer { petrel_archive_read_free(reader) }
        if zipOnly {
            petrel_archive_read_support_format_zip(reader)
        } else {
            petrel_archive_read_support_filter_all(reader)
            petrel_archive_read_support_format_all(reader)
        }
        // The ratio is bounded per archive: a member may not expand past
        // ratio × the archive's size (and never less than a megabyte).
        let scaled = archive.count.multipliedReportingOverflow(by: max(1, limits.maximumCompressionRatio))
        let ratioBound = max(1 << 20, scaled.overflow ? Int.max : scaled.partialValue)
        // libarchive reads the buffer until it is freed: everything
        // happens while the bytes are pinned.
        let listing: Result<[Member], Failure> = archive.withUnsafeBytes { buffer in
            guard petrel_archive_read_open_memory(reader, buffer.baseAddress, buffer.count) == ARCHIVE_OK else {
                let text = message(reader, or: "not an archive")
                return .failure(isEncryptionMessage(text) ? .encrypted : .unreadable(text))
            }
            return .success(readMembers(reader, limits: limits, ratioBound: ratioBound, wanted: wanted))
        }
        return try listing.get()
    }

    private static func isEncryptionMessage(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.contains("encrypt") || lowered.contains("passphrase") || lowered.contains("password")
    }

    private static func readMembers(_ reader: OpaquePointer, limits: ContainerLimits, ratioBound: Int, wanted: (String) -> Bool) -> [Member] {
        var members: [Member] = []
        var total = 0
        var entry: OpaquePointer?
        while true {
            let result = petrel_archive_read_next_header(reader, &entry)
            if result == ARCHIVE_EOF { break }
            guard result == ARCHIVE_OK || result == ARCHIVE_WARN, let entry else {
                if members.isEmpty, isEncryptionMessage(message(reader, or: "")) {
                    members.append(Member(path: "", bytes: nil, skipReason: "encrypted archive"))
                }
                break
            }
            guard petrel_archive_entry_is_regular_file(entry) != 0 else { continue }
            let path = pathname(entry)
            guard !path.isEmpty, wanted(path) else { continue }
            if members.count >= limits.maximumParts {
                members.append(Member(path: path, bytes: nil, skipReason: "more than \(limits.maximumParts) members"))
                break
            }
            if petrel_archive_entry_is_encrypted(entry) != 0 {
                members.append(Member(path: path, bytes: nil, skipReason: "encrypted"))
                continue
            }
            let declared = petrel_archive_entry_size_is_set(entry) != 0 ? Int(petrel_archive_entry_size(entry)) : -1
            let partLimit = max(0, min(limits.maximumPartBytes, limits.maximumTotalBytes - total, ratioBound))
            if declared > partLimit {
                members.append(Member(path: path, bytes: nil, skipReason: "\(declared) bytes, larger than the size limit (\(partLimit) bytes)"))
                continue
            }
            switch readData(reader, limit: partLimit, sizeHint: declared) {
            case .success(let data):
                total += data.bytes.count
                members.append(Member(path: path, bytes: data.bytes, skipReason: nil))
            case .failure(.tooLarge):
                members.append(Member(path: path, bytes: nil, skipReason: "expands past the size limit (\(partLimit) bytes)"))
            case .failure(.damaged(let message)):
                let reason = message ?? "damaged member"
                let isEncrypted = isEncryptionMessage(reason)
                members.append(Member(path: path, bytes: nil, skipReason: isEncrypted ? "encrypted" : "damaged: \(reason)"))
                if !isEncrypted { return members }
            }
        }
        return members
    }

    /// The bytes of a file compressed whole by any compression libarchive
    /// reads but gzip (bzip2, xz, lzma, zstd, lzip, lz4, compress): the
    /// first `prefix` bytes (`isCut` when there was more, which is not
    /// expanded), or `.tooLarge` past `limit` bytes.
    static func decompressed(_ input: [UInt8], limit: Int, prefix: Int) throws(CompressedFile.Failure) -> (bytes: [UInt8], isCut: Bool) {
        if let reason = petrel_archive_unavailable() {
            throw .damaged("compressed files need libarchive, which cannot be loaded: \(String(cString: reason))")
        }
        guard let reader = petrel_archive_read_new() else { throw .damaged("libarchive could not start") }
        defer { petrel_archive_read_free(reader) }
        petrel_archive_read_support_filter_all(reader)
        petrel_archive_read_support_format_raw(reader)
        let result: Result<(bytes: [UInt8], isCut: Bool), CompressedFile.Failure> = input.withUnsafeBytes { buffer in
            guard petrel_archive_read_open_memory(reader, buffer.baseAddress, buffer.count) == ARCHIVE_OK else {
                return .failure(.damaged(message(reader, or: "not compressed data")))
            }
            var entry: OpaquePointer?
            let header = petrel_archive_read_next_header(reader, &entry)
            guard header == ARCHIVE_OK || header == ARCHIVE_WARN else {
                return .failure(.damaged(message(reader, or: "damaged compressed data")))
            }
            // The raw format takes any bytes: only a decompression filter
            // (the last one is "none", the bytes as given) makes them a
            // compressed file.
            guard petrel_archive_filter_count(reader) > 1 else { return .failure(.damaged("not compressed data")) }
            let format = petrel_archive_filter_name(reader, 0).map { String(cString: $0) } ?? "compressed"
            return readData(reader, limit: limit, prefix: prefix).mapError { failure in
                switch failure {
                case .tooLarge(let size): .tooLarge(size)
                case .damaged(let message): .damaged("\(format): \(message ?? "truncated or damaged data")")
                }
            }
        }
        return try result.get()
    }

    /// The bytes of the one member at `path` (an OOXML or ODF part), nil
    /// when the archive has none; throws when the archive cannot be read.
    static func member(_ path: String, of archive: [UInt8], limits: ContainerLimits) throws(Failure) -> Member? {
        try members(of: archive, limits: limits, wanted: { $0 == path }).first
    }

    private enum DataFailure: Error {
        /// Past the limit, with the bytes expanded by then.
        case tooLarge(Int)
        /// libarchive's reason, when it gives one.
        case damaged(String?)
    }

    /// The data of the current entry: its first `prefix` bytes (`isCut`
    /// when there was more, which is not expanded), or `.tooLarge` past
    /// `limit` bytes.
    private static func readData(_ reader: OpaquePointer, limit: Int, prefix: Int = .max, sizeHint: Int = -1)
        -> Result<(bytes: [UInt8], isCut: Bool), DataFailure> {
        var bytes: [UInt8] = []
        if sizeHint > 0 { bytes.reserveCapacity(min(sizeHint, limit)) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { petrel_archive_read_data(reader, $0.baseAddress, $0.count) }
            if count == 0 { return .success((bytes, false)) }
            if count < 0 { return .failure(.damaged(message(reader))) }
            if bytes.count + count > prefix, prefix <= limit {
                bytes.append(contentsOf: chunk[0..<(prefix - bytes.count)])
                return .success((bytes, true))
            }
            if bytes.count + count > limit { return .failure(.tooLarge(bytes.count + count)) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// A member's path: UTF-8 when the archive says so, else the stored
    /// bytes decoded leniently (old zip files store code page 437 names).
    private static func pathname(_ entry: OpaquePointer) -> String {
        if let utf8 = petrel_archive_entry_pathname_utf8(entry) { return normalized(String(cString: utf8)) }
        // String(cString:) repairs bytes that are not UTF-8, as decoding does.
        if let raw = petrel_archive_entry_pathname(entry) { return normalized(String(cString: raw)) }
        return ""
    }

    /// `./a/b` → `a/b`; a leading slash dropped.
    private static func normalized(_ path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        while path.hasPrefix("/") { path = path.dropFirst() }
        return String(path)
    }

    private static func message(_ reader: OpaquePointer) -> String? {
        petrel_archive_error_string(reader).map { String(cString: $0) }
    }

    private static func message(_ reader: OpaquePointer, or fallback: String) -> String {
        message(reader) ?? fallback
    }
}
