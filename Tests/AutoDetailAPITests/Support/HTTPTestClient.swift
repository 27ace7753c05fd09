import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Vapor

/// A tiny HTTP client for tests that talk to a real `server` process over TCP.
struct HTTPTestClient: Sendable {
    let baseURL: String

    func send(
        _ method: HTTPMethod, _ path: String, key: String? = nil, bearer: String? = nil, headers: HTTPHeaders = [:],
        body: [UInt8]? = nil, contentType: String? = nil, timeout: TimeAmount = .seconds(30)
    ) async throws -> TestResponse {
        try await Self.send(
            method, url: path.hasPrefix("http") ? path : baseURL + path, key: key, bearer: bearer, headers: headers,
            body: body, contentType: contentType, timeout: timeout)
    }

    /// Any absolute URL (presigned storage URLs included).
    static func send(
        _ method: HTTPMethod, url: String, key: String? = nil, bearer: String? = nil, headers: HTTPHeaders = [:],
        body: [UInt8]? = nil, contentType: String? = nil, timeout: TimeAmount = .seconds(30)
    ) async throws -> TestResponse {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers = headers
        if let key { request.headers.replaceOrAdd(name: "X-API-Key", value: key) }
        if let bearer { request.headers.replaceOrAdd(name: "Authorization", value: "Bearer \(bearer)") }
        if let contentType { request.headers.replaceOrAdd(name: "Content-Type", value: contentType) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let answer = try await executeRetryingUnavailable(request, timeout: timeout, maxBodyBytes: 32 * 1024 * 1024)
        return TestResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }

    func json(
        _ method: HTTPMethod, _ path: String, key: String? = nil, bearer: String? = nil, body: Data,
        headers: HTTPHeaders = [:]
    ) async throws -> TestResponse {
        try await send(method, path, key: key, bearer: bearer, headers: headers, body: Array(body), contentType: "application/json")
    }
}
