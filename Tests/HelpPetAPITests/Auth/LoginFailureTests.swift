import AppCore
import Foundation
import Testing
import VaporTesting

/// 401 `Incorrect username or password`: one answer for every failed login (contract §4.1).
@Suite struct LoginFailureTests {
    static let detail = "Incorrect username or password"

    @Test func unknownUser() async throws {
        try await withTestApp { app in
            let response = try await app.post("/api/v1/auth/token", json: ["username": "nobody", "password": "password123"])
            expectError(response, .unauthorized, Self.detail)
        }
    }

    @Test func wrongPassword() async throws {
        try await withTestApp { app in
            let response = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password124"])
            expectError(response, .unauthorized, Self.detail)
            let caseChanged = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "PASSWORD123"])
            expectError(caseChanged, .unauthorized, Self.detail)
        }
    }

    @Test func inactiveUserGetsTheSameAnswer() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let deactivated = try await app.put(
                "/api/v1/users/\(Demo.vet2.id.uuidString.lowercased())", token: admin, json: ["is_active": false])
            #expect(deactivated.status == .ok, "\(deactivated)")
            let response = try await app.post("/api/v1/auth/token", json: ["username": "vet2", "password": "password123"])
            expectError(response, .unauthorized, Self.detail)
        }
    }

    @Test func passwordLongerThan72BytesNeverMatches() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let password = String(repeating: "p", count: 70) + "é"  // 72 bytes of UTF-8
            #expect(password.utf8.count == 72)
            let created = try await app.post("/api/v1/users", token: admin, json: [
                "username": "longpass", "password": password, "email": "longpass@example.com",
                "full_name": "Long Password", "role": "ADMIN",
            ])
            #expect(created.status == .created, "\(created)")
            let exact = try await app.post("/api/v1/auth/token", json: ["username": "longpass", "password": password])
            #expect(exact.status == .ok, "\(exact)")
            // bcrypt reads only 72 bytes, so these would match if the server did not refuse them itself.
            for suffix in ["x", "anything else at all"] {
                let longer = try await app.post(
                    "/api/v1/auth/token", json: ["username": "longpass", "password": password + suffix])
                expectError(longer, .unauthorized, Self.detail)
            }
        }
    }

    /// §1.12: `WWW-Authenticate: Bearer` on every 401, the failed login included.
    @Test func failureHasBearerChallengeAndOnlyADetail() async throws {
        try await withTestApp { app in
            let response = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "nope"])
            expectError(response, .unauthorized, Self.detail)
            #expect(response.json.keys == ["detail"])
            #expect(response.headers.first(name: .wwwAuthenticate) == "Bearer")
            #expect(response.headers.first(name: .cacheControl) == "no-store")
        }
    }
}
