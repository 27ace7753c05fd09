import AppCore
import Foundation
@testable import HelpPetAPI
import SQLKit
import Testing
import VaporTesting

/// A forgotten password (docs/login-and-sessions.md, "Forgotten password") on the test's database engine: the same
/// answer for every address, a single-use link that works 30 minutes and is stored only as its hash, a new password
/// that ends every token and console session, the email that says so, and the limits per address.
@Suite struct PasswordResetTests {
    static let requestPath = "/api/v1/auth/password-reset"
    static let confirmPath = "/api/v1/auth/password-reset/confirm"

    /// The token of the newest link emailed to `recipient`, read from the queued message as its reader would.
    static func linkToken(_ app: Application, to recipient: String) async throws -> (token: String, link: String) {
        let rows = try await app.db.sql.raw("""
            SELECT raw_message FROM mail_outbox WHERE kind = 'password_reset' AND recipient = \(bind: recipient)
            ORDER BY created_at DESC
            """).all()
        let encoded = try #require(try rows.first?.decode(column: "raw_message", as: String.self))
        // The text part is quoted-printable: a long line is wrapped with soft breaks, and `=` is written `=3D`.
        let raw = encoded.replacingOccurrences(of: "=\r\n", with: "").replacingOccurrences(of: "=3D", with: "=")
        let match = try #require(raw.firstMatch(of: #/(https?://\S+/password-reset/confirm\?token=([A-Za-z0-9_-]{43}))/#))
        return (String(match.2), String(match.1))
    }

    static func mailKinds(_ app: Application, to recipient: String) async throws -> [String] {
        try await app.db.sql.raw("""
            SELECT kind FROM mail_outbox WHERE recipient = \(bind: recipient) ORDER BY created_at, kind
            """).all().map { try $0.decode(column: "kind", as: String.self) }
    }

    @Test func theEmailedLinkSetsANewPasswordAndEndsEveryTokenAndConsoleSession() async throws {
        try await withTestApp { app in
            let oldToken = try await app.token(for: Demo.vet1)
            let sessionHash = ConsoleCredentials.hash("a-console-session")
            try await ConsoleSessionStore(db: app.db).create(
                tokenHash: sessionHash, userID: Demo.vet1.id, tokenVersion: 0, device: (nil, nil), now: Date(),
                lifetime: 3600, maxLive: 20)

            let requested = try await app.post(Self.requestPath, json: ["email": "  VET1@helppet.ai "])
            #expect(requested.status == .accepted, "\(requested)")
            #expect(requested.json["message"].string == PasswordResets.requestedMessage)
            let (token, link) = try await Self.linkToken(app, to: "vet1@helppet.ai")
            #expect(link.hasPrefix("http://") && link.contains("/clinic/password-reset/confirm?token="))
            // Only the token's hash is stored.
            let stored = try await app.db.sql.raw("SELECT token_hash FROM password_resets").all()
                .map { try $0.decode(column: "token_hash", as: String.self) }
            #expect(stored == [ConsoleCredentials.hash(token)])

            let confirmed = try await app.post(Self.confirmPath, json: ["token": token, "new_password": "a-brand-new-one"])
            #expect(confirmed.status == .ok, "\(confirmed)")
            #expect(confirmed.json["message"].string == PasswordResets.changedMessage)

            expectError(try await app.get("/api/v1/users/me", token: oldToken), .unauthorized, "Could not validate credentials")
            #expect(try await ConsoleSessionStore(db: app.db).live(tokenHash: sessionHash, now: Date()) == nil)
            let oldPassword = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            #expect(oldPassword.status == .unauthorized, "\(oldPassword)")
            let newPassword = try await app.post("/api/v1/auth/token", json: ["username": "vet1", "password": "a-brand-new-one"])
            #expect(newPassword.status == .ok, "\(newPassword)")
            #expect(try await Self.mailKinds(app, to: "vet1@helppet.ai").sorted() == ["password_changed", "password_reset"])

            expectError(
                try await app.post(Self.confirmPath, json: ["token": token, "new_password": "yet-another-one"]),
                .badRequest, PasswordResets.invalidLink.message)
        }
    }

    @Test func anUnknownAddressGetsTheSameAnswerAndNoEmail() async throws {
        try await withTestApp { app in
            let known = try await app.post(Self.requestPath, json: ["email": "vet2@helppet.ai"])
            let unknown = try await app.post(Self.requestPath, json: ["email": "nobody@example.com"])
            #expect(known.status == .accepted && unknown.status == .accepted)
            #expect(known.text == unknown.text)
            let recipients = try await app.db.sql.raw("SELECT recipient FROM mail_outbox").all()
                .map { try $0.decode(column: "recipient", as: String.self) }
            #expect(recipients == ["vet2@helppet.ai"])
        }
    }

