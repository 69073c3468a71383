import Foundation
import PetrelIndex

// The parsers of what people type for options (`--max-size 20M`,
// `--since 2w`, `--weights title=4`, `--path '*.md'`, `--ranking k1=1.5`)
// and the time conversions their values go through.
//
// Input: byte 0 chooses the parser; the rest is its text, or for the
// conversions raw 64-bit numbers.

/// A fixed "now", so that a finding replays the same way tomorrow.
let fixedNow = Date(timeIntervalSince1970: 1_780_000_000)

func fuzzOne(_ bytes: [UInt8]) {
    guard let selector = bytes.first else { return }
    let rest = Array(bytes.dropFirst())
    let text = String(decoding: rest, as: UTF8.self)
    switch selector % 7 {
    case 0: checkByteSize(text)
    case 1: checkDate(DateSpec.parse(text, now: fixedNow))
    case 2: checkFieldWeights(text)
    case 3: _ = GlobSyntax.problem(in: text)
    case 4: checkRanking(text)
    case 5: checkConversions(rest)
    default:
        // A span counted back from any "now", even one that is no date.
        let now = Date(timeIntervalSince1970: Double(bitPattern: word(rest, 0)))
        checkDate(DateSpec.parse(String(decoding: rest.dropFirst(8), as: UTF8.self), now: now))
    }
}

/// The `index`th 64-bit word of `bytes`, zeros past the end.
func word(_ bytes: [UInt8], _ index: Int) -> UInt64 {
    (0..<8).reduce(UInt64(0)) { value, offset in
        let position = index * 8 + offset
        return value << 8 | UInt64(position < bytes.count ? bytes[position] : 0)
    }
}

func checkByteSize(_ text: String) {
    guard let size = ByteSize.parse(text) else { return }
    guard size >= 0 else { fatalError("ByteSize.parse(\(text.debugDescription)) is negative: \(size)") }
    _ = ByteSize.format(size)
}

func checkDate(_ date: Date?) {
    guard let date else { return }
    let nanoseconds = IndexTime.nanoseconds(date)
    _ = IndexTime.date(nanoseconds: nanoseconds)
}

func checkFieldWeights(_ text: String) {
    guard let weights = FieldWeights(parsing: text) else { return }
    for value in [weights.path, weights.title, weights.body] where !(value.isFinite && value >= 0) {
        fatalError("FieldWeights(parsing: \(text.debugDescription)) gave the weight \(value)")
    }
}

func checkRanking(_ text: String) {
    guard let parameters = try? RankingParameters(text) else { return }
    let values = [parameters.k1, parameters.pathB, parameters.titleB, parameters.bodyB, parameters.coordinationPower,
                  parameters.proximityWeight, parameters.proximityB, parameters.stemWeight, parameters.nameWeight,
                  parameters.absentNameWeight, parameters.leadWeight, parameters.leadLength]
    for value in values where !(value.isFinite && value >= 0) {
        fatalError("RankingParameters(\(text.debugDescription)) gave the value \(value)")
    }
    let bs = [parameters.pathB, parameters.titleB, parameters.bodyB, parameters.proximityB]
    if bs.contains(where: { $0 > 1 }) { fatalError("RankingParameters(\(text.debugDescription)) gave a b above 1") }
}

/// Sizes and times from any 64-bit values: none may trap.
func checkConversions(_ bytes: [UInt8]) {
    let first = word(bytes, 0), second = word(bytes, 1)
    _ = ByteSize.format(Int64(bitPattern: first))
    let nanoseconds = IndexTime.nanoseconds(seconds: Int64(bitPattern: first), nanoseconds: Int64(bitPattern: second))
    let date = IndexTime.date(nanoseconds: nanoseconds)
    guard IndexTime.nanoseconds(date) == nanoseconds || abs(Double(IndexTime.nanoseconds(date)) - Double(nanoseconds)) < 1e6 else {
        fatalError("IndexTime does not round-trip \(nanoseconds) (got \(IndexTime.nanoseconds(date)))")
    }
    _ = IndexTime.nanoseconds(Date(timeIntervalSince1970: Double(bitPattern: first)))
}
