import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /api/v1/medical-records/pet/{pet_id}/history` (contract §4.8): every visible version grouped by lineage —
/// lineage's version-1 `created_at` descending, then `original_id`, then `version` descending; same envelope.
@Suite struct MedicalRecordHistoryTests {
    @Test func versionsAreGroupedByLineageNewestLineageFirst() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            clock.advance(by: 10)
            let a1 = try await MedicalRecordFixtures.create(app, token: vet, ["title": "A"])
            clock.advance(by: 10)
            let b1 = try await MedicalRecordFixtures.create(app, token: vet, ["title": "B"])
            clock.advance(by: 10)
            let a2 = try await MedicalRecordFixtures.amend(app, token: vet, a1)
            clock.advance(by: 10)
            let a3 = try await MedicalRecordFixtures.amend(app, token: vet, a2)
            let rec1 = Demo.record(1).lowercased, rec2 = Demo.record(2).lowercased

            let history = try await app.get(MedicalRecordFixtures.history(pet: 1), token: vet)
            MedicalRecordFixtures.expectCounts(history, total: 6, current: 3, historical: 3)
            #expect(history.json["records"].ids == [b1, a3, a2, a1, rec2, rec1])
            #expect(history.json["records"].array?.map { $0["version"].int ?? 0 } == [1, 3, 2, 1, 2, 1])
            #expect(history.json["records"][0].keys == ClinicalKeys.medicalRecord)

            // The plain list orders by each version's own created_at instead.
            let list = try await app.get(MedicalRecordFixtures.list(pet: 1), token: vet)
            #expect(list.json["records"].ids == [a3, a2, b1, a1, rec2, rec1])

            let page = try await app.get(MedicalRecordFixtures.history(pet: 1, "?limit=3&offset=1"), token: vet)
            MedicalRecordFixtures.expectCounts(page, total: 6, current: 3, historical: 3)
            #expect(page.json["records"].ids == [a3, a2, a1])
        }
    }

    @Test func lineagesCreatedInTheSameSecondAreOrderedByOriginalID() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            clock.advance(by: 10)
            let first = try await MedicalRecordFixtures.create(app, token: vet, ["pet_id": Demo.pet(7).lowercased])
            let second = try await MedicalRecordFixtures.create(app, token: vet, ["pet_id": Demo.pet(7).lowercased])
            let (low, high) = first < second ? (first, second) : (second, first)
            clock.advance(by: 10)
            // A later amendment of the higher lineage does not move it ahead: lineages sort by their version 1.
            let high2 = try await MedicalRecordFixtures.amend(app, token: vet, high)
            let history = try await app.get(MedicalRecordFixtures.history(pet: 7), token: vet)
            MedicalRecordFixtures.expectCounts(history, total: 3, current: 2, historical: 1)
            #expect(history.json["records"].ids == [low, high2, high])
        }
    }

    @Test func membersSeeOnlyTheirPracticesVersions() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let other = try await OtherPractice.create(app)
            try await PetOwnerFixtures.link(app, owner: Demo.owner(1).lowercased, practice: other.practiceID)
            clock.advance(by: 10)
            let foreign = try await MedicalRecordFixtures.create(app, token: other.vetToken)
            let vet1 = try await app.get(MedicalRecordFixtures.history(pet: 1), token: try await app.token(for: Demo.vet1))
            MedicalRecordFixtures.expectCounts(vet1, total: 2, current: 1, historical: 1)
            let vet9 = try await app.get(MedicalRecordFixtures.history(pet: 1), token: other.vetToken)
            MedicalRecordFixtures.expectCounts(vet9, total: 1, current: 1, historical: 0)
            #expect(vet9.json["records"].ids == [foreign])
            let owner = try await app.get(MedicalRecordFixtures.history(pet: 1), token: try await app.token(for: Demo.owner1))
            MedicalRecordFixtures.expectCounts(owner, total: 3, current: 2, historical: 1)
            #expect(owner.json["records"].ids == [foreign, Demo.record(2).lowercased, Demo.record(1).lowercased])
        }
    }

    @Test func sameErrorsAsTheList() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            try await PaginationCases.expectRefused(app, MedicalRecordFixtures.history(pet: 1), token: vet)
            expectError(
                try await app.get("/api/v1/medical-records/pet/nope/history", token: vet), .badRequest, "Invalid pet ID format")
            expectError(
                try await app.get("/api/v1/medical-records/pet/\(UUID().lowercased)/history", token: vet), .notFound, "Pet not found")
            let other = try await OtherPractice.create(app)
            expectError(
                try await app.get(MedicalRecordFixtures.history(pet: 1), token: other.vetToken), .notFound, "Pet not found")
            expectError(
                try await app.get(MedicalRecordFixtures.history(pet: 4), token: try await app.token(for: Demo.owner1)),
                .notFound, "Pet not found")
            expectError(
                try await app.get(MedicalRecordFixtures.history(pet: 1, "?include_historical=maybe"), token: vet),
                .badRequest, "include_historical must be true or false")
            let slashed = try await app.get(MedicalRecordFixtures.history(pet: 1, "/"), token: vet)
            MedicalRecordFixtures.expectCounts(slashed, total: 2, current: 1, historical: 1)
        }
    }
}
