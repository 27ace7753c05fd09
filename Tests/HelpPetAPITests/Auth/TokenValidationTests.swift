import AppCore
import Foundation
import Testing
import VaporTesting

/// Bearer token checks (contract §2.1, §2.2): every failure is a 401 with `WWW-Authenticate: Bearer` and one of
/// three details.
@Suite struct TokenValidationTests {
    static let notAuthenticated = "Not authenticated"
    static let invalid = "Could not validate credentials"

    static func expect401(
        _ response: TestResponse, _ detail: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectError(response, .unauthorized, detail, sourceLocation: sourceLocation)
        #expect(response.headers.first(name: .wwwAuthenticate) == "Bearer", sourceLocation: sourceLocation)
    }

    static func me(_ app: Application, authorization: String?) async throws -> TestResponse {
        var headers = HTTPHeaders()
        if let authorization { headers.add(name: .authorization, value: authorization) }
        return try await app.get("/api/v1/auth/me", headers: headers)
    }

    // MARK: Not authenticated

    @Test func missingHeader() async throws {
        try await withTestApp { app in
            Self.expect401(try await Self.me(app, authorization: nil), Self.notAuthenticated)
        }
    }

    @Test(arguments: ["", "Bearer", "Bearer ", "Bearer    "])
    func emptyHeaderOrEmptyToken(_ value: String) async throws {
        try await withTestApp { app in
            Self.expect401(try await Self.me(app, authorization: value), Self.notAuthenticated)
        }
    }