    @Test func aLinkStopsWorkingAfterThirtyMinutes() async throws {
        let clock = ManualClock(Date())
        try await withTestApp(clock: clock) { app in
            #expect(try await app.post(Self.requestPath, json: ["email": "vet2@helppet.ai"]).status == .accepted)
            let (token, _) = try await Self.linkToken(app, to: "vet2@helppet.ai")
            clock.advance(by: 30 * 60 + 1)
            expectError(
                try await app.post(Self.confirmPath, json: ["token": token, "new_password": "a-brand-new-one"]),
                .badRequest, PasswordResets.invalidLink.message)
            let old = try await app.post("/api/v1/auth/token", json: ["username": "vet2", "password": "password123"])
            #expect(old.status == .ok, "\(old)")
        }
    }

    @Test func aPasswordOutsideTheRulesIsRefusedAndTheLinkStillWorks() async throws {
        try await withTestApp { app in
            #expect(try await app.post(Self.requestPath, json: ["email": "vet2@helppet.ai"]).status == .accepted)
            let (token, _) = try await Self.linkToken(app, to: "vet2@helppet.ai")
            expectError(
                try await app.post(Self.confirmPath, json: ["token": token, "new_password": "short"]),
                .badRequest, "new_password must be between 8 and 72 bytes")
            expectError(
                try await app.post(Self.confirmPath, json: ["token": token]), .badRequest, "new_password is required")
            expectError(
                try await app.post(Self.confirmPath, json: ["token": "made-up", "new_password": "a-brand-new-one"]),
                .badRequest, PasswordResets.invalidLink.message)
            expectError(try await app.post(Self.requestPath, json: [:]), .badRequest, "email is required")
            let confirmed = try await app.post(Self.confirmPath, json: ["token": token, "new_password": "a-brand-new-one"])
            #expect(confirmed.status == .ok, "\(confirmed)")
        }
    }

    @Test func aNewerLinkAndTheOlderOneBothEndWhenEitherIsUsed() async throws {
        try await withTestApp { app in
            #expect(try await app.post(Self.requestPath, json: ["email": "vet2@helppet.ai"]).status == .accepted)
            let (first, _) = try await Self.linkToken(app, to: "vet2@helppet.ai")
            try await Task.sleep(for: .milliseconds(5))
            #expect(try await app.post(Self.requestPath, json: ["email": "vet2@helppet.ai"]).status == .accepted)
            let (second, _) = try await Self.linkToken(app, to: "vet2@helppet.ai")
            #expect(first != second)
            #expect(try await app.post(Self.confirmPath, json: ["token": second, "new_password": "a-brand-new-one"]).status == .ok)
            expectError(
                try await app.post(Self.confirmPath, json: ["token": first, "new_password": "another-new-one"]),
                .badRequest, PasswordResets.invalidLink.message)
        }
    }

    @Test func twoConcurrentUsesOfOneLinkChangeThePasswordOnce() async throws {
        try await withTestApp { app in
            #expect(try await app.post(Self.requestPath, json: ["email": "vet2@helppet.ai"]).status == .accepted)
            let (token, _) = try await Self.linkToken(app, to: "vet2@helppet.ai")
            async let a = app.post(Self.confirmPath, json: ["token": token, "new_password": "first-new-password"])
            async let b = app.post(Self.confirmPath, json: ["token": token, "new_password": "second-new-password"])
            let statuses = try await [a.status, b.status].map(\.code).sorted()
            #expect(statuses == [200, 400])
            #expect(try await Self.mailKinds(app, to: "vet2@helppet.ai").filter { $0 == "password_changed" }.count == 1)
        }
    }

    @Test func requestsAreLimitedPerAddressWhetherOrNotItHasAnAccount() async throws {
        try await withTestApp { app in
            for address in ["vet2@helppet.ai", "nobody@example.com"] {
                for _ in 0..<PasswordResets.perAddress.limit {
                    #expect(try await app.post(Self.requestPath, json: ["email": address]).status == .accepted)
                }
                let refused = try await app.post(Self.requestPath, json: ["email": address.uppercased()])
                #expect(refused.status == .tooManyRequests, "\(refused)")
                #expect(refused.headers.first(name: .retryAfter) != nil)
                #expect(refused.detail?.hasPrefix("Too many password reset requests.") == true)
            }
            #expect(try await Self.mailKinds(app, to: "vet2@helppet.ai").count == PasswordResets.perAddress.limit)
        }
    }
}
