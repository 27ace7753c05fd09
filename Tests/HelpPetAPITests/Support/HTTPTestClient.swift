import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Vapor

/// A tiny HTTP client for tests that talk to a real `server` process over TCP.
struct HTTPTestClient: Sendable {
    let baseURL: String

    func send(
        _ method: HTTPMethod, _ path: String, token: String? = nil, headers: HTTPHeaders = [:],
        body: String? = nil, contentType: String? = nil, timeout: TimeAmount = .seconds(30)
    ) async throws -> TestResponse {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers = headers
        if let token { request.headers.replaceOrAdd(name: "Authorization", value: "Bearer \(token)") }
        if let contentType { request.headers.replaceOrAdd(name: "Content-Type", value: contentType) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let answer = try await executeRetryingUnavailable(request, timeout: timeout, maxBodyBytes: 16 * 1024 * 1024)
        return TestResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }

    func get(_ path: String, token: String? = nil, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await send(.GET, path, token: token, headers: headers)
    }

    func post(_ path: String, token: String? = nil, json object: [String: Any?]) async throws -> TestResponse {
        try await send(.POST, path, token: token, body: JSONBody.encode(object), contentType: "application/json")
    }

    func put(_ path: String, token: String? = nil, json object: [String: Any?]) async throws -> TestResponse {
        try await send(.PUT, path, token: token, body: JSONBody.encode(object), contentType: "application/json")
    }

    /// Logs in with JSON and returns the access token.
    func login(_ username: String, _ password: String) async throws -> String {
        let response = try await post("/api/v1/auth/token", json: ["username": username, "password": password])
        guard response.status == .ok, let token = response.json["access_token"].string else {
            throw TestSetupError("login of \(username) at \(baseURL) failed: \(response)")
        }
        return token
    }

    func login(_ user: Demo.Login) async throws -> String { try await login(user.username, user.password) }
}
