import AppCore
@testable import AutoDetailAPI
import Foundation
import Mail
import MailOutbox
import SQLKit
import Testing
import VaporTesting

/// The studio admin's forgotten password (docs/login-and-sessions.md, "Studio") on the test's database engine: a
/// link only to the address in the studio settings, the same answer for every other address, a single-use link
/// stored as its hash, a new password that ends every session, the email that says so, the limits, and delivery
/// through the studio's own outbox.
@Suite struct StudioPasswordResetTests {
    static let studioAddress = "owner@studio.example"

    static func service(_ app: Application, url: String = "http://127.0.0.1:8080/studio/password-reset/confirm")
        -> StudioPasswordResets
    {
        StudioPasswordResets(
            db: app.db, ledger: app.core.attempts, hasher: app.core.passwordHasher,
            mailFrom: "AutoDetail <no-reply@studio.example>", metrics: app.core.metrics, confirmPageURL: url)
    }

    static func setAdminEmail(_ app: Application, _ value: Any?) async throws -> TestResponse {
        try await app.put("/api/admin/settings", bearer: try await app.adminToken(), ["adminEmail": value])
    }

    /// The queued messages of the studio's outbox: kind, recipient and the raw message.
    static func outbox(_ app: Application) async throws -> [(kind: String, recipient: String, raw: String)] {
        try await app.db.sql.raw("SELECT kind, recipient, raw_message FROM ad_mail_outbox ORDER BY created_at, kind").all()
            .map {
                (try $0.decode(column: "kind", as: String.self), try $0.decode(column: "recipient", as: String.self),
                 try $0.decode(column: "raw_message", as: String.self))
            }
    }

    static func token(in raw: String) throws -> String {
        let text = raw.replacingOccurrences(of: "=\r\n", with: "").replacingOccurrences(of: "=3D", with: "=")
        let match = try #require(text.firstMatch(of: #/password-reset/confirm\?token=(adm_[0-9a-f]{64})/#))
        return String(match.1)
    }

    @Test func theSettingsHoldTheAdminEmailWhichMayBeClearedButMustBeAnAddress() async throws {
        try await withTestApp { app in
            #expect(try await app.get("/api/admin/settings", bearer: try await app.adminToken()).json["adminEmail"].isNull)
            let set = try await Self.setAdminEmail(app, "  \(Self.studioAddress) ")
            #expect(set.status == .ok && set.json["adminEmail"].string == Self.studioAddress, "\(set)")
            expectError(try await Self.setAdminEmail(app, "not an address"), .badRequest,
                        "Invalid field: adminEmail (must be an email address)")
            expectError(try await Self.setAdminEmail(app, 42), .badRequest, "Invalid field: adminEmail (must be a string)")
            #expect(try await Self.setAdminEmail(app, "").json["adminEmail"].isNull)
            #expect(try await Self.setAdminEmail(app, Self.studioAddress).json["adminEmail"].string == Self.studioAddress)
            #expect(try await Self.setAdminEmail(app, nil).json["adminEmail"].isNull)
        }
    }

    @Test func theLinkGoesOnlyToTheStudiosAddressAndEveryOtherAddressGetsTheSameAnswer() async throws {
        try await withTestApp { app in
            let resets = Self.service(app)
            // No address in the settings yet: nobody gets a link.
            #expect(try await resets.request(email: Self.studioAddress, ip: "10.0.0.1", now: Date()) == .accepted)
            #expect(try await Self.outbox(app).isEmpty)
            #expect(try await Self.setAdminEmail(app, Self.studioAddress).status == .ok)
            #expect(try await resets.request(email: "someone@else.example", ip: "10.0.0.1", now: Date()) == .accepted)
            #expect(try await Self.outbox(app).isEmpty)
            #expect(try await resets.request(email: " OWNER@Studio.example ", ip: "10.0.0.1", now: Date()) == .accepted)
            let queued = try await Self.outbox(app)
            #expect(queued.map(\.kind) == ["password_reset"] && queued.map(\.recipient) == [Self.studioAddress])
            let token = try Self.token(in: queued[0].raw)
            #expect(queued[0].raw.contains("http://127.0.0.1:8080/studio/password-reset/confirm?token="))
            let stored = try await app.db.sql.raw("SELECT token_hash FROM ad_admin_password_resets").all()
                .map { try $0.decode(column: "token_hash", as: String.self) }
            #expect(stored == [Secrets.hash(token)], "only the token's hash is stored")
        }
    }

