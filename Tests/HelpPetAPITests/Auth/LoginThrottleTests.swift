import AppCore
import Foundation
import Testing
import VaporTesting

/// Login throttling (contract §2.3): 5 failures for one (username, client IP) block that key for 900 s.
/// In process every request comes from the same client address, so the key is the username.
@Suite struct LoginThrottleTests {
    static func fail(_ app: Application, _ username: String, times: Int) async throws {
        for attempt in 1...times {
            let response = try await app.post("/api/v1/auth/token", json: ["username": username, "password": "wrong-password"])
            expectError(response, .unauthorized, "Incorrect username or password")
            if response.status != .unauthorized { Issue.record("attempt \(attempt) was not a 401") }
        }
    }

    static func expectThrottled(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == .tooManyRequests, "\(response)", sourceLocation: sourceLocation)
        let detail = response.detail ?? ""
        let prefix = "Too many failed login attempts. Try again in "
        let suffix = " seconds."
        #expect(detail.hasPrefix(prefix) && detail.hasSuffix(suffix), "\(detail)", sourceLocation: sourceLocation)
        let n = Int(detail.dropFirst(prefix.count).dropLast(suffix.count)) ?? -1
        #expect((890...900).contains(n), "remaining seconds \(n)", sourceLocation: sourceLocation)
        #expect(response.headers.first(name: "Retry-After") == String(n), sourceLocation: sourceLocation)
        #expect(response.headers.first(name: .contentType) == "application/json; charset=utf-8", sourceLocation: sourceLocation)
    }

    @Test func fiveFailuresBlockEvenTheCorrectPassword() async throws {
        try await withTestApp { app in
            try await Self.fail(app, "vet1", times: 5)
            let correct = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            Self.expectThrottled(correct)
            let wrong = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "wrong-password"])
            Self.expectThrottled(wrong)
        }
    }

    @Test func fourFailuresDoNotBlock() async throws {
        try await withTestApp { app in
            try await Self.fail(app, "vet1", times: 4)
            let correct = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            #expect(correct.status == .ok, "\(correct)")
        }
    }

    @Test func successClearsTheKey() async throws {
        try await withTestApp { app in
            try await Self.fail(app, "vet1", times: 4)
            _ = try await app.login(Demo.vet1)
            // Without the reset, the 5th failure overall (the first one here) would block the key.
            try await Self.fail(app, "vet1", times: 4)
            let correct = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            #expect(correct.status == .ok, "\(correct)")
        }
    }

    @Test func theBlockIsPerUsername() async throws {
        try await withTestApp { app in
            try await Self.fail(app, "vet1", times: 5)
            let other = try await app.post("/api/v1/auth/token", json: ["username": "vet2", "password": "password123"])
            #expect(other.status == .ok, "\(other)")
        }
    }

    @Test func usernameKeyIsCaseInsensitiveAndTrimmed() async throws {
        try await withTestApp { app in
            try await Self.fail(app, "VET1", times: 3)
            try await Self.fail(app, " Vet1 ", times: 2)
            let correct = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            Self.expectThrottled(correct)
        }
    }

    @Test func unknownUsernamesAreThrottledToo() async throws {
        try await withTestApp { app in
            try await Self.fail(app, "ghost", times: 5)
            let response = try await app.post("/api/v1/auth/token", json: ["username": "ghost", "password": "whatever"])
            Self.expectThrottled(response)
        }
    }

    @Test func disableRateLimitsTurnsThrottlingOff() async throws {
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "true"]) { app in
            try await Self.fail(app, "vet1", times: 7)
            let correct = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            #expect(correct.status == .ok, "\(correct)")
        }
    }

    @Test func thresholdIsConfigurable() async throws {
        try await withTestApp(env: ["LOGIN_MAX_FAILURES": "2"]) { app in
            try await Self.fail(app, "vet1", times: 2)
            let correct = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            Self.expectThrottled(correct)
        }
    }
}
