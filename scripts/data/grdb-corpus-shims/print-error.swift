// Stand-in for swift-query: its Utils/Warning.swift calls `printError` where `os` is missing (Linux) but
// defines it nowhere. Written for this corpus: the warning goes to standard error.
import Foundation

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
