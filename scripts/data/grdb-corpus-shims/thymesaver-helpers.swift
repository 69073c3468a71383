// Stand-ins for the two helpers that ThymeSaver's data layer calls and that its app target defines in a file
// which also extends SwiftUI's View (left out on Linux). Written for this corpus.
import Foundation

extension String {
    func trim() -> String {
        trimmingCharacters(in: .whitespaces)
    }
}

extension Int {
    /// Cantor's pairing of two non-negative integers, as the app's helper computes it.
    func concat(_ other: Int) -> Int {
        (self + other) * (self + other + 1) / 2 + self
    }
}
