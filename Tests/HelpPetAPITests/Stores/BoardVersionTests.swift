import AppCore
import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import HelpPetAPI

/// The day board's stamp (`BoardStore.version`), which lets an unchanged board answer its poll with 304: it must move
/// with every kind of row the board shows, and only then. Both engines (prepared on PostgreSQL).
@Suite struct BoardVersionTests {
    /// Every demo appointment, and a `now` far from every change, so the stamp is "settled" and only the rows count.
    static let window = Date(timeIntervalSince1970: 0)..<Date(timeIntervalSince1970: 4_102_444_800)
    static let now = Date(timeIntervalSince1970: 4_102_444_800)

    static func stamp(_ app: Application) async throws -> [String] {
        try await BoardStore(db: app.db).version(practice: Demo.practiceID, window: window, now: now)
            .split(separator: "|").map(String.init)
    }

    /// Sets `updated_at` of the rows `condition` selects to a time no row had before.
    static func touch(
        _ table: String, where condition: SQLQueryString, at seconds: Double, _ app: Application
    ) async throws {
        try await app.db.sql.raw("""
            UPDATE \(ident: table) SET updated_at = \(bind: Date(timeIntervalSince1970: seconds)) WHERE \(condition)
            """).run()
    }

    @Test func theStampMovesWithEachKindOfRowOnTheBoardAndOnlyThen() async throws {
        try await withTestApp { app in
            // A recording of a pet of one of the board's appointments, so the board shows one.
            let link = try #require(try await app.db.sql.raw("""
                SELECT ap.appointment_id, ap.pet_id FROM appointment_pets ap
                JOIN appointments a ON a.id = ap.appointment_id
                WHERE a.practice_id = \(bind: Demo.practiceID) LIMIT 1
                """).first())
            let appointmentID = try link.decode(column: "appointment_id", as: UUID.self)
            let visitID = UUID()
            let inserted = try await VisitStore(db: app.db).insertRecordingSlot(
                id: visitID, petID: try link.decode(column: "pet_id", as: UUID.self), practiceID: Demo.practiceID,
                appointmentID: appointmentID, visitDate: app.testSeedTime, recordingDay: nil,
                key: "recordings/board-version-test.m4a", metadata: [:], createdBy: Demo.vet1.id, now: app.testSeedTime)
            #expect(inserted)
            let first = try await Self.stamp(app)
            #expect(first.count == 8 && first.last == "settled")
            #expect(Int(first[0]) ?? 0 > 0, "the demo practice has appointments")
            #expect(Int(first[2]) ?? 0 > 0, "and recordings of them")
            #expect(try await Self.stamp(app) == first, "nothing changed")

            let practice = Demo.practiceID
            let changes: [(String, SQLQueryString, Int)] = [
                ("appointments", "practice_id = \(bind: practice)", 1),
                ("visits", "id = \(bind: visitID)", 3),
                ("pet_owners", "id IN (SELECT pet_owner_id FROM appointments WHERE practice_id = \(bind: practice))", 4),
                ("users", "practice_id = \(bind: practice)", 6),
            ]
            var previous = first
            for (offset, change) in changes.enumerated() {
                let (table, condition, field) = change
                try await Self.touch(table, where: condition, at: 4_000_000_000 + Double(offset), app)
                let next = try await Self.stamp(app)
                #expect(next[field] != previous[field], "a change of \(table)")
                #expect(next.indices.filter { next[$0] != previous[$0] } == [field], "only \(table)'s part moved")
                previous = next
            }

            // An owner without an appointment on the board does not move it.
            try await Self.touch(
                "pet_owners",
                where: "id NOT IN (SELECT pet_owner_id FROM appointments WHERE practice_id = \(bind: practice))",
                at: 4_050_000_000, app)
            #expect(try await Self.stamp(app) == previous)
        }
    }
}

/// The stamps are cached for a quarter of a second (ReadPathCaches.boardStamps); a write through this process drops
/// them, so its change is on the very next poll.
@Suite struct BoardStampCacheTests {
    @Test func aWriteThroughThisProcessDropsTheCachedStamps() async throws {
        try await withTestApp { app in
            // Long-lived here, so only the invalidation can drop the entry, however slow the request.
            app.readPathCaches = ReadPathCaches(boardStampLifetime: .seconds(600))
            let stamps = app.readPathCaches.boardStamps
            #expect(await stamps.value(for: "board") { "before" } == "before")
            // Any method but GET and HEAD counts as a write, whatever its answer.
            try await app.testing().test(.POST, "/api/v1/auth/token") { res in
                #expect(res.status.code >= 400)
            }
            #expect(await stamps.value(for: "board") { "after" } == "after")
        }
    }

    @Test func aLoadThatOverlapsTheInvalidationIsNotKept() async throws {
        let cache = ExpiringCache<String, String>(lifetime: .seconds(60))
        let loaded = await cache.value(for: "board") {
            cache.invalidateAll()  // a write committed while the stamp was being read
            return "read before the write"
        }
        #expect(loaded == "read before the write")
        #expect(await cache.value(for: "board") { "read after" } == "read after")
    }
}
