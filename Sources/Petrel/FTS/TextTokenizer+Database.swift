@_exported import PetrelText

extension Database {
    /// Registers a Swift tokenizer under `name` on this connection, for FTS5
    /// tables (`tokenize='name'`) and FTS3/FTS4 tables (`tokenize=name`).
    /// Register it on every connection, in ``Configuration/prepareDatabase(_:)``.
    ///
    /// ```swift
    /// let folding = TextAnalyzer(WordTokenizer(), filters: [PorterStemmingFilter()])
    /// config.prepareDatabase { db in try db.add(tokenizer: folding, named: "english") }
    /// try db.create(virtualTable: "docs", using: FTS5()) { t in
    ///     t.tokenizer = FTS5TokenizerDescriptor(components: ["english"])
    ///     t.column("body")
    /// }
    /// ```
    ///
    /// Tables may pass arguments after the name; use
    /// ``add(tokenizerNamed:_:)`` to read them.
    public func add(tokenizer: some TextTokenizer, named name: String) throws {
        try add(tokenizerNamed: name) { _ in tokenizer }
    }

    /// Registers a tokenizer factory under `name`: `make` receives the
    /// arguments that follow the name in `tokenize=` and throws to refuse them.
    public func add(tokenizerNamed name: String, _ make: @escaping @Sendable ([String]) throws -> any TextTokenizer) throws {
        try addFTS5Tokenizer(named: name) { _, arguments in
            TextTokenizerFTS5Adapter(try make(arguments))
        }
        try addFTS3Tokenizer(named: name, make)
    }
}
