import Foundation
import Testing
import VaporTesting

/// Contract §2.3: an attempt is reserved before its password is verified, so a burst of parallel guesses for one
/// (username, IP) gets at most the limit verified; the rest, a correct password among them, are refused with 429.
@Suite struct ParallelLoginThrottleTests {
    static let wrong = ["username": "vet1", "password": "wrong-password"]

    /// `count` logins sent all at once; a 503 (pool wait on a loaded machine) is retried as a client would.
    static func burst(_ app: Application, count: Int, body: [String: String] = wrong) async throws -> [TestResponse] {
        try await RecordingInvariantsTests.concurrently(count) { _ in
            try await app.post("/api/v1/auth/token", json: body)
        }
    }

    @Test func parallelWrongGuessesGetAtMostTheLimitVerified() async throws {
        try await withTestApp { app in
            let responses = try await Self.burst(app, count: 120)
            let verified = responses.filter { $0.status == .unauthorized }
            let refused = responses.filter { $0.status == .tooManyRequests }
            #expect(verified.count <= 5, "\(verified.count) wrong passwords were verified")
            #expect(verified.count >= 1)
            #expect(verified.count + refused.count == 120, "\(responses.map(\.status.code))")
            for response in refused {
                let wait = Int(response.headers.first(name: "Retry-After") ?? "") ?? 0
                #expect(wait >= 1, "\(response.headers)")
                #expect(response.detail == "Too many failed login attempts. Try again in \(wait) seconds.")
            }
            // The verified failures block the key afterwards, for the correct password too.
            let correct = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            #expect(correct.status == .tooManyRequests, "\(correct)")
        }
    }

    @Test func aCorrectPasswordInsideTheBurstIsRefused() async throws {
        try await withTestApp { app in
            let correct = try await withThrowingTaskGroup(of: TestResponse?.self) { group in
                for _ in 0..<60 {
                    group.addTask {
                        try await RecordingInvariantsTests.retryingUnavailable {
                            try await app.post("/api/v1/auth/token", json: Self.wrong)
                        }
                    }
                }
                // Sent while the burst's guesses are still being verified (the demo hashes take ~250 ms each, two
                // at a time): their reservations already fill the key, so this one is refused unverified.
                try await Task.sleep(for: .milliseconds(300))
                let correct = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
                try await group.waitForAll()
                return correct
            }
            #expect(correct.status == .tooManyRequests, "\(correct)")
        }
    }

    @Test func aSuccessDoesNotClearThePerUsernameCount() async throws {
        // Per username the cap is 3 here; failures from three addresses cannot be reset by one success.
        try await withTestApp(env: ["LOGIN_USER_MAX_FAILURES": "3"]) { app in
            for _ in 0..<2 {
                let response = try await app.post("/api/v1/auth/token", json: Self.wrong)
                #expect(response.status == .unauthorized, "\(response)")
            }
            _ = try await app.login(Demo.vet1)
            let third = try await app.post("/api/v1/auth/token", json: Self.wrong)
            #expect(third.status == .unauthorized, "\(third)")
            let blocked = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            #expect(blocked.status == .tooManyRequests, "\(blocked)")
        }
    }
}
