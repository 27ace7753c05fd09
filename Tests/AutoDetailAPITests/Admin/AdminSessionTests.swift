import AppCore
import Foundation
import Testing
import VaporTesting

/// Console sessions (contract §2.6, §4.7.1) and the login limits (§2.7).
@Suite struct AdminSessionTests {
    @Test func loginLogoutAndTokens() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let login = try await app.post("/api/admin/login", ["username": "  ADMIN ", "password": TestEnvironment.adminPassword])
            #expect(login.status == .ok, "\(login)")
            #expect(login.json.keys == ["token", "expiresIn", "expiresAt"])
            let token = try #require(login.json["token"].string)
            #expect(token.range(of: "^adm_[0-9a-f]{64}$", options: .regularExpression) != nil)
            #expect(login.json["expiresIn"].int == 43_200 && login.json["expiresAt"].string == "2025-03-14T18:40:00Z")

            expectError(try await app.post("/api/admin/login", [:]), .badRequest, "Missing required fields: username, password")
            expectError(try await app.post("/api/admin/login", ["username": "admin"]), .badRequest, "Missing required fields: password")
            expectError(
                try await app.post("/api/admin/login", ["username": "admin", "password": " \(TestEnvironment.adminPassword)"]),
                .unauthorized, "Invalid username or password")
            expectError(
                try await app.post("/api/admin/login", ["username": "root", "password": TestEnvironment.adminPassword]),
                .unauthorized, "Invalid username or password")
            expectError(
                try await app.post("/api/admin/login", ["username": "admin", "password": String(repeating: "p", count: 129)]),
                .badRequest, "Invalid field: password (must be at most 128 characters)")

            let settings = "/api/admin/settings"
            #expect(try await app.get(settings, bearer: token).status == .ok)
            expectError(try await app.get(settings), .unauthorized, "Missing admin token")
            expectError(try await app.get(settings, bearer: "adm_" + String(repeating: "0", count: 64)), .unauthorized,
                        "Invalid or expired admin token")
            expectError(try await app.get(settings, bearer: app.orgKey), .unauthorized, "Invalid or expired admin token")
            expectError(try await app.get(settings, key: token), .unauthorized, "Missing admin token")
            expectError(try await app.get(settings, headers: ["Authorization": "Basic \(token)"]), .unauthorized,
                        "Invalid or expired admin token")

            // Absolute lifetime of 12 hours.
            clock.advance(by: 43_199)
            #expect(try await app.get(settings, bearer: token).status == .ok)
            clock.advance(by: 1)
            expectError(try await app.get(settings, bearer: token), .unauthorized, "Invalid or expired admin token")

            let second = try await app.adminToken()
            let logout = try await app.send(.POST, "/api/admin/logout", bearer: second)
            #expect(logout.status == .noContent && logout.body.isEmpty)
            expectError(try await app.get(settings, bearer: second), .unauthorized, "Invalid or expired admin token")
        }
    }

    @Test func passwordChange() async throws {
        try await withTestApp { app in
            let token = try await app.adminToken()
            let other = try await app.adminToken()
            func change(_ body: [String: Any?]) async throws -> TestResponse {
                try await app.post("/api/admin/password", bearer: token, body)
            }
            expectError(try await change([:]), .badRequest, "Missing required fields: currentPassword, newPassword")
            expectError(
                try await change(["currentPassword": TestEnvironment.adminPassword, "newPassword": "short"]), .badRequest,
                "Invalid field: newPassword (must be 12-128 characters)")
            expectError(
                try await change(["currentPassword": TestEnvironment.adminPassword, "newPassword": TestEnvironment.adminPassword]),
                .badRequest, "Invalid field: newPassword (must differ from the current password)")
            expectError(
                try await change(["currentPassword": "wrong-password-1", "newPassword": "a-brand-new-password"]), .badRequest,
                "Current password is incorrect")
            let changed = try await change(["currentPassword": TestEnvironment.adminPassword, "newPassword": "a-brand-new-password"])
            #expect(changed.status == .noContent, "\(changed)")
            #expect(try await app.get("/api/admin/settings", bearer: token).status == .ok, "the current session stays")
            expectError(try await app.get("/api/admin/settings", bearer: other), .unauthorized, "Invalid or expired admin token")
            expectError(
                try await app.post("/api/admin/login", ["username": "admin", "password": TestEnvironment.adminPassword]),
                .unauthorized, "Invalid username or password")
            #expect(try await app.post("/api/admin/login", ["username": "admin", "password": "a-brand-new-password"]).status == .ok)
        }
    }

    @Test func loginLimits() async throws {
        let clock = Fixture.clock()
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "false"], clock: clock) { app in
            let wrong: [String: Any?] = ["username": "admin", "password": "wrong-password-x"]
            let right: [String: Any?] = ["username": "Admin", "password": TestEnvironment.adminPassword]
            for _ in 0..<5 { expectError(try await app.post("/api/admin/login", wrong), .unauthorized, "Invalid username or password") }
            let locked = try await app.post("/api/admin/login", right)
            expectError(locked, .tooManyRequests, "Too many requests")
            #expect(locked.headers.first(name: "Retry-After") == "900")
            clock.advance(by: 900)
            #expect(try await app.post("/api/admin/login", right).status == .ok, "the window has passed")
            // A success clears the (username, IP) counter.
            for _ in 0..<4 { _ = try await app.post("/api/admin/login", wrong) }
            #expect(try await app.post("/api/admin/login", right).status == .ok)
            for _ in 0..<4 { _ = try await app.post("/api/admin/login", wrong) }
            #expect(try await app.post("/api/admin/login", right).status == .ok)
            // 20 attempts per IP per 15 minutes, whatever the outcome.
            clock.advance(by: 901)
            for i in 0..<20 {
                expectError(
                    try await app.post("/api/admin/login", ["username": "someone\(i)", "password": "x"]), .unauthorized,
                    "Invalid username or password")
            }
            let limited = try await app.post("/api/admin/login", right)
            expectError(limited, .tooManyRequests, "Too many requests")
            #expect(Int(limited.headers.first(name: "Retry-After") ?? "") == 900)
        }
    }
}
