import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /api/v1/visit-transcripts/pet/{pet_id}` (contract §4.9): order `visit_date` desc, `created_at` desc, `uuid`;
/// `state` and `include_pending` filters; pagination; scoping.
@Suite struct VisitTranscriptPetListTests {
    @Test func orderIsVisitDateThenCreatedAtThenUUID() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let now = Int(clock.now().timeIntervalSince1970)
            let oldest = try await VisitFixtures.create(app, token: vet, visitDate: 1_700_000_000)
            clock.advance(by: 10)
            let earlierCreated = try await VisitFixtures.create(app, token: vet, visitDate: now - 1000)
            clock.advance(by: 10)
            let laterCreated = try await VisitFixtures.create(app, token: vet, visitDate: now - 1000)
            clock.advance(by: 10)
            let twins = [
                try await VisitFixtures.create(app, token: vet, visitDate: now - 500),
                try await VisitFixtures.create(app, token: vet, visitDate: now - 500),
                try await VisitFixtures.create(app, token: vet, visitDate: now - 500),
            ].sorted()

            let response = try await app.get(VisitFixtures.list(pet: 1), token: vet)
            #expect(response.status == .ok)
            let expected = twins + [laterCreated, earlierCreated, Demo.visitID.lowercased, oldest]
            #expect(response.json.ids == expected)
            #expect(response.totalCount == "7")
            for visit in response.json.array ?? [] { #expect(visit.keys == ClinicalKeys.petVisitListItem) }

            let page = try await app.get(VisitFixtures.list(pet: 1, "?limit=3&offset=2"), token: vet)
            #expect(page.json.ids == Array(expected[2...4]))
            #expect(page.totalCount == "7")
        }
    }

    @Test func stateFilterAndPendingVisits() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let base = app.testSeedTime
            let processing = try await VisitSQL.insertRecording(
                app, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app), state: "processing",
                visitDate: base.addingTimeInterval(-100), createdAt: base)
            let failed = try await VisitSQL.insertRecording(
                app, pet: Demo.pet(1), appointment: nil, state: "failed", visitDate: base.addingTimeInterval(-200),
                createdAt: base, recordingDay: "2024-01-01")
            let pending = try await VisitSQL.insertRecording(
                app, pet: Demo.pet(1), appointment: nil, state: "new", visitDate: base.addingTimeInterval(-300),
                createdAt: base, recordingDay: "2024-01-02")
            // A `new` visit whose earlier recording was replaced is not pending (§4.10).
            let replaced = try await VisitSQL.insertRecording(
                app, pet: Demo.pet(1), appointment: nil, state: "new", visitDate: base.addingTimeInterval(-400),
                createdAt: base, recordingDay: "2024-01-03",
                metadataJSON: #"{"previous_recordings": [{"s3_key": "old.m4a"}]}"#)
            let ids = (processing: processing.lowercased, failed: failed.lowercased, pending: pending.lowercased,
                       replaced: replaced.lowercased, manual: Demo.visitID.lowercased)

            for (query, expected) in [
                ("", [ids.processing, ids.failed, ids.replaced, ids.manual]),
                ("?include_pending=false", [ids.processing, ids.failed, ids.replaced, ids.manual]),
                ("?include_pending=true", [ids.processing, ids.failed, ids.pending, ids.replaced, ids.manual]),
                ("?include_pending=1", [ids.processing, ids.failed, ids.pending, ids.replaced, ids.manual]),
                ("?state=processed", [ids.manual]),
                ("?state=processing", [ids.processing]),
                ("?state=failed", [ids.failed]),
                ("?state=new", [ids.replaced]),
                ("?state=new&include_pending=TRUE", [ids.pending, ids.replaced]),
                ("?state=failed&include_pending=true", [ids.failed]),
            ] {
                let response = try await app.get(VisitFixtures.list(pet: 1, query), token: vet)
                #expect(response.status == .ok, "\(query): \(response)")
                #expect(response.json.ids == expected, "\(query)")
                #expect(response.totalCount == String(expected.count), "\(query)")
            }
        }
    }

    @Test func queryErrors() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for bad in ["done", "Processed", "NEW", ""] {
                expectError(
                    try await app.get(VisitFixtures.list(pet: 1, "?state=\(bad)"), token: vet),
                    .badRequest, "Invalid state: '\(bad)'. \(VisitFixtures.allowedStates)")
            }
            for bad in ["maybe", "", "2"] {
                expectError(
                    try await app.get(VisitFixtures.list(pet: 1, "?include_pending=\(bad)"), token: vet),
                    .badRequest, "include_pending must be true or false")
            }
            try await PaginationCases.expectRefused(app, VisitFixtures.list(pet: 1), token: vet)
            try await PaginationCases.expectRefused(app, VisitFixtures.list(pet: 1, "?state=processed"), token: vet)
        }
    }

    @Test func idsAndVisibility() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for id in ["nope", "d3000000000040008000000000000001"] {
                expectError(
                    try await app.get("/api/v1/visit-transcripts/pet/\(id)", token: vet), .badRequest, "Invalid pet ID format")
            }
            expectError(
                try await app.get("/api/v1/visit-transcripts/pet/\(UUID().lowercased)", token: vet), .notFound, "Pet not found")
            let other = try await OtherPractice.create(app)
            expectError(try await app.get(VisitFixtures.list(pet: 1), token: other.vetToken), .notFound, "Pet not found")
            let owner = try await app.token(for: Demo.owner1)
            #expect(try await app.get(VisitFixtures.list(pet: 1), token: owner).json.ids == [Demo.visitID.lowercased])
            expectError(try await app.get(VisitFixtures.list(pet: 4), token: owner), .notFound, "Pet not found")
            let slashed = try await app.get("/api/v1/visit-transcripts/pet/\(Demo.pet(1).uuidString)/", token: vet)
            #expect(slashed.json.ids == [Demo.visitID.lowercased])
            let empty = try await app.get(VisitFixtures.list(pet: 6), token: vet)
            #expect(empty.text == "[]")
            #expect(empty.totalCount == "0")
        }
    }

    @Test func membersSeeOnlyTheirPracticesVisitsOwnersAndAdminSeeAll() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let other = try await OtherPractice.create(app)
            try await PetOwnerFixtures.link(app, owner: Demo.owner(1).lowercased, practice: other.practiceID)
            let foreign = try await VisitFixtures.create(
                app, token: other.vetToken, visitDate: Int(clock.now().timeIntervalSince1970))
            #expect(try await app.get(VisitFixtures.list(pet: 1), token: other.vetToken).json.ids == [foreign])
            let vet1 = try await app.get(VisitFixtures.list(pet: 1), token: try await app.token(for: Demo.vet1))
            #expect(vet1.json.ids == [Demo.visitID.lowercased])
            #expect(vet1.totalCount == "1")
            for user in [Demo.admin, Demo.owner1] {
                let all = try await app.get(VisitFixtures.list(pet: 1), token: try await app.token(for: user))
                #expect(all.json.ids == [foreign, Demo.visitID.lowercased], "today is after the demo visit (30 days ago)")
                #expect(all.totalCount == "2")
            }
        }
    }
}
