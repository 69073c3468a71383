import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// The formats Recoll reads beside the office ones: OpenOffice.org 1.x,
/// AbiWord, Gnumeric, GNU Info, PostScript and MHTML, each file written by
/// its own program (scripts/make-document-fixtures).
@Suite("More document formats")
struct MoreFormatsTests {
    @Test(arguments: ["license.sxw"])
    func wordProcessing(_ name: String) throws {
        let document = try OfficeFixtures.extract(name)
        // Headings, body, the table's cells, the footnote (from the MPL 2.0).
        #expect(OfficeFixtures.inOrder(document.body, ["Definitions", "“Licensor” shall mean", "Grant of Copyright License",
                                                        "Grant of Patent License", "Submission of Contributions", "Trademarks"]))
        #expect(document.body.contains("Covered Software"))
        #expect(document.title == "Apache License, Version 2.0")
        #expect(document.kind == (name.hasSuffix(".sxw") ? "sxw" : "abw"))
        #expect(!document.isTruncated)
        OfficeFixtures.expectNoMarkup(document)
        for fragment in ["<p", "<c ", "xid=", "props=", "Heading 1", "AbiWord", "awml"] {
            #expect(!document.body.contains(fragment), "\(fragment) in \(name)")
        }
    }

    @Test func openOfficeTemplatesAndOtherKinds() throws {
        // A template is the same package under another name.
        var input = try OfficeFixtures.input("license.sxw")
        input.name = "license.stw"
        let template = try ExtractorRegistry.standard.extract(input)
        #expect(template.kind == "sxw")
        #expect(template.body.contains("Grant of Patent License"))
        // A file of another format under an OpenOffice.org name (".std") is
        // read as text when it is text, and is unreadable when it is not.
        let text = ExtractionInput(bytes: Array("std::vector notes\n".utf8), name: "notes.std", path: "/x/notes.std")
        #expect(try ExtractorRegistry.standard.extract(text).body == "std::vector notes\n")
        let binary = ExtractionInput(bytes: [0, 1, 2, 3, 0, 0, 0, 0xFF] + [UInt8](repeating: 0, count: 64), name: "a.sxc", path: "/x/a.sxc")
        #expect(throws: ExtractionError.unreadable("not an OpenOffice.org file (no zip package)")) { try ExtractorRegistry.standard.extract(binary) }
    }
}

@Suite("More document formats, hostile")
struct MoreFormatsHostileTests {
    @Test func truncatedOpenOfficeFileIsDamaged() throws {
        var input = try OfficeFixtures.input("license.sxw")
        input.bytes = Array(input.bytes.prefix(input.bytes.count / 2))
        #expect {
            try ExtractorRegistry.standard.extract(input)
        } throws: { error in
            guard case ExtractionError.unreadable(let reason) = error else { return false }
            return reason.hasPrefix("damaged zip package") || reason.hasPrefix("not an OpenDocument file")
        }
    }
}
