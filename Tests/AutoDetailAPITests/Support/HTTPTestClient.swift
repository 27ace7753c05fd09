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
        // A 503 with `Retry-After` is the server's documented answer to a pool wait over 2 s (shared surface rule);
        // on a loaded CI machine a burst of parallel requests can meet it. Real clients retry it, and so do the
        // tests, so that a race test checks the outcome of the race rather than the machine's speed.
        for _ in 0..<20 {
            let response = try await sendOnce(
                method, url: url, key: key, bearer: bearer, headers: headers, body: body, contentType: contentType,
                timeout: timeout)
            guard response.status == .serviceUnavailable,
                let retryAfter = response.headers.first(name: "Retry-After").flatMap(Int.init)
            else { return response }
            try await Task.sleep(for: .seconds(retryAfter))
        }
        return try await sendOnce(
            method, url: url, key: key, bearer: bearer, headers: headers, body: body, contentType: contentType,
            timeout: timeout)
    }

    private static func sendOnce(
        _ method: HTTPMethod, url: String, key: String?, bearer: String?, headers: HTTPHeaders,
        body: [UInt8]?, contentType: String?, timeout: TimeAmount
    ) async throws -> TestResponse {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers = headers
        if let key { request.headers.replaceOrAdd(name: "X-API-Key", value: key) }
        if let bearer { request.headers.replaceOrAdd(name: "Authorization", value: "Bearer \(bearer)") }
        if let contentType { request.headers.replaceOrAdd(name: "Content-Type", value: contentType) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        var buffer = try await response.body.collect(upTo: 32 * 1024 * 1024)
        let data = buffer.readData(length: buffer.readableBytes) ?? Data()
        return TestResponse(status: response.status, headers: response.headers, body: data)
    }

    func json(
        _ method: HTTPMethod, _ path: String, key: String? = nil, bearer: String? = nil, body: Data,
        headers: HTTPHeaders = [:]
    ) async throws -> TestResponse {
        try await send(method, path, key: key, bearer: bearer, headers: headers, body: Array(body), contentType: "application/json")
    }
}
