import AppCore
import Fluent
import Foundation
import Vapor

/// `POST /auth/token` (OAuth2 password form or JSON), public; the signed-in user is `CurrentUserController`.
struct AuthController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post("auth", "token", use: login)
    }

    @Sendable func login(req: Request) async throws -> Response {
        let fields: FieldReader
        if req.hasMediaType("application", "x-www-form-urlencoded") {
            fields = FieldReader(Self.parseForm(req.bodyData).mapValues { .string($0) })
        } else if req.hasMediaType("application", "json") {
            fields = FieldReader(try JSONValue.parseObject(req.bodyData))
        } else {
            throw APIError.badRequest("Content-Type must be application/x-www-form-urlencoded or application/json")
        }
        let username = try Self.credential(fields, "username").trimmingCharacters(in: .whitespacesAndNewlines)
        if username.isEmpty { throw APIError.badRequest("username is required") }
        let password = try Self.credential(fields, "password")
        if let grant = fields.object["grant_type"], grant != .string("password") {
            throw APIError.badRequest("grant_type must be 'password'")
        }

        let user: User
        switch try await UserSignIn.check(username: username, password: password, request: req) {
        case .refused(let wait):
            throw APIError.tooManyRequests("Too many failed login attempts. Try again in \(wait) seconds.", retryAfter: wait)
        case .failed:
            throw APIError.unauthorized("Incorrect username or password")
        case .succeeded(let account):
            user = account
        }
        let token = try await req.core.tokens.issue(
            subject: user.id!.lowercased, version: user.tokenVersion, now: req.core.clock.now())
        return try JSONResponse.make(
            LoginResponse(accessToken: token, tokenType: "bearer", expiresIn: TokenService.lifetimeSeconds))
    }

    /// Absent or empty → `{field} is required`; a JSON non-string → `{field} must be a string`.
    static func credential(_ fields: FieldReader, _ key: String) throws -> String {
        switch fields.object[key] {
        case .none, .null?: throw APIError.badRequest("\(key) is required")
        case .string(let s)?:
            if s.isEmpty { throw APIError.badRequest("\(key) is required") }
            if s.unicodeScalars.contains("\u{0}") { throw APIError.badRequest("\(key) contains invalid characters") }
            return s
        default: throw APIError.badRequest("\(key) must be a string")
        }
    }

    /// `application/x-www-form-urlencoded`: percent-decoded, `+` is a space, first occurrence wins.
    static func parseForm(_ data: Data) -> [String: String] {
        var result: [String: String] = [:]
        let text = String(decoding: data, as: UTF8.self)
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
            }
            let name = decode(parts[0])
            if result[name] == nil { result[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return result
    }
}
