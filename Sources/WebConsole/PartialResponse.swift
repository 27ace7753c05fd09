import Crypto
import Foundation
import Vapor

/// An HTML fragment a page polls for (the day board every few seconds): with an `ETag` of its bytes, so an
/// unchanged board costs a `304` and no DOM work in the browser.
public enum PartialResponse {
    public static func etag(_ fragment: String) -> String {
        "\"" + SHA256.hash(data: Data(fragment.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// When the page can tell cheaply whether anything changed (a version stamp), an unchanged fragment is a 304
    /// before anything is read or rendered; otherwise `render` makes it, sent with the same tag.
    public static func html(
        version: String, for request: Request, render: () async throws -> String
    ) async throws -> Response {
        let tag = etag(version)
        if request.headers.first(name: .ifNoneMatch) == tag { return notModified(tag) }
        let response = Response(status: .ok, body: .init(string: try await render()))
        response.headers.contentType = .html
        response.headers.replaceOrAdd(name: .eTag, value: tag)
        return response
    }

    static func notModified(_ tag: String) -> Response {
        let response = Response(status: .notModified)
        response.headers.replaceOrAdd(name: .eTag, value: tag)
        return response
    }

    public static func html(_ fragment: String, for request: Request) -> Response {
        let tag = etag(fragment)
        let response: Response
        if request.headers.first(name: .ifNoneMatch) == tag {
            response = Response(status: .notModified)
        } else {
            response = Response(status: .ok, body: .init(string: fragment))
            response.headers.contentType = .html
        }
        response.headers.replaceOrAdd(name: .eTag, value: tag)
        return response
    }
}
