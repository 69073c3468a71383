/// Which extractor reads which file: by extension, with gzip unwrapped
/// first (`notes.txt.gz` is text) and unknown extensions sniffed (text is
/// indexed as "txt", binary is skipped).
public struct ExtractorRegistry: Sendable {
    private var byExtension: [String: any DocumentExtractor] = [:]
    private var containersByExtension: [String: any ContainerExtractor] = [:]
    /// Extensions of formats that are never text: skipped without reading.
    public var binaryExtensions: Set<String>
    /// The most bytes a compressed file may expand to.
    public var maximumDecompressedSize = 64 * 1024 * 1024
    /// The most decompressed bytes of text kept from a compressed text
    /// file (nil: no cut): the rest is not inflated and the document is
    /// marked ``ExtractedDocument/isTruncated``, as a long plain file's
    /// text is cut to an update's text budget.
    public var maximumTextBytes: Int?
    /// How deep containers may nest (an attachment inside a message inside
    /// a mailbox is depth 2); deeper parts are skipped.
    public var maximumNestingDepth = 4
    /// The bounds every container is read within.
    public var containerLimits = ContainerLimits()

    /// An empty registry: every file is sniffed as plain text.
    public init() {
        binaryExtensions = []
    }

    /// Registers `extractor` for files whose (lowercased) extension is one of `extensions`.
    public mutating func register(_ extractor: any DocumentExtractor, forExtensions extensions: [String]) {
        for ext in extensions { byExtension[ext.lowercased()] = extractor }
    }

    /// Registers a container format (archives, mail) for files whose
    /// (lowercased) extension is one of `extensions`.
    public mutating func register(container extractor: any ContainerExtractor, forExtensions extensions: [String]) {
        for ext in extensions {
            containersByExtension[ext.lowercased()] = extractor
            binaryExtensions.remove(ext.lowercased())
        }
    }

    /// The container format registered for a file name, if any: by its
    /// double extension first when the one before last is "tar"
    /// ("tar.gz"), then by its extension.
    func container(forName name: String) -> (any ContainerExtractor)? {
        let bytes = Array(name.utf8)
        let ext = FilePath.pathExtension(of: bytes)
        if !ext.isEmpty, bytes.count > ext.utf8.count + 1 {
            let stem = bytes.dropLast(ext.utf8.count + 1)
            if FilePath.pathExtension(of: stem) == "tar", let container = containersByExtension["tar." + ext] { return container }
        }
        return containersByExtension[ext]
    }

    /// The container format of a file: by its name, else, for a name no
    /// format claims, mail recognised by its first lines (a Maildir file,
    /// a spool mailbox), read by the containers registered for "eml" and
    /// "mbox".
    func container(for input: ExtractionInput) -> (any ContainerExtractor)? {
        if let container = container(forName: input.name) { return container }
        let ext = FilePath.pathExtension(of: Array(input.name.utf8))
        guard byExtension[ext] == nil, !isKnownBinary(name: input.name), !ManPageExtractor.isManualName(input.name) else { return nil }
        switch MailSniffer.kind(of: input.bytes) {
        case .message: return containersByExtension["eml"]
        case .mailbox: return containersByExtension["mbox"]
        case nil: return nil
        }
    }

