/// The distinct tokens of one column, keyed by their UTF-8 bytes: each new
/// token gets the next slot, and a token seen before finds its slot without
/// a `String` being made of it. ``IndexedColumn`` places a column's tokens
/// with it: a `String` and a dictionary lookup hashed through `Hasher` per
/// token were two thirds of the time spent placing them.
///
/// The bytes of every distinct token are kept end to end in one array; an
/// open-addressed table of slot numbers, at most half full, finds them by a
/// 64-bit FNV-1a hash of the bytes.
struct TokenTable {
    /// Every distinct token's bytes, in slot order.
    private var bytes: [UInt8] = []
    /// Where each slot's bytes start in `bytes`; slot `i` ends where `i + 1`
    /// starts (the last at `bytes.count`).
    private var starts: [Int] = []
    /// Each slot's hash, to move the slots when the table grows.
    private var hashes: [UInt64] = []
    /// Slot numbers by hash, -1 for an empty bucket; a power of two long.
    private var buckets = [Int32](repeating: -1, count: 64)

    /// The number of distinct tokens.
    var count: Int { starts.count }

    /// The slot of `token`, and whether it was new (it then takes the next
    /// slot, `count - 1` after the call).
    mutating func insert(_ token: UnsafeBufferPointer<UInt8>) -> (slot: Int, isNew: Bool) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in token {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while true {
            let slot = Int(buckets[bucket])
            if slot < 0 { break }
            if hashes[slot] == hash, equals(slot, token) { return (slot, false) }
            bucket = (bucket + 1) & mask
        }
        let slot = starts.count
        starts.append(bytes.count)
        hashes.append(hash)
        bytes.append(contentsOf: token)
        buckets[bucket] = Int32(truncatingIfNeeded: slot)
        if starts.count * 2 > buckets.count { grow() }
        return (slot, true)
    }

    /// The token in `slot`, as text.
    func string(_ slot: Int) -> String {
        String(decoding: bytes[range(slot)], as: UTF8.self)
    }

    private func range(_ slot: Int) -> Range<Int> {
        starts[slot]..<(slot + 1 < starts.count ? starts[slot + 1] : bytes.count)
    }

    private func equals(_ slot: Int, _ token: UnsafeBufferPointer<UInt8>) -> Bool {
        let range = range(slot)
        guard range.count == token.count else { return false }
        var index = 0
        while index < token.count {
            if bytes[range.lowerBound + index] != token[index] { return false }
            index += 1
        }
        return true
    }

    /// Doubles the buckets and places every slot again.
    private mutating func grow() {
        buckets = [Int32](repeating: -1, count: buckets.count * 2)
        let mask = buckets.count - 1
        for (slot, hash) in hashes.enumerated() {
            var bucket = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            while buckets[bucket] >= 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = Int32(truncatingIfNeeded: slot)
        }
    }
}
