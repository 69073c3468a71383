import Foundation
import Petrel
import PetrelCommandSupport
import PetrelIndex

/// An error of the API, as JSON: `{"error": {"status": 2, "code": ...,
/// "message": ..., "position": ..., "hint": ...}}`. `status` is the exit
/// status `petrel-search` would end with for the same error (see
/// ``ExitStatus``); `code` says which error it is (`usage`, `query`,
/// `not_found`, `timeout`, `unauthorized`, or an ``IndexError`` code such
/// as `no_index`); `position` is the 1-based character of a query error.
public struct APIError: Error, Sendable, Equatable {
    /// The HTTP status of the response.
    public var httpStatus: Int
    /// Which error: `usage`, `query`, `not_found`, `timeout`, `unauthorized`,
    /// `busy`, `internal`, or an ``IndexError/Code`` raw value.
    public var code: String
    /// What `petrel-search` would exit with.
    public var status: ExitStatus
    /// What went wrong, in a sentence.
    public var message: String
    /// For a query error: the 1-based character where it is.
    public var position: Int?
    /// What the user can do about it, when there is something.
    public var hint: String?

    /// An error with every field given.
    public init(httpStatus: Int, code: String, status: ExitStatus = .failure, message: String, position: Int? = nil, hint: String? = nil) {
        self.httpStatus = httpStatus
        self.code = code
        self.status = status
        self.message = message
        self.position = position
        self.hint = hint
    }

    /// A request the API cannot read (as a usage error of the CLI).
    public static func usage(_ message: String) -> APIError {
        APIError(httpStatus: 400, code: "usage", message: message)
    }

    /// A query that does not parse, at a character (0-based in `error`).
    public static func query(_ error: SearchQueryError) -> APIError {
        APIError(httpStatus: 400, code: "query", message: error.message, position: error.position + 1)
    }

    /// A document or file that the index does not have.
    public static func notFound(_ message: String) -> APIError {
        APIError(httpStatus: 404, code: "not_found", message: message)
    }

    /// The error of a failed library call: an ``IndexError`` keeps its code
    /// and the commands' hint (``FailureReport``); an interrupted statement
    /// is a timeout.
    public static func from(_ error: any Error) -> APIError {
        if let error = error as? APIError { return error }
        if let error = error as? SearchQueryError { return .query(error) }
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_INTERRUPT {
            return APIError(httpStatus: 503, code: "timeout", message: "the request took longer than the server allows")
        }
        let hint = FailureReport.hint(for: error)
        if let error = error as? IndexError {
            let httpStatus: Int
            switch error.code {
            case .unknownFolder, .invalidGlob, .invalidParameter: httpStatus = 400
            default: httpStatus = 503
            }
            return APIError(httpStatus: httpStatus, code: error.code.rawValue, status: FailureReport.status(for: error), message: error.message, hint: hint)
        }
        if DocumentIndex.isDamage(error) {
            return APIError(httpStatus: 503, code: "damaged", status: FailureReport.status(for: error), message: "\(error)", hint: hint)
        }
        return APIError(httpStatus: 500, code: "internal", status: FailureReport.status(for: error), message: "\(error)", hint: hint)
    }

    /// The JSON body.
    public var json: Data {
        struct Body: Encodable {
            struct Inner: Encodable {
                var status: Int32
                var code: String
                var message: String
                var position: Int?
                var hint: String?
            }
            var error: Inner
        }
        let body = Body(error: .init(status: status.rawValue, code: code, message: message, position: position, hint: hint))
        return (try? SearchHitJSON.encoder().encode(body)) ?? Data(#"{"error":{"status":2,"code":"internal","message":"unencodable error"}}"#.utf8)
    }
}
