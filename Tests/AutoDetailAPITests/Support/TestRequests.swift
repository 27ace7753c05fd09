import AppCore
import Foundation
import Testing
import VaporTesting

/// A response, from the in-process application or from a `server` process over TCP.
struct TestResponse: Sendable, CustomStringConvertible {
    let status: HTTPStatus
    let headers: HTTPHeaders
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON; an unparsable body yields an absent node (and the test's expectations fail).
    var json: JSONNode { (try? JSONNode(data: body)) ?? JSONNode(nil) }

    /// `error` of a `{"error": ...}` body.
    var error: String? { json["error"].string }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: body) }

    var description: String { "\(status.code) \(text.prefix(600))" }
}

extension Application {
    /// One request through the whole middleware chain (in process). `path` may carry a query string. `key` goes in
    /// `X-API-Key`, `bearer` in `Authorization: Bearer`; `json` is sent verbatim with `Content-Type: application/json`.
    func send(
        _ method: HTTPMethod, _ path: String, key: String? = nil, bearer: String? = nil, headers: HTTPHeaders = [:],
        json: String? = nil, body: [UInt8]? = nil, contentType: String? = nil
    ) async throws -> TestResponse {
        var headers = headers
        if let key { headers.replaceOrAdd(name: "X-API-Key", value: key) }
        if let bearer { headers.replaceOrAdd(name: .authorization, value: "Bearer \(bearer)") }
        var buffer = ByteBufferAllocator().buffer(capacity: 0)
        if let json {
            buffer.writeString(json)
            if !headers.contains(name: .contentType) { headers.replaceOrAdd(name: .contentType, value: "application/json") }
        }
        if let body { buffer.writeBytes(body) }
        if let contentType { headers.replaceOrAdd(name: .contentType, value: contentType) }
        let request = TestingHTTPRequest(method: method, url: URI(string: path), headers: headers, body: buffer)
        let response = try await testing().performTest(request: request)
        var out = response.body
        let data = out.readData(length: out.readableBytes) ?? Data()
        return TestResponse(status: response.status, headers: response.headers, body: data)
    }

    func get(_ path: String, key: String? = nil, bearer: String? = nil, headers: HTTPHeaders = [:]) async throws
        -> TestResponse
    {
        try await send(.GET, path, key: key, bearer: bearer, headers: headers)
    }

    /// POST with a JSON object built from literals (`nil` → `null`).
    func post(
        _ path: String, key: String? = nil, bearer: String? = nil, _ object: [String: Any?] = [:], headers: HTTPHeaders = [:]
    ) async throws -> TestResponse {
        try await send(.POST, path, key: key, bearer: bearer, headers: headers, json: JSONBody.encode(object))
    }

    func put(
        _ path: String, key: String? = nil, bearer: String? = nil, _ object: [String: Any?], headers: HTTPHeaders = [:]
    ) async throws -> TestResponse {
        try await send(.PUT, path, key: key, bearer: bearer, headers: headers, json: JSONBody.encode(object))
    }

    func delete(_ path: String, key: String? = nil, bearer: String? = nil) async throws -> TestResponse {
        try await send(.DELETE, path, key: key, bearer: bearer)
    }

    /// GET/PUT/HEAD of a presigned URL in process, with `Host` = the URL's host:port.
    func storage(
        _ method: HTTPMethod, url: String, headers: HTTPHeaders = [:], body: [UInt8]? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestResponse {
        let components = try #require(URLComponents(string: url), "not a URL: \(url)", sourceLocation: sourceLocation)
        let host = try #require(components.host, sourceLocation: sourceLocation)
        var path = components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        var headers = headers
        headers.replaceOrAdd(name: .host, value: components.port.map { "\(host):\($0)" } ?? host)
        if let body, !headers.contains(name: .contentLength) {
            headers.replaceOrAdd(name: .contentLength, value: String(body.count))
        }
        return try await send(method, path, headers: headers, body: body)
    }
}

/// Expects `{"error": message}` (nothing else) with the status and the JSON content type.
func expectError(
    _ response: TestResponse, _ status: HTTPStatus, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == status, "expected \(status.code) \(message), got \(response)", sourceLocation: sourceLocation)
    #expect(response.error == message, "expected error \(message), got \(response)", sourceLocation: sourceLocation)
    #expect(response.json.keys == ["error"], "error bodies carry only `error`: \(response)", sourceLocation: sourceLocation)
    #expect(
        response.headers.first(name: .contentType) == "application/json; charset=utf-8", sourceLocation: sourceLocation)
}

/// Deterministic bytes for uploads.
func testBytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
}
