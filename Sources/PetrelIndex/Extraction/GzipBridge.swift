// gzip decompression through zlib: the only file of PetrelIndex that hands
// buffers to zlib.
import CPetrelZlib

enum Gzip {
    typealias Failure = CompressedFile.Failure

    /// Whether bytes start with gzip's magic number.
    static func isCompressed(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// The decompressed bytes of every member of a gzip file; stops with
    /// `.tooLarge` past `limit` bytes (a decompression bomb stays bounded).
    static func decompress(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        try decompress(input, limit: limit, prefix: Int.max).bytes
    }

    /// The first `prefix` decompressed bytes (`isCut` when there was more:
    /// the rest is not inflated), or `.tooLarge` past `limit` bytes.
    static func decompress(_ input: [UInt8], limit: Int, prefix: Int) throws(Failure) -> (bytes: [UInt8], isCut: Bool) {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var stream = z_stream()
        guard petrel_inflate_init(&stream) == Z_OK else { throw .damaged("zlib could not start") }
        defer { inflateEnd(&stream) }
        var consumed = 0
        while true {
            let status: Int32 = input.withUnsafeBufferPointer { source in
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress! + consumed)
                    stream.avail_in = UInt32(min(input.count - consumed, Int(UInt32.max)))
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    let before = stream.avail_in
                    let status = inflate(&stream, Z_NO_FLUSH)
                    consumed += Int(before - stream.avail_in)
                    return status
                }
            }
            let produced = chunk.count - Int(stream.avail_out)
            output.append(contentsOf: chunk[0..<produced])
            if output.count > prefix, prefix <= limit {
                output.removeSubrange(prefix...)
                return (output, true)
            }
            if output.count > limit { throw .tooLarge(output.count) }
            switch status {
            case Z_STREAM_END:
                // Another member may follow; anything else after a complete
                // member (zero padding, garbage) is ignored, as gzip does.
                if consumed + 1 < input.count, input[consumed] == 0x1F, input[consumed + 1] == 0x8B {
                    guard inflateReset(&stream) == Z_OK else { throw .damaged("zlib could not restart") }
                } else {
                    return (output, false)
                }
            case Z_OK:
                if produced == 0, consumed == input.count { throw .damaged("gzip: truncated data") }
            case Z_BUF_ERROR where produced > 0:
                continue
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "truncated or damaged data"
                throw .damaged("gzip: \(message)")
            }
        }
    }
}
