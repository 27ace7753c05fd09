import AppCore
import Fluent
import Foundation
import SQLKit
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

    /// `detail` of a `{"detail": ...}` error body.
    var detail: String? { json["detail"].string }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: body) }

    var description: String { "\(status.code) \(text.prefix(500))" }
}

/// Body helpers.
enum Body {
    static func json(_ object: [String: Any?]) -> (String, HTTPMediaType) { (JSONBody.encode(object), .json) }
    static func raw(_ text: String, _ type: HTTPMediaType? = .json) -> (String, HTTPMediaType?) { (text, type) }

    /// `application/x-www-form-urlencoded` with percent-encoding (spaces as `%20`).
    static func form(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map {
            ($0.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + ($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
    }
}

extension Application {
    /// Sends one request through the whole middleware chain (in process). `path` may carry a query string.
    func send(
        _ method: HTTPMethod, _ path: String, token: String? = nil, headers: HTTPHeaders = [:],
        body: String? = nil, contentType: HTTPMediaType? = nil
    ) async throws -> TestResponse {
        var headers = headers
        if let token { headers.replaceOrAdd(name: .authorization, value: "Bearer \(token)") }
        if let contentType { headers.contentType = contentType }
        var buffer = ByteBufferAllocator().buffer(capacity: 0)
        if let body { buffer.writeString(body) }
        let request = TestingHTTPRequest(method: method, url: URI(string: path), headers: headers, body: buffer)
        let response = try await testing().performTest(request: request)
        var out = response.body
        let data = out.readData(length: out.readableBytes) ?? Data()
        return TestResponse(status: response.status, headers: response.headers, body: data)
    }

    func get(_ path: String, token: String? = nil, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await send(.GET, path, token: token, headers: headers)
    }

    func delete(_ path: String, token: String? = nil, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await send(.DELETE, path, token: token, headers: headers)
    }

    /// POST with a JSON object body built from literals (`nil` → `null`).
    func post(_ path: String, token: String? = nil, json object: [String: Any?], headers: HTTPHeaders = [:])
        async throws -> TestResponse
    {
        try await send(.POST, path, token: token, headers: headers, body: JSONBody.encode(object), contentType: .json)
    }

    /// PUT with a JSON object body built from literals (`nil` → `null`).
    func put(_ path: String, token: String? = nil, json object: [String: Any?], headers: HTTPHeaders = [:])
        async throws -> TestResponse
    {
        try await send(.PUT, path, token: token, headers: headers, body: JSONBody.encode(object), contentType: .json)
    }

    /// POST/PUT with a body given verbatim (malformed JSON, arrays, other content types).
    func sendRaw(
        _ method: HTTPMethod, _ path: String, token: String? = nil, body: String, contentType: HTTPMediaType?
    ) async throws -> TestResponse {
        try await send(method, path, token: token, body: body, contentType: contentType)
    }

    /// Logs in through `POST /api/v1/auth/token` (JSON) and returns the access token; fails the test otherwise.
    func login(_ username: String, _ password: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> String
    {
        let response = try await post("/api/v1/auth/token", json: ["username": username, "password": password])
        #expect(response.status == .ok, "login of \(username) failed: \(response)", sourceLocation: sourceLocation)
        guard let token = response.json["access_token"].string else {
            throw TestSetupError("login of \(username) returned no token: \(response)")
        }
        return token
    }

    func login(_ user: Demo.Login, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        try await login(user.username, user.password, sourceLocation: sourceLocation)
    }

    /// A valid token for a user without going through bcrypt (the demo hashes are cost 12): signed by the server's
    /// own token service, exactly as a login would.
    func token(for user: Demo.Login) async throws -> String { try await token(for: user.id) }

    /// Issued at the server clock's now by default: tokens expire by that clock, which tests may move. Carries the
    /// user's current token version: 0 for an unknown user, and when the database cannot be read (the outage
    /// tests), which is every demo user's version until a test changes it.
    func token(for userID: UUID, issuedAt: Date? = nil) async throws -> String {
        let row = try? await db.sql.raw("SELECT token_version FROM users WHERE id = \(bind: userID)").first()
        let version = (try? row?.decode(column: "token_version", as: Int.self)) ?? 0
        return try await core.tokens.issue(
            subject: userID.uuidString.lowercased(), version: version, now: issuedAt ?? core.clock.now())
    }
}

/// `login(app, "vet1", "password123")`.
func login(_ app: Application, _ username: String, _ password: String) async throws -> String {
    try await app.login(username, password)
}

/// Common expectations on error responses.
func expectError(
    _ response: TestResponse, _ status: HTTPStatus, _ detail: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == status, "expected \(status.code) \(detail), got \(response)", sourceLocation: sourceLocation)
    #expect(response.detail == detail, "expected detail \(detail), got \(response)", sourceLocation: sourceLocation)
    #expect(
        response.headers.first(name: .contentType) == "application/json; charset=utf-8",
        sourceLocation: sourceLocation)
}