    /// Every document a file holds: the file's own document, or, for a
    /// container (an archive, a mailbox, a mail with attachments), each
    /// document inside it with its inner path, parts of parts extracted in
    /// turn to ``maximumNestingDepth``. Inner parts that cannot be read are
    /// listed in ``ExtractedFile/skippedParts``; only a file that cannot be
    /// read at all throws.
    public func extractAll(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedFile {
        guard let container = container(for: input) else {
            return ExtractedFile(documents: [try extractUnwrappingCompression(input)])
        }
        var file = ExtractedFile(documents: [])
        var budget = containerLimits.maximumTotalBytes
        try collect(container, input, innerPath: nil, depth: 1, budget: &budget, into: &file)
        return file
    }

    private func collect(_ container: any ContainerExtractor, _ input: ExtractionInput, innerPath: String?, depth: Int,
                         budget: inout Int, into file: inout ExtractedFile) throws(ExtractionError) {
        var limits = containerLimits
        limits.maximumTotalBytes = max(0, budget)
        limits.maximumPartBytes = min(limits.maximumPartBytes, limits.maximumTotalBytes)
        var parts = try container.parts(of: input, limits: limits)
        for index in parts.indices {
            // Each part's bytes are let go once it is extracted, so that
            // an archive's members are not all held while their text is.
            let part = parts[index]
            parts[index].content = .skipped("")
            let path = DocumentLocation.join(innerPath, part.innerPath)
            switch part.content {
            case .document(var document):
                document.innerPath = path
                file.documents.append(document)
            case .skipped(let reason):
                file.skippedParts.append((path ?? "", reason))
            case .file(let name, let bytes):
                budget -= bytes.count
                if budget < 0 {
                    file.skippedParts.append((path ?? "", "the container expands past \(containerLimits.maximumTotalBytes) bytes"))
                    continue
                }
                let member = ExtractionInput(bytes: bytes, name: name, path: input.path)
                if let inner = self.container(for: member) {
                    guard depth < maximumNestingDepth else {
                        file.skippedParts.append((path ?? "", "nested deeper than \(maximumNestingDepth) containers"))
                        continue
                    }
                    do {
                        try collect(inner, member, innerPath: path, depth: depth + 1, budget: &budget, into: &file)
                    } catch {
                        file.skippedParts.append((path ?? "", error.description))
                    }
                    continue
                }
                if isKnownBinary(name: name) {
                    file.skippedParts.append((path ?? "", ExtractionError.binary.description))
                    continue
                }
                do {
                    var document = try extract(member)
                    document.innerPath = path
                    file.documents.append(document)
                } catch {
                    file.skippedParts.append((path ?? "", error.description))
                }
            }
        }
    }

    /// Plain-text formats whose kind is their extension.
    public static let textExtensions = [
        "txt", "text", "log", "rst", "adoc", "asciidoc", "pod", "tex", "texi", "org", "json", "jsonl", "csv", "tsv",
        "yaml", "yml", "toml", "ini", "cfg", "conf", "xml", "svg", "properties",
        "srt", "vtt", "bib", "diff", "patch",
    ]
    /// Source code, indexed as text with its extension as kind.
    public static let sourceExtensions = [
        "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "m", "mm", "swift", "go", "rs", "py", "pyi", "rb", "pl", "pm", "t", "php",
        "java", "kt", "kts", "scala", "cs", "fs", "js", "mjs", "cjs", "ts", "tsx", "jsx", "css", "scss", "less", "sh", "bash",
        "zsh", "fish", "ps1", "lua", "r", "jl", "hs", "ml", "mli", "ex", "exs", "erl", "clj", "el", "lisp", "scm", "sql",
        "s", "asm", "zig", "nim", "d", "dart", "vim", "cmake", "mk", "make", "gradle", "proto", "graphql", "awk", "sed", "tcl",
        "v", "sv", "vhd", "f", "f90", "pas", "ada", "adb", "ads", "cob", "groovy", "mod", "sum", "lock", "tmpl", "tpl",
    ]
    /// Formats skipped without reading: images, audio, video, archives
    /// libarchive does not read as documents (rar; jar, apk and deb hold
    /// code and packages), compiled code, fonts, databases.
    public static let defaultBinaryExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "bmp", "ico", "icns", "webp", "tif", "tiff", "heic", "psd", "xcf", "mp3", "mp4", "m4a",
        "m4v", "ogg", "oga", "ogv", "opus", "wav", "flac", "aac", "avi", "mov", "mkv", "webm", "wmv", "jar", "war",
        "rar", "cab", "so", "o", "a", "lib", "dylib", "dll",
        "exe", "class", "pyc", "pyo", "wasm", "woff", "woff2", "ttf", "otf", "eot", "sqlite", "sqlite3", "db", "bin", "dat",
        "iso", "img", "dmg", "deb", "rpm", "apk", "mo", "gmo", "pack", "idx", "npy", "npz", "pkl", "parquet", "DS_Store",
    ]

