// XML through libxml2's streaming reader: the only file of PetrelIndex that
// calls CPetrelXML. The reader never loads a DTD or external entity, never
// uses the network and does not expand entities (see petrel_xml.h), so an
// XXE or "billion laughs" document reads as its plain text.
import CPetrelXML

/// Reads an XML document node by node, from bytes in memory.
///
/// Not `Sendable`: one reader belongs to the extraction that made it.
final class XMLStreamReader {
    /// What ``next()`` reached.
    enum Event: Equatable {
        /// An element's start tag (``isEmptyElement`` when `<x/>`: no end follows).
        case start
        /// An element's end tag.
        case end
        /// Text, CDATA or whitespace (``text``).
        case text
        /// The end of the document.
        case done
        /// Malformed XML (``errorMessage``); nothing more can be read.
        case failed
    }

    private let reader: OpaquePointer

    /// Nil when libxml2 is loaded and ready (it is loaded the first time
    /// this is asked), else why it cannot be.
    static var unavailable: String? { petrel_xml_unavailable().map { String(cString: $0) } }

    /// A reader over `bytes`, or nil when libxml2 cannot start (out of
    /// memory, or ``unavailable``).
    init?(_ bytes: [UInt8]) {
        let reader = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { petrel_xml_open($0.baseAddress, $0.count) }
        }
        guard let reader else { return nil }
        self.reader = reader
    }

    deinit { petrel_xml_close(reader) }

    /// Moves to the next element start, end or text; comments, processing
    /// instructions and entity references are passed over.
    func next() -> Event {
        while true {
            switch petrel_xml_next(reader) {
            case Int32(PETREL_XML_START): return .start
            case Int32(PETREL_XML_END): return .end
            case Int32(PETREL_XML_TEXT): return .text
            case Int32(PETREL_XML_DONE): return .done
            case Int32(PETREL_XML_OTHER): continue
            default: return .failed
            }
        }
    }

    /// The current element's local name (`p` for `<w:p>`).
    var localName: String {
        guard let name = petrel_xml_local_name(reader) else { return "" }
        return String(cString: name)
    }

    /// The current element's namespace URI, if it has one.
    var namespace: String? {
        petrel_xml_namespace(reader).map { String(cString: $0) }
    }

    /// Whether the current start tag is `<x/>` (no ``Event/end`` follows).
    var isEmptyElement: Bool { petrel_xml_is_empty(reader) != 0 }

    /// The depth of the current node; the root element is 0.
    var depth: Int { Int(petrel_xml_depth(reader)) }

    /// The current text node's text.
    var text: String {
        guard let value = petrel_xml_value(reader) else { return "" }
        return String(cString: value)
    }

    /// Appends the current text node's UTF-8 bytes to `buffer`, without
    /// making a string.
    func appendText(to buffer: inout [UInt8]) {
        guard let value = petrel_xml_value(reader) else { return }
        let bytes = UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self)
        var count = 0
        while bytes[count] != 0 { count += 1 }
        buffer.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
    }

    /// The current element's attribute whose local name is `localName`
    /// (`val` finds `w:val`), or nil. `namespaced` true takes only one in a
    /// namespace (`r:id`), false only one without (`id`), nil either.
    func attribute(_ localName: String, namespaced: Bool? = nil) -> String? {
        let filter: Int32 = namespaced.map { $0 ? 1 : 0 } ?? -1
        enum Lookup { case absent, found(String), longer(Int) }
        // Most values (a style name, a cell type, a relationship id) fit
        // in a buffer on the stack.
        let lookup = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 128) { buffer -> Lookup in
            guard let base = buffer.baseAddress else { return .absent }
            let length = Int(petrel_xml_attribute(reader, localName, filter, base, Int32(buffer.count)))
            if length < 0 { return .absent }
            if length >= buffer.count { return .longer(length) }
            return .found(String(decoding: UnsafeRawBufferPointer(start: base, count: length), as: UTF8.self))
        }
        switch lookup {
        case .absent: return nil
        case .found(let value): return value
        case .longer(let length):
            var buffer = [CChar](repeating: 0, count: length + 1)
            _ = petrel_xml_attribute(reader, localName, filter, &buffer, Int32(buffer.count))
            return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// Why the document is malformed, with its line, once ``next()`` returned ``Event/failed``.
    var errorMessage: String {
        guard let message = petrel_xml_error(reader) else { return "malformed XML" }
        let line = petrel_xml_error_line(reader)
        let text = String(cString: message)
        return line > 0 ? "\(text) (line \(line))" : text
    }
}
