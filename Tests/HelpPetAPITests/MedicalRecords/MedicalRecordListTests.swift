import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /api/v1/medical-records/pet/{pet_id}` (contract §4.8): the envelope, its counts, `include_historical`,
/// `latest_only`, order `created_at` desc then `id`, pagination, scoping.
@Suite struct MedicalRecordListTests {
    static let rec1 = Demo.record(1).lowercased
    static let rec2 = Demo.record(2).lowercased

    @Test func bellasRecordsMatchTheContractExample() async throws {
        try await withTestApp { app in
            let response = try await app.get(MedicalRecordFixtures.list(pet: 1), token: try await app.token(for: Demo.vet1))
            MedicalRecordFixtures.expectCounts(response, total: 2, current: 1, historical: 1)
            #expect(response.json["records"].ids == [Self.rec2, Self.rec1])
            let seeded = WireTime.format(app.testSeedTime)
            let earlier = WireTime.format(app.testSeedTime.addingTimeInterval(-1))
            let followUp = app.seedDay.adding(years: 1).description
            let expected = """
                {"records": [
                  {"id": "d4000000-0000-4000-8000-000000000002", "original_id": "d4000000-0000-4000-8000-000000000001", "version": 2,
                   "pet_id": "d3000000-0000-4000-8000-000000000001", "practice_id": "d0000000-0000-4000-8000-000000000001",
                   "record_type": "vaccination", "title": "Annual Vaccinations", "description": "DHPP and Rabies vaccines administered",
                   "diagnosis": null, "treatment_plan": "Follow up in 1 year", "medications": ["DHPP Vaccine", "Rabies Vaccine"],
                   "notes": "No adverse reactions observed", "follow_up_date": "\(followUp)", "is_current": true,
                   "created_by": "d1000000-0000-4000-8000-000000000002", "created_at": "\(seeded)", "updated_at": "\(seeded)"},
                  {"id": "d4000000-0000-4000-8000-000000000001", "original_id": "d4000000-0000-4000-8000-000000000001", "version": 1,
                   "pet_id": "d3000000-0000-4000-8000-000000000001", "practice_id": "d0000000-0000-4000-8000-000000000001",
                   "record_type": "vaccination", "title": "Annual Vaccinations", "description": "DHPP vaccine administered",
                   "diagnosis": null, "treatment_plan": null, "medications": ["DHPP Vaccine"], "notes": null, "follow_up_date": null,
                   "is_current": false, "created_by": "d1000000-0000-4000-8000-000000000002", "created_at": "\(earlier)",
                   "updated_at": "\(seeded)"}
                ],
                "total": 2, "current_records_count": 1, "historical_records_count": 1}
                """
            #expect(response.json["records"][0]["treatment"].string == "Follow up in 1 year")
            #expect(response.json["records"][0]["follow_up_required"].bool == true)
            #expect(response.json["records"][1]["follow_up_required"].bool == false)
            let contractShape = ContractExample.withoutAppKeys(response.json.value, ClinicalKeys.medicalRecordAppKeys)
            #expect(contractShape == (try JSONNode(data: Data(expected.utf8))).value, "\(response)")
        }
    }

    @Test func includeHistoricalFalseListsOnlyCurrentVersions() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for flag in ["false", "0", "FALSE", "False"] {
                let response = try await app.get(MedicalRecordFixtures.list(pet: 1, "?include_historical=\(flag)"), token: vet)
                MedicalRecordFixtures.expectCounts(response, total: 1, current: 1, historical: 0)
                #expect(response.json["records"].ids == [Self.rec2])
            }
            for flag in ["true", "1", "TRUE"] {
                let response = try await app.get(MedicalRecordFixtures.list(pet: 1, "?include_historical=\(flag)"), token: vet)
                MedicalRecordFixtures.expectCounts(response, total: 2, current: 1, historical: 1)
            }
        }
    }

    @Test func latestOnlyReturnsTheNewestCurrentVersionAndOverridesIncludeHistorical() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            clock.advance(by: 10)
            let newer = try await MedicalRecordFixtures.create(app, token: vet)
            clock.advance(by: 10)
            // Amending the older lineage makes its new version the newest current record.
            let amended = try await MedicalRecordFixtures.amend(app, token: vet, Self.rec2)
            for query in ["?latest_only=true", "?latest_only=1&include_historical=true", "?latest_only=TRUE&include_historical=false"] {
                let response = try await app.get(MedicalRecordFixtures.list(pet: 1, query), token: vet)
                MedicalRecordFixtures.expectCounts(response, total: 1, current: 1, historical: 0)
                #expect(response.json["records"].ids == [amended], "\(query)")
            }
            let all = try await app.get(MedicalRecordFixtures.list(pet: 1, "?latest_only=false"), token: vet)
            MedicalRecordFixtures.expectCounts(all, total: 4, current: 2, historical: 2)
            #expect(all.json["records"].ids == [amended, newer, Self.rec2, Self.rec1])
            let currentOnly = try await app.get(MedicalRecordFixtures.list(pet: 1, "?include_historical=false"), token: vet)
            MedicalRecordFixtures.expectCounts(currentOnly, total: 2, current: 2, historical: 0)
            #expect(currentOnly.json["records"].ids == [amended, newer])

            // A page past the single record is empty; the total still counts it.
            let past = try await app.get(MedicalRecordFixtures.list(pet: 1, "?latest_only=true&offset=1"), token: vet)
            MedicalRecordFixtures.expectCounts(past, total: 1, current: 1, historical: 0)
            #expect(past.json["records"].array?.isEmpty == true)
        }
    }

    @Test func latestOnlyTieIsTheSmallestID() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            clock.advance(by: 5)
            let twins = [
                try await MedicalRecordFixtures.create(app, token: vet, ["pet_id": Demo.pet(6).lowercased]),
                try await MedicalRecordFixtures.create(app, token: vet, ["pet_id": Demo.pet(6).lowercased]),
                try await MedicalRecordFixtures.create(app, token: vet, ["pet_id": Demo.pet(6).lowercased]),
            ].sorted()
            let latest = try await app.get(MedicalRecordFixtures.list(pet: 6, "?latest_only=true"), token: vet)
            #expect(latest.json["records"].ids == [twins[0]])
        }
    }

    @Test func equalCreationTimesAreOrderedById() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            clock.advance(by: 5)
            var same: [String] = []
            for _ in 0..<4 { same.append(try await MedicalRecordFixtures.create(app, token: vet)) }
            clock.advance(by: 5)
            let newest = try await MedicalRecordFixtures.create(app, token: vet)
            let response = try await app.get(MedicalRecordFixtures.list(pet: 1), token: vet)
            MedicalRecordFixtures.expectCounts(response, total: 7, current: 6, historical: 1)
            #expect(response.json["records"].ids == [newest] + same.sorted() + [Self.rec2, Self.rec1])

            let page = try await app.get(MedicalRecordFixtures.list(pet: 1, "?limit=2&offset=2"), token: vet)
            MedicalRecordFixtures.expectCounts(page, total: 7, current: 6, historical: 1)
            #expect(page.json["records"].ids == Array(same.sorted()[1...2]))
        }
    }

    @Test func paginationSlicesRecordsButNotTheCounts() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let second = try await app.get(MedicalRecordFixtures.list(pet: 1, "?limit=1&offset=1"), token: vet)
            MedicalRecordFixtures.expectCounts(second, total: 2, current: 1, historical: 1)
            #expect(second.json["records"].ids == [Self.rec1])
            try await PaginationCases.expectRefused(app, MedicalRecordFixtures.list(pet: 1), token: vet)
        }
    }

    @Test func queryAndIDErrors() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for value in ["maybe", "", "2", "yes"] {
                expectError(
                    try await app.get(MedicalRecordFixtures.list(pet: 1, "?include_historical=\(value)"), token: vet),
                    .badRequest, "include_historical must be true or false")
                expectError(
                    try await app.get(MedicalRecordFixtures.list(pet: 1, "?latest_only=\(value)"), token: vet),
                    .badRequest, "latest_only must be true or false")
            }
            for id in ["nope", "d3000000000040008000000000000001", "urn:uuid:\(Demo.pet(1).lowercased)"] {
                expectError(
                    try await app.get("/api/v1/medical-records/pet/\(id)", token: vet), .badRequest, "Invalid pet ID format")
            }
            expectError(
                try await app.get("/api/v1/medical-records/pet/\(UUID().lowercased)", token: vet), .notFound, "Pet not found")
            // Query errors come before the lookup.
            expectError(
                try await app.get("/api/v1/medical-records/pet/\(UUID().lowercased)?latest_only=x", token: vet),
                .badRequest, "latest_only must be true or false")
        }
    }

    @Test func aPetWithoutRecordsHasAnEmptyEnvelope() async throws {
        try await withTestApp { app in
            let response = try await app.get(MedicalRecordFixtures.list(pet: 6), token: try await app.token(for: Demo.vet1))
            MedicalRecordFixtures.expectCounts(response, total: 0, current: 0, historical: 0)
            #expect(response.json["records"].array?.isEmpty == true)
            let latest = try await app.get(MedicalRecordFixtures.list(pet: 6, "?latest_only=true"), token: try await app.token(for: Demo.vet1))
            MedicalRecordFixtures.expectCounts(latest, total: 0, current: 0, historical: 0)
        }
    }

    @Test func membersSeeOnlyTheirPracticesRecordsOwnersAndAdminSeeAll() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let other = try await OtherPractice.create(app)
            try await PetOwnerFixtures.link(app, owner: Demo.owner(1).lowercased, practice: other.practiceID)
            let admin = try await app.token(for: Demo.admin)
            clock.advance(by: 5)
            let foreign = try await MedicalRecordFixtures.create(app, token: admin, ["practice_id": other.practiceID])

            let vet1 = try await app.get(MedicalRecordFixtures.list(pet: 1), token: try await app.token(for: Demo.vet1))
            MedicalRecordFixtures.expectCounts(vet1, total: 2, current: 1, historical: 1)
            #expect(!vet1.json["records"].ids.contains(foreign))
            let vet9 = try await app.get(MedicalRecordFixtures.list(pet: 1), token: other.vetToken)
            MedicalRecordFixtures.expectCounts(vet9, total: 1, current: 1, historical: 0)
            #expect(vet9.json["records"].ids == [foreign])
            let vet9Latest = try await app.get(MedicalRecordFixtures.list(pet: 1, "?latest_only=true"), token: other.vetToken)
            #expect(vet9Latest.json["records"].ids == [foreign])
            for token in [admin, try await app.token(for: Demo.owner1)] {
                let all = try await app.get(MedicalRecordFixtures.list(pet: 1), token: token)
                MedicalRecordFixtures.expectCounts(all, total: 3, current: 2, historical: 1)
                #expect(all.json["records"].ids.first == foreign)
            }
            // Fluffy's owner is not a client of the other practice.
            expectError(
                try await app.get(MedicalRecordFixtures.list(pet: 4), token: other.vetToken), .notFound, "Pet not found")
        }
    }

    @Test func petOwnersReadOnlyTheirOwnPets() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            let max = try await app.get(MedicalRecordFixtures.list(pet: 2), token: owner)
            MedicalRecordFixtures.expectCounts(max, total: 1, current: 1, historical: 0)
            #expect(max.json["records"].ids == [Demo.record(3).lowercased])
            expectError(try await app.get(MedicalRecordFixtures.list(pet: 4), token: owner), .notFound, "Pet not found")
            let slashed = try await app.get(MedicalRecordFixtures.list(pet: 2, "/"), token: owner)
            #expect(slashed.json["total"].int == 1)
        }
    }
}
