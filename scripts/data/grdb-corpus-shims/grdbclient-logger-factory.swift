// Stand-in for DandyLyons/LoggerFactory, which this machine's package cache lacks: a factory of loggers by
// category, as GRDBClient declares and calls it (its `import LoggerFactory` is dropped). Messages are
// discarded.
protocol StringRawRepresentable: RawRepresentable where RawValue == String {}

protocol LoggerFactory {
    associatedtype Categories: StringRawRepresentable
    static var subsystem: String { get }
}

struct CorpusCategoryLogger: Sendable {
    func debug(_ message: String) {}
    func info(_ message: String) {}
    func error(_ message: String) {}
}

extension LoggerFactory {
    static func logger(_ category: Categories) -> CorpusCategoryLogger { CorpusCategoryLogger() }
}
