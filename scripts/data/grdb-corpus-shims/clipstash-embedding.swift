// Stand-in for ClipStash's EmbeddingService, which its records call to turn a stored embedding back into
// floats and which the app builds on NaturalLanguage and Accelerate (Apple-only). Written for this corpus.
import Foundation

final class EmbeddingService {
    static let shared = EmbeddingService()

    /// The floats of `data`, in the machine's byte order, as the app stores them.
    func dataToVector(_ data: Data) -> [Float] {
        let stride = MemoryLayout<Float>.size
        return (0..<(data.count / stride)).map { index in
            data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index * stride, as: Float.self) }
        }
    }
}
