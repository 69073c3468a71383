import Petrel

/// The ICU tokenizer for FTS5 tables.
extension FTS5TokenizerDescriptor {
    /// PetrelICU's tokenizer (`tokenize='icu ...'`), registered by
    /// ``Petrel/Database/enableICU(_:)``.
    ///
    /// ```swift
    /// t.tokenizer = .icu(locale: "ja")   // tokenize='''icu'' ''ja'''
    /// t.tokenizer = .icu(stemming: "german") // a Snowball stemmer
    /// ```
    ///
    /// `stemming` names one of `SnowballStemmer.algorithms` (`english2` for
    /// Snowball's English; `englishStemming` is Porter's algorithm).
    public static func icu(
        locale: String = "", compatibility: Bool = false, keepDiacritics: Bool = false,
        subwords: Bool = true, englishStemming: Bool = false, stemming: String? = nil
    ) -> FTS5TokenizerDescriptor {
        var components = ["icu"]
        if !locale.isEmpty { components.append(locale) }
        if compatibility { components.append("compatibility") }
        if keepDiacritics { components.append("keep_diacritics") }
        if !subwords { components.append("no_subwords") }
        if englishStemming { components += ["stem", "english"] }
        if let stemming { components += ["stem", stemming] }
        return FTS5TokenizerDescriptor(components: components)
    }
}

/// The ICU tokenizer for FTS3 and FTS4 tables.
extension FTS3TokenizerDescriptor {
    /// PetrelICU's tokenizer for FTS3/FTS4 (`tokenize=icu ...`).
    public static func icu(locale: String = "", compatibility: Bool = false) -> FTS3TokenizerDescriptor {
        var arguments: [String] = []
        if !locale.isEmpty { arguments.append(locale) }
        if compatibility { arguments.append("compatibility") }
        return FTS3TokenizerDescriptor("icu", arguments: arguments)
    }
}
