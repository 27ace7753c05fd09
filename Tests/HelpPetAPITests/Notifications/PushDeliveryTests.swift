import AppCore
import Foundation
@testable import HelpPetAPI
import Push
import SQLKit
import Testing
import VaporTesting

/// The push outbox on the test's database engine (SQLite, or PostgreSQL with `DATABASE_URL`): rows written with the
/// appointment, the lease, and the delivery loop's decisions per APNs answer. The sender here answers from a script
/// (the real APNs client against a real HTTP/2 stand-in is tests/push); the store, the SQL and the loop are real.
@Suite struct PushDeliveryTests {
    /// Answers per device token, in order; the last answer repeats.
    final class ScriptedSender: PushSender, @unchecked Sendable {
        let lock = NSLock()
        var script: [String: [APNsOutcome]]
        var calls: [(token: String, notification: APNsNotification)] = []

        init(_ script: [String: [APNsOutcome]]) { self.script = script }

        func send(_ notification: APNsNotification, to deviceToken: String) async -> APNsOutcome {
            lock.withLock {
                calls.append((deviceToken, notification))
                guard var answers = script[deviceToken], let first = answers.first else {
                    return .rejected(reason: "unexpected device \(deviceToken)")
                }
                if answers.count > 1 { answers.removeFirst() }
                script[deviceToken] = answers
                return first
            }
        }

        var tokensCalled: [String] { lock.withLock { calls.map(\.token) } }
    }

    static let tokenA = String(repeating: "a1", count: 32)
    static let tokenB = String(repeating: "b2", count: 32)

    static func settings(maxAttempts: Int = 8) -> PushSettings {
        var settings = PushSettings.off
        settings.maxAttempts = maxAttempts
        settings.retryBaseSeconds = 30
        settings.retryMaxSeconds = 3600
        return settings
    }

    /// Booked by the admin for vet1 (owner John Smith).
    static var adminBody: [String: Any?] { AppointmentFixtures.body(extra: ["practice_id": Demo.practiceID.lowercased]) }

    /// vet1's two devices and an appointment the admin booked for vet1; returns the appointment id.
    static func bookForVet1(_ app: Application) async throws -> String {
        let vet = try await app.token(for: Demo.vet1)
        for token in [tokenA, tokenB] {
            let registered = try await app.post("/api/v1/device-tokens/register", token: vet, json: ["device_token": token])
            #expect(registered.status == .ok, "\(registered)")
        }
        let admin = try await app.token(for: Demo.admin)
        return try await AppointmentFixtures.create(app, token: admin, body: adminBody)
    }

    struct Row: Equatable {
        var status: String
        var attempts: Int
        var lastError: String?
    }

    static func rows(_ app: Application) async throws -> [Row] {
        try await app.db.sql.raw("SELECT status, attempts, last_error FROM notification_outbox ORDER BY created_at").all().map {
            Row(status: try $0.decode(column: "status", as: String.self), attempts: try $0.decode(column: "attempts", as: Int.self),
                lastError: try $0.decode(column: "last_error", as: String?.self))
        }
    }

    static func active(_ app: Application) async throws -> [String: Bool] {
        var result: [String: Bool] = [:]
        for row in try await app.db.sql.raw("SELECT device_token, is_active FROM device_tokens").all() {
            result[try row.decode(column: "device_token", as: String.self)] = try row.decode(column: "is_active", as: Bool.self)
        }
        return result
    }

    static func apnsIDs(_ app: Application) async throws -> [String?] {
        try await app.db.sql.raw("SELECT apns_id FROM push_deliveries ORDER BY sent_at, apns_id").all().map {
            try $0.decode(column: "apns_id", as: String?.self)
        }
    }

    @Test func aBookingForAnotherVetReachesEachDeviceAndAnUnregisteredTokenIsDeactivated() async throws {
        let clock = ManualClock(Date())
        try await withTestApp(clock: clock) { app in
            let appointment = try await Self.bookForVet1(app)
            #expect(try await Self.rows(app) == [Row(status: "queued", attempts: 0, lastError: nil)])
            let sender = ScriptedSender([
                Self.tokenA: [.delivered(apnsID: "A1B2C3D4-0000-4000-8000-000000000001")],
                Self.tokenB: [.tokenInvalid(reason: "410 Unregistered")],
            ])
            let delivery = PushDelivery(sender: sender, settings: Self.settings(), metrics: app.core.metrics, clock: clock, owner: "test")
            clock.advance(by: 1)
            #expect(try await delivery.runOnce(on: app.db, logger: app.logger) == 1)
            #expect(try await Self.rows(app) == [Row(status: "sent", attempts: 1, lastError: nil)])
            #expect(try await Self.active(app) == [Self.tokenA: true, Self.tokenB: false])
            #expect(try await Self.apnsIDs(app) == ["A1B2C3D4-0000-4000-8000-000000000001"])
            let sent = try #require(sender.calls.first?.notification)
            #expect(sent.title == "New appointment")
            #expect(sent.custom["type"] == "appointment_booked")
            #expect(sent.custom["appointment_id"] == appointment)
            #expect(sent.custom["pet_owner_name"] == "John Smith")
            #expect(sent.custom["appointment_time"] == "2030-05-01T16:00:00Z")
            #expect(sent.collapseID == "appointment-\(appointment)")
            // Nothing left: the next run sends nothing.
            #expect(try await delivery.runOnce(on: app.db, logger: app.logger) == 0)
            #expect(sender.calls.count == 2)
            #expect(app.core.metrics.render().contains(#"mail_messages_sent_total{channel="push"} 1"#))
        }
    }