    /// Office Open XML extensions, by family.
    public static let ooxmlExtensions: [OOXMLExtractor.Family: [String]] = [
        .wordprocessing: ["docx", "docm", "dotx", "dotm"],
        .spreadsheet: ["xlsx", "xlsm", "xltx", "xltm"],
        .presentation: ["pptx", "pptm", "ppsx", "ppsm", "potx", "potm"],
    ]
    /// OpenDocument extensions (zipped, templates and flat XML) and those
    /// of OpenOffice.org 1.x, by kind.
    public static let openDocumentExtensions: [String: [String]] = [
        "odt": ["odt", "ott", "fodt"],
        "ods": ["ods", "ots", "fods"],
        "odp": ["odp", "otp", "fodp"],
        "odg": ["odg", "otg", "fodg"],
        // OpenOffice.org 1.x and StarOffice 6–7 (2002–2005): the same
        // package, read by the same reader; text, master document, sheet,
        // presentation and drawing, with their templates.
        "sxw": ["sxw", "stw"],
        "sxg": ["sxg"],
        "sxc": ["sxc", "stc"],
        "sxi": ["sxi", "sti"],
        "sxd": ["sxd", "std"],
    ]
    /// Legacy binary Office extensions, by format.
    public static let legacyOfficeExtensions: [LegacyOfficeExtractor.Format: [String]] = [
        .doc: ["doc", "dot"],
        .xls: ["xls", "xlt"],
        .ppt: ["ppt", "pps", "pot"],
    ]

    /// Every format PetrelIndex reads: text, Markdown, HTML, PDF (with
    /// pdftotext), DjVu (with djvutxt), PostScript (with Ghostscript and
    /// pdftotext), source code and light markup, GNU Info manuals, office
    /// documents (OOXML, OpenDocument and OpenOffice.org 1.x, RTF, AbiWord,
    /// Gnumeric; doc, xls and ppt with antiword and catdoc), EPUB,
    /// FictionBook (FB2) and saved web pages (MHTML); archives (zip, tar,
    /// 7z) and mail (eml, mbox, Maildir files) as containers of documents.
    public static let standard: ExtractorRegistry = {
        var registry = ExtractorRegistry()
        registry.binaryExtensions = defaultBinaryExtensions
        for ext in textExtensions + sourceExtensions {
            let kind = ["text", "log"].contains(ext) ? "txt" : ext == "asciidoc" ? "adoc" : ext == "yml" ? "yaml" : ext
            registry.register(PlainTextExtractor(kind: kind), forExtensions: [ext])
        }
        registry.register(MarkdownExtractor(), forExtensions: ["md", "markdown", "mdown", "mkd", "mdx"])
        registry.register(HTMLExtractor(), forExtensions: ["html", "htm", "xhtml", "shtml"])
        registry.register(PDFExtractor(), forExtensions: ["pdf"])
        registry.register(DjVuExtractor(), forExtensions: ["djvu", "djv"])
        registry.register(ManPageExtractor(), forExtensions: ["man", "1", "2", "3", "4", "5", "6", "7", "8", "9"])
        for (family, extensions) in ooxmlExtensions {
            registry.register(OOXMLExtractor(family), forExtensions: extensions)
        }
        for (kind, extensions) in openDocumentExtensions {
            registry.register(OpenDocumentExtractor(kind: kind), forExtensions: extensions)
        }
        for (format, extensions) in legacyOfficeExtensions {
            registry.register(LegacyOfficeExtractor(format), forExtensions: extensions)
        }
        registry.register(EPUBExtractor(), forExtensions: ["epub", "kepub"])
        registry.register(FB2Extractor(), forExtensions: ["fb2"])
        registry.register(RTFExtractor(), forExtensions: ["rtf"])
        registry.register(PostScriptExtractor(), forExtensions: ["ps", "eps", "epsf", "epsi"])
        registry.register(AbiWordExtractor(), forExtensions: ["abw", "zabw", "awt"])
        registry.register(GnumericExtractor(), forExtensions: ["gnumeric", "gnm"])
        registry.register(InfoExtractor(), forExtensions: ["info"])
        registry.register(MHTMLExtractor(), forExtensions: ["mht", "mhtml"])
        registry.register(container: ArchiveExtractor(), forExtensions: ArchiveExtractor.extensions)
        registry.register(container: MailExtractor(), forExtensions: ["eml"])
        registry.register(container: MboxExtractor(), forExtensions: ["mbox", "mbx"])
        return registry
    }()

    /// Whether a file name says binary, so the file need not be read.
    public func isKnownBinary(name: String) -> Bool {
        if container(forName: name) != nil { return false }
        let ext = FilePath.pathExtension(of: Array(name.utf8))
        if let inner = CompressedFile.innerName(of: name) {
            return FilePath.pathExtension(of: Array(inner.utf8)) == "tar" || isKnownBinary(name: inner)
        }
        return binaryExtensions.contains(ext)
    }

