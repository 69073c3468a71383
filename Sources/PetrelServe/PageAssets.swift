import Foundation
import PetrelCommandSupport
import Hummingbird

/// The search page: plain HTML, CSS and a small hand-written script, kept
/// in the binary (no build step, nothing to install beside it). The
/// script builds every element from document text with `textContent`,
/// never as markup, and the page's Content-Security-Policy allows no
/// inline script or style, so that a document's text can never run.
enum PageAssets {
    /// The page's policy: its own script and style only, requests to
    /// its own API only.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    static func response(_ text: String, type: String) -> Response {
        var headers = PetrelServer.commonHeaders
        headers[.contentType] = type
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
