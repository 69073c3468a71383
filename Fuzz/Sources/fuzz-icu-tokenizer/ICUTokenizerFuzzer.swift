import PetrelICU
import PetrelText

// PetrelICU's word tokenizer in the configurations indexes use, and in a
// few locales whose word breaking differs (Thai and Japanese dictionaries,
// Turkish case folding).
//
// Input: byte 0 chooses the tokenizer (low bits) and the reason (high
// bits); the rest is the text. When byte 0 is 0xFF the first line is
// instead a `tokenize=` argument list (`ja compatibility stem german`) and
// the rest the text, for the argument parser and rarer configurations.

/// The tokenizers, made once: ICU's break iterators are costly to open.
let tokenizers: [ICUWordTokenizer] = {
    let arguments: [[String]] = [
        [], ["compatibility"], ["compatibility", "stem", "english"], ["keep_diacritics"], ["no_subwords"],
        ["tr"], ["th"], ["ja", "compatibility"], ["zh"], ["ko"], ["de", "compatibility", "stem", "german"], ["ar"],
    ]
    return arguments.compactMap { try? ICUWordTokenizer(arguments: $0) }
}()
let reasons: [TokenizationReason] = [.document, .query, .prefixQuery, .aux]

func fuzzOne(_ bytes: [UInt8]) {
    guard let selector = bytes.first, !tokenizers.isEmpty else { return }
    let rest = bytes.dropFirst()
    let reason = reasons[Int(selector >> 6)]
    if selector == 0xFF {
        let lines = rest.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)
        let arguments = String(decoding: lines[0], as: UTF8.self).split(separator: " ").prefix(8).map(String.init)
        guard let tokenizer = try? ICUWordTokenizer(arguments: arguments) else { return }
        checkTokens(tokenizer, String(decoding: lines.count > 1 ? lines[1] : [], as: UTF8.self), reason)
        return
    }
    let tokenizer = tokenizers[Int(selector & 0x3F) % tokenizers.count]
    checkTokens(tokenizer, String(decoding: rest, as: UTF8.self), reason)
}

/// Tokenizes `text` and stops the process when a token breaks the
/// tokenizer contract: offsets inside the text's UTF-8, in order.
func checkTokens(_ tokenizer: ICUWordTokenizer, _ text: String, _ reason: TokenizationReason) {
    let tokens: [Token]
    do {
        tokens = try tokenizer.tokens(in: text, for: reason)
    } catch {
        fatalError("the ICU tokenizer threw on text: \(error)")
    }
    let length = text.utf8.count
    var previousStart = 0
    for token in tokens {
        guard token.byteRange.lowerBound >= 0, token.byteRange.upperBound <= length, !token.byteRange.isEmpty else {
            fatalError("token \(token) is empty or outside the text's \(length) bytes")
        }
        guard token.byteRange.lowerBound >= previousStart else {
            fatalError("token \(token) starts before the previous token (\(previousStart))")
        }
        previousStart = token.byteRange.lowerBound
    }
}