    @Test func aNewPasswordFromTheLinkEndsEverySessionOnceAndTheAddressIsTold() async throws {
        try await withTestApp { app in
            #expect(try await Self.setAdminEmail(app, Self.studioAddress).status == .ok)
            let session = try await app.adminToken()
            let resets = Self.service(app)
            _ = try await resets.request(email: Self.studioAddress, ip: "10.0.0.2", now: Date())
            let token = try Self.token(in: try await Self.outbox(app)[0].raw)

            #expect(try await resets.confirm(token: token, newPassword: "too-short", now: Date())
                == .refused(StudioPasswordResets.lengthRule))
            #expect(try await resets.confirm(token: "adm_" + String(repeating: "0", count: 64), newPassword: "a-long-new-password",
                                             now: Date()) == .refused(StudioPasswordResets.invalidLink))
            #expect(try await resets.confirm(token: token, newPassword: "a-long-new-password", now: Date()) == .changed)

            expectError(try await app.get("/api/admin/settings", bearer: session), .unauthorized, "Invalid or expired admin token")
            expectError(
                try await app.post("/api/admin/login", ["username": "admin", "password": TestEnvironment.adminPassword]),
                .unauthorized, "Invalid username or password")
            #expect(try await app.post("/api/admin/login", ["username": "admin", "password": "a-long-new-password"]).status == .ok)
            #expect(try await Self.outbox(app).map(\.kind) == ["password_reset", "password_changed"])
            // Once only.
            #expect(try await resets.confirm(token: token, newPassword: "a-third-password-here", now: Date())
                == .refused(StudioPasswordResets.invalidLink))
        }
    }

    @Test func aLinkExpiresAfterThirtyMinutesAndANewerLinkVoidsNothingUntilOneIsUsed() async throws {
        try await withTestApp { app in
            #expect(try await Self.setAdminEmail(app, Self.studioAddress).status == .ok)
            let resets = Self.service(app)
            let start = Date()
            _ = try await resets.request(email: Self.studioAddress, ip: "10.0.0.3", now: start)
            _ = try await resets.request(email: Self.studioAddress, ip: "10.0.0.3", now: start.addingTimeInterval(60))
            let tokens = try await Self.outbox(app).map { try Self.token(in: $0.raw) }
            #expect(tokens.count == 2)
            #expect(try await resets.confirm(token: tokens[0], newPassword: "a-long-new-password",
                                             now: start.addingTimeInterval(30 * 60 + 1)) == .refused(StudioPasswordResets.invalidLink))
            #expect(try await resets.confirm(token: tokens[1], newPassword: "a-long-new-password",
                                             now: start.addingTimeInterval(30 * 60)) == .changed)
        }
    }

    @Test func requestsAreLimitedPerAddressAndPerIPWhetherOrNotTheAddressIsTheStudios() async throws {
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "false"]) { app in
            let resets = Self.service(app)
            let now = Date()
            for _ in 0..<3 { #expect(try await resets.request(email: "x@nowhere.example", ip: "10.0.0.4", now: now) == .accepted) }
            guard case .throttled(let wait) = try await resets.request(email: "X@nowhere.example", ip: "10.0.0.5", now: now) else {
                Issue.record("the fourth request for one address within the hour must be refused")
                return
            }
            #expect(wait > 0 && wait <= 3600)
            for i in 0..<7 { _ = try await resets.request(email: "y\(i)@nowhere.example", ip: "10.0.0.6", now: now) }
            for i in 0..<3 { _ = try await resets.request(email: "z\(i)@nowhere.example", ip: "10.0.0.6", now: now) }
            guard case .throttled = try await resets.request(email: "w@nowhere.example", ip: "10.0.0.6", now: now) else {
                Issue.record("the eleventh request from one address within the hour must be refused")
                return
            }
        }
    }

    @Test func theStudiosOutboxIsDeliveredByTheSharedDeliveryLoop() async throws {
        try await withTestApp { app in
            #expect(try await Self.setAdminEmail(app, Self.studioAddress).status == .ok)
            _ = try await Self.service(app).request(email: Self.studioAddress, ip: "10.0.0.7", now: Date())
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("studio-mail-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let delivery = MailDelivery(
                table: .studio, transport: FileMailTransport(directory: directory), settings: app.core.config.mail,
                metrics: app.core.metrics, clock: app.core.clock, owner: "test")
            #expect(try await delivery.runOnce(on: app.db, logger: app.logger) == 1)
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(files.count == 1 && files[0].hasSuffix(".eml"))
            let text = try String(contentsOf: directory.appendingPathComponent(files[0]), encoding: .utf8)
            #expect(text.contains("Subject: Reset the studio console password"))
            #expect(text.contains("To: owner@studio.example"))
            let counts = try await MailOutboxStore(db: app.db, table: .studio).counts()
            #expect(counts == MailOutboxCounts(queued: 0, sending: 0, sent: 1, failed: 0))
        }
    }
}
