import AppCore
import Foundation
@testable import HelpPetAPI
import SQLKit
import Testing
import VaporTesting

/// `task_leases` as the reconciler uses it: one holder at a time, renewed while a run lasts, taken by another
/// process soon after a holder dies mid-run (the lease is short), and a stalled holder whose lease was taken stops.
@Suite struct TaskLeaseTests {
    static let name = "lease-test"

    @Test func aLiveLeaseBlocksOthersAndAnExpiredOneIsTaken() async throws {
        try await withTestApp { app in
            let start = Date()
            let first = try await TaskLease.claim(Self.name, owner: "a", duration: 30, now: start, on: app.db)
            let whileLive = try await TaskLease.claim(
                Self.name, owner: "b", duration: 30, now: start.addingTimeInterval(29), on: app.db)
            // "a" died without releasing: "b" takes the lease once it has expired, and "a" cannot renew it.
            let afterExpiry = try await TaskLease.claim(
                Self.name, owner: "b", duration: 30, now: start.addingTimeInterval(31), on: app.db)
            let renewedByDead = try await TaskLease.renew(
                Self.name, owner: "a", duration: 30, now: start.addingTimeInterval(32), on: app.db)
            #expect(first && !whileLive && afterExpiry && !renewedByDead)
        }
    }

    @Test func aRunLongerThanTheLeaseKeepsItAndReleasesItAtTheEnd() async throws {
        try await withTestApp { app in
            let db = app.db
            let ran = try await TaskLease.whileHolding(Self.name, owner: "a", duration: 0.6, now: { Date() }, on: db) {
                try await Task.sleep(for: .milliseconds(1_500))
                // Past the first expiry: renewed, so another process still cannot claim it.
                return try await TaskLease.claim(Self.name, owner: "b", duration: 0.6, now: Date(), on: db)
            }
            #expect(ran == false)
            let afterRelease = try await TaskLease.claim(Self.name, owner: "b", duration: 0.6, now: Date(), on: db)
            #expect(afterRelease)
            let whileOtherHolds = try await TaskLease.whileHolding(
                Self.name, owner: "a", duration: 0.6, now: { Date() }, on: db) { 1 }
            #expect(whileOtherHolds == nil)
        }
    }

    @Test func aHolderWhoseLeaseWasTakenIsStopped() async throws {
        try await withTestApp { app in
            let db = app.db
            let finished = ManagedFlag()
            await #expect(throws: TaskLease.Lost.self) {
                _ = try await TaskLease.whileHolding(Self.name, owner: "a", duration: 0.6, now: { Date() }, on: db) {
                    // What a stall past the expiry looks like from the outside: another process owns the row.
                    try await db.sql.raw("UPDATE task_leases SET owner = 'b' WHERE name = \(bind: Self.name)").run()
                    try await Task.sleep(for: .seconds(5))
                    finished.set()
                }
            }
            #expect(!finished.value, "the body ran on after the lease was lost")
        }
    }
}

/// A flag a @Sendable closure can set.
private final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool { lock.withLock { flag } }
    func set() { lock.withLock { flag = true } }
}
