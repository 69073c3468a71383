import Foundation
import PetrelIndex

/// petrel-index's progress line.
public enum ProgressLine {
    /// The progress line, at most `columns - 1` characters so that it never
    /// wraps (a wrapped line cannot be redrawn in place): the bar goes
    /// first when space is short, then the rates, then it is cut.
    public static func render(_ progress: IndexProgress, elapsed: TimeInterval, columns: Int) -> String {
        let room = max(columns - 1, 1)
        var candidates: [String]
        switch progress.phase {
        case .waiting:
            candidates = ["waiting for another petrel-index on this index...", "waiting for another petrel-index..."]
        case .walking:
            candidates = ["walking folders..."]
        case .indexing, .removing, .done:
            let fraction = progress.bytesToRead > 0 ? Double(progress.bytesRead) / Double(progress.bytesToRead) : 1
            let rate = elapsed > 0 ? Double(progress.bytesRead) / 1_048_576 / elapsed : 0
            let remaining = fraction > 0.01 ? elapsed * (1 - fraction) / fraction : 0
            let filled = Int(fraction * 24)
            let bar = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 24 - filled) + "] "
            let files = "\(progress.filesRead)/\(progress.filesToRead) files"
            let sizes = String(format: "%.1f/%.1f MB, %.1f MB/s, ETA %.0fs", Double(progress.bytesRead) / 1_048_576,
                               Double(progress.bytesToRead) / 1_048_576, rate, remaining)
            let removing = progress.phase == .removing ? ", removing deleted files" : ""
            let percent = String(format: "%3.0f%% ", fraction * 100)
            candidates = [bar + files + ", " + sizes + removing, percent + files + ", " + sizes + removing, percent + files + removing, percent + files]
        }
        if let fitting = candidates.first(where: { $0.count <= room }) { return fitting }
        return String((candidates.last ?? "").prefix(room))
    }
}