    @Test func wrongScheme() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.vet1)
            for value in ["Basic dmV0MTpwYXNzd29yZDEyMw==", "Token \(token)", "JWT \(token)", token, "Bearer-\(token)"] {
                Self.expect401(try await Self.me(app, authorization: value), Self.notAuthenticated)
            }
        }
    }

    @Test func schemeIsCaseInsensitive() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.vet1)
            for scheme in ["bearer", "BEARER", "bEaReR"] {
                let response = try await Self.me(app, authorization: "\(scheme) \(token)")
                #expect(response.status == .ok, "\(scheme): \(response)")
            }
        }
    }

    // MARK: Could not validate credentials

    @Test(arguments: ["garbage", "a.b.c", "eyJhbGciOiJIUzI1NiJ9", "...", "eyJ.eyJ.sig"])
    func garbageToken(_ token: String) async throws {
        try await withTestApp { app in
            Self.expect401(try await Self.me(app, authorization: "Bearer \(token)"), Self.invalid)
        }
    }

    @Test func signatureWithAnotherSecret() async throws {
        try await withTestApp { app in
            let token = try await TokenForgery.hmac(
                subject: Demo.vet1.id.uuidString.lowercased(), secret: "another-secret-0123456789abcdef-0123456789")
            Self.expect401(try await Self.me(app, authorization: "Bearer \(token)"), Self.invalid)
        }
    }

    @Test func tamperedPayload() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.vet1)
            let forged = TokenForgery.withPayload(token, subject: Demo.admin.id.uuidString.lowercased())
            Self.expect401(try await Self.me(app, authorization: "Bearer \(forged)"), Self.invalid)
        }
    }

    @Test func truncatedSignature() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.vet1)
            Self.expect401(try await Self.me(app, authorization: "Bearer \(token.dropLast(4))"), Self.invalid)
        }
    }

    @Test func algNone() async throws {
        try await withTestApp { app in
            let token = TokenForgery.unsigned(subject: Demo.admin.id.uuidString.lowercased())
            Self.expect401(try await Self.me(app, authorization: "Bearer \(token)"), Self.invalid)
        }
    }

    @Test func algHS512WithTheServerSecret() async throws {
        try await withTestApp { app in
            let token = try await TokenForgery.hmac(subject: Demo.vet1.id.uuidString.lowercased(), digest: .sha512)
            Self.expect401(try await Self.me(app, authorization: "Bearer \(token)"), Self.invalid)
            let hs384 = try await TokenForgery.hmac(subject: Demo.vet1.id.uuidString.lowercased(), digest: .sha384)
            Self.expect401(try await Self.me(app, authorization: "Bearer \(hs384)"), Self.invalid)
        }
    }

    @Test func forgeryHelperMakesValidHS256Tokens() async throws {
        // Control for the tests above: the same helper with HS256 and the server's secret is accepted.
        try await withTestApp { app in
            let token = try await TokenForgery.hmac(subject: Demo.vet1.id.uuidString.lowercased())
            let response = try await Self.me(app, authorization: "Bearer \(token)")
            #expect(response.status == .ok, "\(response)")
        }
    }

    @Test func expiredBeyondTheLeeway() async throws {
        try await withTestApp { app in
            let now = Date()
            let expired = try await TokenForgery.hmac(
                subject: Demo.vet1.id.uuidString.lowercased(), issuedAt: now.addingTimeInterval(-30_000),
                expires: now.addingTimeInterval(-40))
            Self.expect401(try await Self.me(app, authorization: "Bearer \(expired)"), Self.invalid)
            // A token issued by the server 8 hours and 40 seconds ago has expired too.
            let old = try await app.token(for: Demo.vet1.id, issuedAt: now.addingTimeInterval(-28_840))
            Self.expect401(try await Self.me(app, authorization: "Bearer \(old)"), Self.invalid)
        }
    }

    @Test func expiredWithinTheLeewayIsAccepted() async throws {
        try await withTestApp { app in
            let now = Date()
            let token = try await TokenForgery.hmac(
                subject: Demo.vet1.id.uuidString.lowercased(), issuedAt: now.addingTimeInterval(-28_810),
                expires: now.addingTimeInterval(-10))
            let response = try await Self.me(app, authorization: "Bearer \(token)")
            #expect(response.status == .ok, "\(response)")
        }
    }

    @Test func unknownSubject() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: UUID())
            Self.expect401(try await Self.me(app, authorization: "Bearer \(token)"), Self.invalid)
            let notAUUID = try await TokenForgery.hmac(subject: "vet1")
            Self.expect401(try await Self.me(app, authorization: "Bearer \(notAUUID)"), Self.invalid)
        }
    }

    @Test func tokenIssuedBeforeAPasswordChange() async throws {
        try await withTestApp { app in
            // Issued 10 s ago, so it is strictly older than the change (iat has whole-second precision).
            let old = try await app.token(for: Demo.vet1.id, issuedAt: Date().addingTimeInterval(-10))
            #expect(try await Self.me(app, authorization: "Bearer \(old)").status == .ok)

            let admin = try await app.token(for: Demo.admin)
            let changed = try await app.put(
                "/api/v1/users/\(Demo.vet1.id.uuidString.lowercased())", token: admin,
                json: ["password": "a-new-password"])
            #expect(changed.status == .ok, "\(changed)")

            Self.expect401(try await Self.me(app, authorization: "Bearer \(old)"), Self.invalid)
            let oldPassword = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            expectError(oldPassword, .unauthorized, "Incorrect username or password")
            let fresh = try await app.login("vet1", "a-new-password")
            #expect(try await Self.me(app, authorization: "Bearer \(fresh)").status == .ok)
        }
    }

    @Test func otherUpdatesDoNotInvalidateTokens() async throws {
        try await withTestApp { app in
            let old = try await app.token(for: Demo.vet1.id, issuedAt: Date().addingTimeInterval(-10))
            let admin = try await app.token(for: Demo.admin)
            let changed = try await app.put(
                "/api/v1/users/\(Demo.vet1.id.uuidString.lowercased())", token: admin,
                json: ["full_name": "Dr. Sarah J. Johnson"])
            #expect(changed.status == .ok, "\(changed)")
            let me = try await Self.me(app, authorization: "Bearer \(old)")
            #expect(me.status == .ok)
            #expect(me.json["full_name"].string == "Dr. Sarah J. Johnson")
        }
    }

    // MARK: Inactive user

    @Test func inactiveUser() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.vet2)
            let admin = try await app.token(for: Demo.admin)
            let deactivated = try await app.put(
                "/api/v1/users/\(Demo.vet2.id.uuidString.lowercased())", token: admin, json: ["is_active": false])
            #expect(deactivated.status == .ok, "\(deactivated)")
            Self.expect401(try await Self.me(app, authorization: "Bearer \(token)"), "Inactive user")
            // Reactivation applies at once too, but the deactivation voided the old token (§2.1): a new login works.
            let reactivated = try await app.put(
                "/api/v1/users/\(Demo.vet2.id.uuidString.lowercased())", token: admin, json: ["is_active": true])
            #expect(reactivated.status == .ok)
            Self.expect401(try await Self.me(app, authorization: "Bearer \(token)"), Self.invalid)
            let fresh = try await app.token(for: Demo.vet2)
            #expect(try await Self.me(app, authorization: "Bearer \(fresh)").status == .ok)
        }
    }

    /// §2.1: a role change increments the token version, so the old token is void at once and a new login carries
    /// the new role.
    @Test func roleChangesApplyImmediately() async throws {
        try await withTestApp { app in
            let vetToken = try await app.token(for: Demo.vet2)
            let before = try await app.get("/api/v1/users", token: vetToken)
            expectError(before, .forbidden, "Administrator access required")
            let admin = try await app.token(for: Demo.admin)
            let promoted = try await app.put(
                "/api/v1/users/\(Demo.vet2.id.uuidString.lowercased())", token: admin,
                json: ["role": "ADMIN", "practice_id": nil])
            #expect(promoted.status == .ok, "\(promoted)")
            expectError(try await app.get("/api/v1/users", token: vetToken), .unauthorized, "Could not validate credentials")
            let after = try await app.get("/api/v1/users", token: try await app.token(for: Demo.vet2))
            #expect(after.status == .ok, "\(after)")
        }
    }

    /// `GET /practices` without a token is the public practice directory (PracticeDirectoryTests).
    @Test func protectedRoutesAllRequireAToken() async throws {
        try await withTestApp { app in
            let id = Demo.practiceID.uuidString.lowercased()
            for (method, path) in [
                (HTTPMethod.GET, "/api/v1/auth/me"), (.GET, "/api/v1/users"), (.POST, "/api/v1/users"),
                (.GET, "/api/v1/users/\(Demo.vet1.id.uuidString.lowercased())"), (.PUT, "/api/v1/users/x"),
                (.POST, "/api/v1/practices"), (.GET, "/api/v1/practices/\(id)"),
                (.PUT, "/api/v1/practices/\(id)"),
            ] {
                let response = try await app.send(method, path, body: "{}", contentType: .json)
                Self.expect401(response, Self.notAuthenticated)
            }
        }
    }
}
