import Foundation
import Testing
import VaporTesting

/// Contract §2.7 with the hardening issue: an admin login attempt is reserved before its password is verified (a
/// parallel burst gets at most 5 guesses verified per (username, IP)), and a password change voids every other
/// session, including one a concurrent login mints while the change commits (token version).
@Suite struct AdminLoginHardeningTests {
    static var wrong: [String: Any?] { ["username": "admin", "password": "wrong-password-x"] }
    static var right: [String: Any?] { ["username": "admin", "password": TestEnvironment.adminPassword] }

    @Test func parallelGuessesGetAtMostFiveVerified() async throws {
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "false"]) { app in
            let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<20 { group.addTask { try await app.post("/api/admin/login", Self.wrong) } }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            let verified = responses.filter { $0.status == .unauthorized }.count
            #expect(verified <= 5 && verified >= 1, "\(verified) guesses were verified: \(responses.map(\.status.code))")
            for response in responses where response.status != .unauthorized {
                expectError(response, .tooManyRequests, "Too many requests")
                #expect(Int(response.headers.first(name: "Retry-After") ?? "") ?? 0 >= 1)
            }
            // The (username, IP) pair has reached its five failures: even the right password waits.
            let correct = try await app.post("/api/admin/login", Self.right)
            expectError(correct, .tooManyRequests, "Too many requests")
        }
    }

    /// A studio whose staff sign in from behind one NAT address: successful sign-ins do not count against the
    /// per-IP limit, which counts failures (docs/login-and-sessions.md, "Studio sign-in limits").
    @Test func manySuccessfulSignInsFromOneAddressAreNotThrottled() async throws {
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "false"]) { app in
            for attempt in 1...25 {
                let response = try await app.post("/api/admin/login", Self.right)
                #expect(response.status == .ok, "sign-in \(attempt): \(response)")
            }
        }
    }

    @Test func failuresFromOneAddressAreCappedAtTwentyWhateverTheUsername() async throws {
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "false"]) { app in
            // Four usernames, five failures each: no (username, IP) pair goes over its own limit of five.
            for attempt in 0..<20 {
                let response = try await app.post(
                    "/api/admin/login", ["username": "user\(attempt % 4)", "password": "wrong-password-x"])
                #expect(response.status == .unauthorized, "failure \(attempt + 1): \(response)")
            }
            expectError(
                try await app.post("/api/admin/login", ["username": "someone", "password": "wrong-password-x"]),
                .tooManyRequests, "Too many requests")
            expectError(try await app.post("/api/admin/login", Self.right), .tooManyRequests, "Too many requests")
        }
    }

    @Test func successfulSignInsOfOneAccountFromOneAddressAreBounded() async throws {
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "false"]) { app in
            for attempt in 1...60 {
                let response = try await app.post("/api/admin/login", Self.right)
                #expect(response.status == .ok, "sign-in \(attempt): \(response)")
            }
            let more = try await app.post("/api/admin/login", Self.right)
            expectError(more, .tooManyRequests, "Too many requests")
            #expect(Int(more.headers.first(name: "Retry-After") ?? "") ?? 0 >= 1)
        }
    }

    @Test func aCorrectPasswordInsideTheBurstIsRefused() async throws {
        // Cost 12: each guess takes a few hundred milliseconds to verify, two at a time.
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "false", "BCRYPT_COST": "12"]) { app in
            let correct = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<15 { group.addTask { try await app.post("/api/admin/login", Self.wrong) } }
                // The burst's reservations fill the key long before its guesses are verified.
                try await Task.sleep(for: .milliseconds(300))
                let correct = try await app.post("/api/admin/login", Self.right)
                try await group.waitForAll()
                return correct
            }
            expectError(correct, .tooManyRequests, "Too many requests")
        }
    }

    @Test func loginsRacingAPasswordChangeLeaveNoOtherSessionAlive() async throws {
        // bcrypt cost 10 (tens of milliseconds per check) makes logins straddle the change's commit.
        try await withTestApp(env: ["BCRYPT_COST": "10"]) { app in
            let changer = try await app.adminToken()
            let (sessions, changed) = try await withThrowingTaskGroup(of: ([String], TestResponse?).self) { group in
                for lane in 0..<3 {
                    group.addTask {
                        var tokens: [String] = []
                        for round in 0..<12 {
                            try await Task.sleep(for: .milliseconds(10 * lane + 5 * round))
                            let login = try await app.post("/api/admin/login", Self.right)
                            if login.status == .ok, let token = login.json["token"].string { tokens.append(token) }
                        }
                        return (tokens, nil)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(150))
                    let response = try await app.post(
                        "/api/admin/password", bearer: changer,
                        ["currentPassword": TestEnvironment.adminPassword, "newPassword": "a-brand-new-password"])
                    return ([], response)
                }
                var sessions: [String] = []
                var changed: TestResponse?
                for try await (tokens, response) in group {
                    sessions += tokens
                    if let response { changed = response }
                }
                return (sessions, changed)
            }
            #expect(changed?.status == .noContent, "\(String(describing: changed))")
            #expect(!sessions.isEmpty, "no login with the old password succeeded")
            for token in sessions {
                expectError(
                    try await app.get("/api/admin/settings", bearer: token), .unauthorized, "Invalid or expired admin token")
            }
            #expect(try await app.get("/api/admin/settings", bearer: changer).status == .ok, "the changer's session stays")
        }
    }
}
