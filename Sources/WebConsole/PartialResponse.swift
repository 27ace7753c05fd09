import Crypto
import Foundation
import Vapor

/// An HTML fragment a page polls for (the day board every few seconds): with an `ETag` of its bytes, so an
/// unchanged board costs a `304` and no DOM work in the browser.
public enum PartialResponse {
    public static func etag(_ fragment: String) -> String {
        "\"" + SHA256.hash(data: Data(fragment.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
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
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-cache, private")
        return response
    }
}