    /// Whether a file must be read whole to be extracted: compressed files
    /// and formats whose extractor says so (PDF). Others may be cut to an
    /// update's text budget.
    public func readsWholeFile(name: String) -> Bool {
        if container(forName: name) != nil { return true }
        let ext = FilePath.pathExtension(of: Array(name.utf8))
        if CompressedFile.extensions.contains(ext) || containersByExtension[ext] != nil { return true }
        if InfoExtractor.isPartName(name), let info = byExtension["info"] { return info.needsWholeFile }
        return byExtension[ext]?.needsWholeFile ?? false
    }

    /// Extracts a file's document, unwrapping compression and choosing by
    /// extension. A container gives its own document (a mail's message);
    /// one with none of its own (an archive, a mailbox) is `binary` here:
    /// read its documents with ``extractAll(_:)``.
    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        if container(for: input) != nil {
            guard let own = try extractAll(input).documents.first(where: { $0.innerPath == nil }) else { throw .binary }
            return own
        }
        return try extractUnwrappingCompression(input)
    }

    /// How much of a compressed file is expanded first, to tell binary
    /// data: enough for TextDecoding's test of the first 8 KB of the text,
    /// in UTF-16 too.
    static let compressedHeadBytes = 64 * 1024

    private func extractUnwrappingCompression(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        var input = input
        var ext = FilePath.pathExtension(of: Array(input.name.utf8))
        var isCut = false
        let compressedName = CompressedFile.innerName(of: input.name)
        if compressedName != nil || Gzip.isCompressed(input.bytes) {
            if ext == "gz", !Gzip.isCompressed(input.bytes) { throw .unreadable("not gzip data") }
            let innerName = compressedName ?? input.name
            // Text may be cut like a plain file's; formats that need the
            // whole file (PDF) are expanded whole, within the limit.
            let readsWhole = readsWholeFile(name: innerName)
            let prefix = readsWhole ? Int.max : (maximumTextBytes ?? Int.max)
            // A compressed binary file (a kernel module, an image) is known
            // by its first bytes, as text files are (TextDecoding looks at
            // the first 8 KB): expanding only those spares expanding the
            // text budget (8 MB of xz: 0.2 s). A PDF under another name is
            // no text either, and is read whole.
            if !readsWhole, let head = try? CompressedFile.decompress(input.bytes, limit: maximumDecompressedSize, prefix: Self.compressedHeadBytes).bytes,
               !head.starts(with: Array("%PDF".utf8)), TextDecoding.decode(head) == nil {
                throw .binary
            }
            do {
                (input.bytes, isCut) = try CompressedFile.decompress(input.bytes, limit: maximumDecompressedSize, prefix: prefix)
                if isCut { input.bytes = TextDecoding.droppingIncompleteTail(input.bytes) }
            } catch {
                switch error {
                case .damaged(let reason): throw .unreadable(reason)
                case .tooLarge(let size): throw .tooLarge(Int64(size))
                }
            }
            input.name = innerName
            ext = FilePath.pathExtension(of: Array(input.name.utf8))
            if binaryExtensions.contains(ext) { throw .binary }
        }
        var document = try extractUnwrapped(input, extension: ext)
        document.isTruncated = document.isTruncated || isCut
        return document
    }

    private func extractUnwrapped(_ input: ExtractionInput, extension ext: String) throws(ExtractionError) -> ExtractedDocument {
        if let extractor = byExtension[ext] { return try extractor.extract(input) }
        // Manual sections with a suffix (open.3pm, SSL_read.3ssl, ls.1p).
        if ManPageExtractor.isManualName(input.name), let extractor = byExtension["man"] { return try extractor.extract(input) }
        // The parts of a long Info manual (find.info-1, find.info-2).
        if InfoExtractor.isPartName(input.name), let extractor = byExtension["info"] { return try extractor.extract(input) }
        // Unknown or no extension: HTML when it says so, else plain text.
        if input.bytes.prefix(512).starts(with: Array("%PDF".utf8)), let extractor = byExtension["pdf"] {
            return try extractor.extract(input)
        }
        let head = input.bytes.prefix(256).map(HTMLEntities.lowercased)
        if head.firstRange(of: Array("<!doctype html".utf8)) != nil || head.firstRange(of: Array("<html".utf8)) != nil {
            return try HTMLExtractor().extract(input)
        }
        return try PlainTextExtractor(kind: "txt").extract(input)
    }
}
