// Snowball's stemmers (Debian's libstemmer-dev) through their C API: the
// only file of PetrelText that touches pointers.

import CPetrelStemmer
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One of the Snowball stemming algorithms (Martin Porter's family, as used
/// by Lucene, tantivy, Xapian and PyStemmer): `english`, `german`, `french`,
/// `russian`, `spanish`... and `porter`, Porter's original English algorithm.
///
/// Words are expected lowercase, as the tokenizers emit them:
///
/// ```swift
/// let stemmer = try SnowballStemmer(algorithm: "russian")
/// stemmer.stem("файлами") // "файл"
/// ```
///
/// A stemmer can be shared between threads: calls take turns.
// @unchecked Sendable: the C stemmer keeps the word being stemmed in its own
// buffers, so every use of `stemmer` happens with `lock` held; both are set
// once in init and freed in deinit.
public final class SnowballStemmer: @unchecked Sendable {
    /// The algorithm's name, as in ``algorithms``.
    public let algorithm: String

    private let stemmer: OpaquePointer
    private let lock: UnsafeMutablePointer<pthread_mutex_t>

    /// The algorithms the system's libstemmer provides.
    public static let algorithms: [String] = {
        var names: [String] = []
        guard var list = sb_stemmer_list() else { return names }
        while let name = list.pointee {
            names.append(String(cString: name))
            list += 1
        }
        return names
    }()

    /// A stemmer for one of ``algorithms``.
    ///
    /// - Throws: ``SnowballError`` for an algorithm libstemmer does not have.
    public init(algorithm: String) throws(SnowballError) {
        guard Self.algorithms.contains(algorithm), let stemmer = sb_stemmer_new(algorithm, "UTF_8") else {
            throw SnowballError(algorithm: algorithm)
        }
        self.algorithm = algorithm
        self.stemmer = stemmer
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        sb_stemmer_delete(stemmer)
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// The stem of a lowercase word. The empty string stays empty.
    public func stem(_ word: String) -> String {
        guard !word.isEmpty else { return word }
        var word = word
        return word.withUTF8 { utf8 in
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            // Only fails when out of memory: the word is kept then.
            guard let base = utf8.baseAddress,
                  let result = sb_stemmer_stem(stemmer, base, Int32(clamping: utf8.count)) else {
                return String(decoding: utf8, as: UTF8.self)
            }
            let length = Int(sb_stemmer_length(stemmer))
            return String(decoding: UnsafeBufferPointer(start: result, count: length), as: UTF8.self)
        }
    }
}

/// An algorithm name that the system's libstemmer does not know.
public struct SnowballError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name that was asked for.
    public var algorithm: String
    /// The error for an algorithm named `algorithm`.
    public init(algorithm: String) { self.algorithm = algorithm }
    public var description: String {
        "unknown stemming algorithm \(algorithm) (available: \(SnowballStemmer.algorithms.joined(separator: ", ")))"
    }
}
