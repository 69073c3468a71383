import Foundation
import PetrelIndex

// Every extractor, through the registry an update uses: the file's name
// picks the format as it does for a real file, containers (archives,
// mail) are opened and their parts extracted in turn.
//
// Input: byte 0 picks the file name's extension from ``extensions``
// (modulo its length); the rest is the file.

/// The extensions the fuzzer names files with. The formats with an
/// extractor of their own come first, in a fixed order, so that a corpus
/// entry keeps its format when the registry's lists grow (byte 0 below
/// `formats.count` always picks the same one); then every plain-text and
/// source extension the registry lists. PDF and PostScript are left out:
/// each one starts `pdftotext` (and `gs`), programs of their own, and takes
/// milliseconds. Extensions
/// no extractor knows yet (office, mail and archive formats on a branch
/// without them) are sniffed or skipped as binary, as a real file would be.
let formats = [
    "", "txt", "md", "html", "xhtml", "man", "1", "3pm", "gz", "txt.gz", "html.gz", "tar.gz",
    "docx", "xlsx", "pptx", "odt", "ods", "odp", "fodt", "fods", "fodp", "epub", "rtf", "doc", "xls", "ppt",
    "eml", "mbox", "zip", "tar", "tgz", "tbz2", "txz", "7z", "jar", "xml", "svg", "json", "csv", "rst", "pm",
    "abw", "zabw", "gnumeric", "info", "info.gz", "mhtml", "sxw", "sxc", "sxi",
]
let extensions: [String] = {
    var list = formats
    for ext in ExtractorRegistry.textExtensions + ExtractorRegistry.sourceExtensions where !list.contains(ext) {
        list.append(ext)
    }
    return list
}()

/// The standard registry with smaller bounds: an input of a few kilobytes
/// inflating to the default 64 MiB only slows the search down (the bounds
/// themselves are tested in the test suite).
let registry: ExtractorRegistry = {
    var registry = ExtractorRegistry.standard
    registry.maximumDecompressedSize = 4 << 20
    registry.containerLimits = ContainerLimits(
        maximumTotalBytes: 8 << 20, maximumPartBytes: 4 << 20, maximumCompressionRatio: 200, maximumParts: 1000)
    return registry
}()

func fuzzOne(_ bytes: [UInt8]) {
    guard let selector = bytes.first else { return }
    let ext = extensions[Int(selector) % extensions.count]
    let file = Array(bytes.dropFirst())
    // A file of an unknown extension that starts like a PDF goes to
    // pdftotext (see `formats`).
    if file.starts(with: Array("%PDF".utf8)) { return }
    let name = ext.isEmpty ? "fuzz" : "fuzz." + ext
    let extracted: ExtractedFile
    do {
        extracted = try registry.extractAll(ExtractionInput(bytes: file, name: name, path: "/fuzz/" + name))
    } catch {
        _ = error.description
        return
    }
    for document in extracted.documents {
        _ = document.body.utf8.count
        _ = document.title?.utf8.count
    }
}
