// Stand-in for Apple's os_log function and OSLog handle, which Linux lacks: the corpus staging adds it to
// sources that log through them (their `import os.log` is dropped). It discards every message.
struct OSLog: Sendable {
    init(subsystem: String, category: String) {}
}

struct OSLogType: Sendable {
    static let debug = OSLogType()
    static let info = OSLogType()
    static let error = OSLogType()
}

func os_log(_ format: StaticString, log: OSLog, type: OSLogType, _ arguments: Any...) {}
