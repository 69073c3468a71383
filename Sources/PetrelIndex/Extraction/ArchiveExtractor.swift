/// Archives (zip, tar plain or compressed with gzip, bzip2, xz, zstd,
/// lzip, lzma, lz4 or compress, 7z), read by libarchive: each regular member is a part under its path
/// in the archive ("notes/plan.md"), extracted by the registry by its name,
/// a nested archive in turn. Members with a binary extension are passed
/// over without being expanded; encrypted members, and members past the
/// ``ContainerLimits`` (a zip bomb), are skipped parts with the reason.
public struct ArchiveExtractor: ContainerExtractor {
    /// Extensions of members that are never documents (images, audio...):
    /// not expanded, not listed.
    public var binaryExtensions: Set<String>

    /// An archive extractor; members named with one of `binaryExtensions`
    /// are passed over.
    public init(binaryExtensions: Set<String> = ExtractorRegistry.defaultBinaryExtensions) {
        self.binaryExtensions = binaryExtensions
    }

    /// The extensions of the archives libarchive reads; compressed tar
    /// files by their double extension ("tar.gz") and their short one ("tgz").
    public static let extensions = [
        "zip", "tar", "tgz", "tar.gz", "tbz", "tbz2", "tar.bz2", "txz", "tar.xz", "tzst", "tar.zst", "tlz", "tar.lz",
        "tar.lzma", "tar.lz4", "taz", "tar.z", "7z",
    ]

    public func parts(of input: ExtractionInput, limits: ContainerLimits) throws(ExtractionError) -> [ContainerPart] {
        let members: [ArchiveReader.Member]
        do {
            members = try ArchiveReader.members(of: input.bytes, limits: limits, wanted: isWanted)
        } catch {
            switch error {
            case .encrypted: throw .encrypted
            case .unreadable(let reason): throw .unreadable(reason)
            }
        }
        // An archive whose member list is encrypted (7z -mhe) lists nothing.
        if members.count == 1, members[0].path.isEmpty, members[0].skipReason == "encrypted archive" { throw .encrypted }
        // A path stored twice (a tar appended to) is "path (2)" the second time.
        var paths = AttachmentNames()
        return members.map { member in
            let path = paths.unique(member.path)
            guard let bytes = member.bytes else {
                return ContainerPart(innerPath: path, content: .skipped(member.skipReason ?? "not read"))
            }
            return ContainerPart(innerPath: path, content: .file(name: Self.fileName(member.path), bytes: bytes))
        }
    }

    /// Whether a member is worth expanding: not macOS's resource forks
    /// (`__MACOSX/`, `._name`), not a binary format.
    private func isWanted(_ path: String) -> Bool {
        let name = Self.fileName(path)
        if path.hasPrefix("__MACOSX/") || name.hasPrefix("._") { return false }
        return !binaryExtensions.contains(FilePath.pathExtension(of: Array(name.utf8)))
    }

    /// The last component of a member's path.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
