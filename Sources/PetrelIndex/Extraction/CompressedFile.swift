/// A file compressed whole, not an archive: `notes.txt.gz`, `server.log.xz`,
/// `report.pdf.bz2`. Its document is the one of the file inside, named
/// without the compression's extension. gzip is inflated by zlib
/// (``Gzip``); bzip2, xz, lzma, zstd, lzip, lz4 and compress (`.Z`) by
/// libarchive (``ArchiveReader/decompressed(_:limit:prefix:)``), which is
/// loaded only when such a file is met.
enum CompressedFile {
    /// The extensions of files compressed whole, lowercased (`.Z` is
    /// compress; `.z`, an old gzip name, is read by its bytes).
    static let extensions: Set<String> = ["gz", "z", "bz2", "xz", "lzma", "zst", "lz", "lz4"]

    enum Failure: Error, Sendable {
        case damaged(String)
        case tooLarge(Int)
    }

    /// The name of the file inside (`notes.txt` for `notes.txt.xz`); nil
    /// for a name without a compression extension.
    static func innerName(of name: String) -> String? {
        let ext = FilePath.pathExtension(of: Array(name.utf8))
        guard extensions.contains(ext) else { return nil }
        return String(name.dropLast(ext.count + 1))
    }

    /// The first `prefix` decompressed bytes (`isCut` when there was more:
    /// the rest is not expanded), or `.tooLarge` past `limit` bytes, so
    /// that a decompression bomb stays bounded. The format is recognised by
    /// the bytes, not the name.
    static func decompress(_ bytes: [UInt8], limit: Int, prefix: Int) throws(Failure) -> (bytes: [UInt8], isCut: Bool) {
        if Gzip.isCompressed(bytes) { return try Gzip.decompress(bytes, limit: limit, prefix: prefix) }
        return try ArchiveReader.decompressed(bytes, limit: limit, prefix: prefix)
    }
}
