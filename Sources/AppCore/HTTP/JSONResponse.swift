import Foundation
import Vapor

/// Builds JSON responses with the server's one encoder (`/` unescaped, `application/json; charset=utf-8`).
public enum JSONResponse {
    public static func make<T: Encodable>(
        _ value: T, status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]
    ) throws -> Response {
        Response(status: status, headers: jsonHeaders(headers), body: .init(data: try JSONCoding.encoder.encode(value)))
    }

    /// A type that writes its own JSON: the same response without the `JSONEncoder` round trip.
    public static func make<T: JSONWritable>(
        _ value: T, status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]
    ) throws -> Response {
        Response(status: status, headers: jsonHeaders(headers), body: .init(buffer: ByteBuffer(bytes: value.jsonBytes)))
    }

    private static func jsonHeaders(_ headers: HTTPHeaders) -> HTTPHeaders {
        var headers = headers
        headers.replaceOrAdd(name: .contentType, value: "application/json; charset=utf-8")
        return headers
    }

    /// A bare JSON array page with `X-Total-Count`.
    public static func page<T: Encodable>(_ items: [T], total: Int) throws -> Response {
        try make(items, headers: ["X-Total-Count": String(total)])
    }
}