    @Test func a429Or5xxIsRetriedLaterWithoutResendingToDevicesAlreadyReached() async throws {
        let clock = ManualClock(Date())
        try await withTestApp(clock: clock) { app in
            _ = try await Self.bookForVet1(app)
            let sender = ScriptedSender([
                Self.tokenA: [.delivered(apnsID: "first")],
                Self.tokenB: [.retryLater(reason: "429 TooManyRequests"), .retryLater(reason: "500 InternalServerError"),
                              .delivered(apnsID: "second")],
            ])
            let delivery = PushDelivery(sender: sender, settings: Self.settings(), metrics: app.core.metrics, clock: clock, owner: "test")
            clock.advance(by: 1)
            try await delivery.runOnce(on: app.db, logger: app.logger)
            #expect(try await Self.rows(app) == [Row(status: "queued", attempts: 1, lastError: "429 TooManyRequests")])
            // Backoff: 30 s after the first failure, then 60 s.
            clock.advance(by: 29)
            #expect(try await delivery.runOnce(on: app.db, logger: app.logger) == 0)
            clock.advance(by: 2)
            try await delivery.runOnce(on: app.db, logger: app.logger)
            #expect(try await Self.rows(app) == [Row(status: "queued", attempts: 2, lastError: "500 InternalServerError")])
            clock.advance(by: 59)
            #expect(try await delivery.runOnce(on: app.db, logger: app.logger) == 0)
            clock.advance(by: 2)
            try await delivery.runOnce(on: app.db, logger: app.logger)
            #expect(try await Self.rows(app) == [Row(status: "sent", attempts: 3, lastError: nil)])
            // Devices registered in the same second go in id order: compare without the order.
            #expect(sender.tokensCalled.sorted() == [Self.tokenA, Self.tokenB, Self.tokenB, Self.tokenB].sorted())
            #expect(try await Self.apnsIDs(app).sorted { ($0 ?? "") < ($1 ?? "") } == ["first", "second"])
        }
    }

    @Test func theLastAllowedAttemptDeadLettersWithTheLastErrorAndARejectionAtOnce() async throws {
        let clock = ManualClock(Date())
        try await withTestApp(clock: clock) { app in
            _ = try await Self.bookForVet1(app)
            let sender = ScriptedSender([
                Self.tokenA: [.retryLater(reason: "503 ServiceUnavailable")],
                Self.tokenB: [.retryLater(reason: "503 ServiceUnavailable")],
            ])
            let delivery = PushDelivery(
                sender: sender, settings: Self.settings(maxAttempts: 2), metrics: app.core.metrics, clock: clock, owner: "test")
            clock.advance(by: 1)
            try await delivery.runOnce(on: app.db, logger: app.logger)
            clock.advance(by: 31)
            try await delivery.runOnce(on: app.db, logger: app.logger)
            #expect(try await Self.rows(app) == [
                Row(status: "failed", attempts: 2, lastError: "gave up after 2 attempts; last: 503 ServiceUnavailable")
            ])
            clock.advance(by: 3600)
            #expect(try await delivery.runOnce(on: app.db, logger: app.logger) == 0)

            _ = try await AppointmentFixtures.create(app, token: try await app.token(for: Demo.admin), body: Self.adminBody)
            let rejecting = PushDelivery(
                sender: ScriptedSender([Self.tokenA: [.rejected(reason: "400 TopicDisallowed")], Self.tokenB: [.delivered(apnsID: nil)]]),
                settings: Self.settings(), metrics: app.core.metrics, clock: clock, owner: "test")
            clock.advance(by: 1)
            try await rejecting.runOnce(on: app.db, logger: app.logger)
            #expect(try await Self.rows(app).last == Row(status: "failed", attempts: 1, lastError: "400 TopicDisallowed"))
        }
    }

    @Test func aVetWithoutDevicesIsSkippedAndALeaseIsHeldUntilItExpires() async throws {
        let clock = ManualClock(Date())
        try await withTestApp(clock: clock) { app in
            _ = try await AppointmentFixtures.create(app, token: try await app.token(for: Demo.admin), body: Self.adminBody)
            let store = PushOutboxStore(db: app.db)
            clock.advance(by: 1)
            let t0 = clock.now()
            let first = try #require(try await store.claim(owner: "a", leaseSeconds: 300, now: t0))
            #expect(first.kind == "appointment_booked" && first.userID == Demo.vet1.id && first.attempts == 1)
            #expect(try await store.claim(owner: "b", leaseSeconds: 300, now: t0.addingTimeInterval(299)) == nil)
            let retaken = try #require(try await store.claim(owner: "b", leaseSeconds: 300, now: t0.addingTimeInterval(301)))
            #expect(retaken.id == first.id && retaken.attempts == 2)
            // The first worker lost its lease: its late "sent" changes nothing.
            try await store.markSent(first, now: t0.addingTimeInterval(302))
            #expect(try await store.counts() == PushOutboxCounts(sending: 1))
            try await store.retryLater(retaken, error: "500", delay: 0, now: t0.addingTimeInterval(302))
            clock.set(t0.addingTimeInterval(303))
            let delivery = PushDelivery(
                sender: ScriptedSender([:]), settings: Self.settings(), metrics: app.core.metrics, clock: clock, owner: "test")
            try await delivery.runOnce(on: app.db, logger: app.logger)
            #expect(try await Self.rows(app) == [Row(status: "skipped", attempts: 3, lastError: "no active device token")])
        }
    }
}
