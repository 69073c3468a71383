// Stand-in for URL.documentsDirectory, which Apple's Foundation has and Linux's lacks: the user's documents
// folder, as FileManager reports it. Written for this corpus.
import Foundation

extension URL {
    static var documentsDirectory: URL {
        FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
    }
}
