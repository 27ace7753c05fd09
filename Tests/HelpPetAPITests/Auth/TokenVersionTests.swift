import Foundation
import Testing
import VaporTesting

/// Contract §2.1: tokens carry the user's token version, which a password, role or activation change increments in
/// the same transaction; every token minted before the change's commit is void after it, even one minted in the
/// same second or while the change was running.
@Suite struct TokenVersionTests {
    static let vet1Path = "/api/v1/users/\(Demo.vet1.id.uuidString.lowercased())"
    /// Generous limits: this suite races logins against a change, it does not test the throttle.
    static let env = ["LOGIN_MAX_FAILURES": "1000", "LOGIN_USER_MAX_FAILURES": "1000", "LOGIN_IP_MAX_FAILURES": "1000"]

    static func me(_ app: Application, _ token: String) async throws -> TestResponse {
        try await app.get("/api/v1/auth/me", token: token)
    }

    @Test func loginsRacingAPasswordChangeLeaveNoTokenAlive() async throws {
        try await withTestApp(env: Self.env) { app in
            let admin = try await app.token(for: Demo.admin)
            // 50 logins with the old password, started 40 ms apart, and the change in the middle of them.
            let (tokens, changed) = try await withThrowingTaskGroup(of: (String?, TestResponse?).self) { group in
                for index in 0..<50 {
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(40 * index))
                        let login = try await app.post(
                            "/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
                        return (login.status == .ok ? login.json["access_token"].string : nil, nil)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(1_000))
                    return (nil, try await app.put(Self.vet1Path, token: admin, json: ["password": "a-new-password"]))
                }
                var tokens: [String] = []
                var changed: TestResponse?
                for try await (token, change) in group {
                    if let token { tokens.append(token) }
                    if let change { changed = change }
                }
                return (tokens, changed)
            }
            #expect(changed?.status == .ok, "\(String(describing: changed))")
            #expect(!tokens.isEmpty, "no login with the old password succeeded before the change")
            for token in tokens {
                let me = try await Self.me(app, token)
                expectError(me, .unauthorized, "Could not validate credentials")
            }
            let fresh = try await app.login("vet1", "a-new-password")
            #expect(try await Self.me(app, fresh).status == .ok)
        }
    }

    @Test func aTokenMintedInTheSameSecondAsTheChangeIsVoid() async throws {
        try await withTestApp(env: Self.env) { app in
            let admin = try await app.token(for: Demo.admin)
            let before = try await app.login(Demo.vet1)
            let changed = try await app.put(Self.vet1Path, token: admin, json: ["password": "a-new-password"])
            #expect(changed.status == .ok, "\(changed)")
            expectError(try await Self.me(app, before), .unauthorized, "Could not validate credentials")
        }
    }

    @Test func roleChangeAndDeactivationVoidTokensOtherChangesDoNot() async throws {
        try await withTestApp(env: Self.env) { app in
            let admin = try await app.token(for: Demo.admin)
            let first = try await app.login(Demo.vet1)
            let renamed = try await app.put(Self.vet1Path, token: admin, json: ["full_name": "Dr. S. Johnson"])
            #expect(renamed.status == .ok, "\(renamed)")
            #expect(try await Self.me(app, first).status == .ok, "a name change keeps tokens")

            let promoted = try await app.put(Self.vet1Path, token: admin, json: ["role": "VET"])
            #expect(promoted.status == .ok, "\(promoted)")
            expectError(try await Self.me(app, first), .unauthorized, "Could not validate credentials")

            let second = try await app.login(Demo.vet1)
            let deactivated = try await app.put(Self.vet1Path, token: admin, json: ["is_active": false])
            #expect(deactivated.status == .ok, "\(deactivated)")
            let reactivated = try await app.put(Self.vet1Path, token: admin, json: ["is_active": true])
            #expect(reactivated.status == .ok, "\(reactivated)")
            expectError(try await Self.me(app, second), .unauthorized, "Could not validate credentials")
        }
    }

    @Test func aTokenWithoutAVersionOrWithAnotherVersionIsRefused() async throws {
        try await withTestApp(env: Self.env) { app in
            let subject = Demo.vet1.id.uuidString.lowercased()
            let wrongVersion = try await TokenForgery.hmac(subject: subject, version: 7)
            expectError(try await Self.me(app, wrongVersion), .unauthorized, "Could not validate credentials")
            let current = try await TokenForgery.hmac(subject: subject, version: 0)
            #expect(try await Self.me(app, current).status == .ok)
            let unversioned = try await TokenForgery.unversioned(subject: subject)
            expectError(try await Self.me(app, unversioned), .unauthorized, "Could not validate credentials")
        }
    }
}
