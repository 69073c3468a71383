// Stand-in for Apple's os.Logger, which Linux lacks: the corpus staging adds it to sources that log
// through it (their `import OSLog` is dropped). It discards every message.
struct Logger: Sendable {
    init(subsystem: String, category: String) {}
    func debug(_ message: String) {}
    func info(_ message: String) {}
    func error(_ message: String) {}
}
