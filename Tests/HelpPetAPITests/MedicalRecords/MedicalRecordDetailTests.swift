import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /api/v1/medical-records/{record_id}` (contract §4.8): MedicalRecordDetail of any version, visibility.
@Suite struct MedicalRecordDetailTests {
    @Test func maxsExamMatchesTheContractExample() async throws {
        try await withTestApp { app in
            let response = try await app.get(MedicalRecordFixtures.path(3), token: try await app.token(for: Demo.vet1))
            #expect(response.status == .ok)
            let seeded = WireTime.format(app.testSeedTime)
            let expected = """
                {"id": "d4000000-0000-4000-8000-000000000003", "original_id": "d4000000-0000-4000-8000-000000000003", "version": 1,
                 "pet_id": "d3000000-0000-4000-8000-000000000002", "practice_id": "d0000000-0000-4000-8000-000000000001",
                 "record_type": "checkup", "title": "Wellness Exam", "description": "Full physical examination", "diagnosis": "Healthy",
                 "treatment_plan": null, "medications": [], "notes": null, "follow_up_date": null, "is_current": true,
                 "created_by": "d1000000-0000-4000-8000-000000000002", "created_at": "\(seeded)", "updated_at": "\(seeded)",
                 "pet": {"id": "d3000000-0000-4000-8000-000000000002", "name": "Max", "species": "dog"},
                 "created_by_user": {"id": "d1000000-0000-4000-8000-000000000002", "full_name": "Dr. Sarah Johnson"}}
                """
            // The contract's example exactly, plus the iPhone app's keys, which are checked here too.
            guard case .object(var body)? = response.json.value else {
                Issue.record("not an object: \(response)")
                return
            }
            #expect(body["visit_date"] == .string(seeded))
            #expect(body["follow_up_required"] == .bool(false))
            #expect(body["created_by_user_id"] == body["created_by"])
            #expect(body["treatment"] == .null && body["is_follow_up_due"] == .bool(false))
            for key in ClinicalKeys.medicalRecordAppKeys { body[key] = nil }
            #expect(JSONValue.object(body) == (try JSONNode(data: Data(expected.utf8))).value, "\(response)")
        }
    }

    @Test func anyVersionIsReturnedWithItsAuthor() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let old = try await app.get(MedicalRecordFixtures.path(1), token: admin)
            #expect(old.status == .ok)
            #expect(old.json.keys == ClinicalKeys.medicalRecordDetail)
            #expect(old.json["is_current"].bool == false)
            #expect(old.json["version"].int == 1)
            #expect(old.json["pet"]["name"].string == "Bella")

            let newID = try await MedicalRecordFixtures.amend(app, token: admin, Demo.record(2).lowercased)
            let new = try await app.get("/api/v1/medical-records/\(newID)", token: admin)
            #expect(new.json["version"].int == 3)
            #expect(new.json["created_by"].string == Demo.admin.id.lowercased)
            #expect(new.json["created_by_user"]["full_name"].string == "System Administrator")
            #expect(new.json["created_by_user"].keys == ["id", "full_name"])
            #expect(new.json["pet"].keys == ["id", "name", "species"])
            let superseded = try await app.get(MedicalRecordFixtures.path(2), token: admin)
            #expect(superseded.json["is_current"].bool == false)
        }
    }

    @Test func idsAreAcceptedInAnyCaseWithOrWithoutATrailingSlash() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for path in [
                "/api/v1/medical-records/\(Demo.record(3).uuidString)", MedicalRecordFixtures.path(3) + "/",
            ] {
                let response = try await app.get(path, token: vet)
                #expect(response.status == .ok, "\(path)")
                #expect(response.json["id"].string == Demo.record(3).lowercased)
            }
        }
    }

    @Test(arguments: ["nope", "d4000000000040008000000000000003", "{d4000000-0000-4000-8000-000000000003}",
                      "d4000000-0000-4000-8000-0000000000030"])
    func malformedIDsAre400(_ id: String) async throws {
        try await withTestApp { app in
            let encoded = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["-"])) ?? id
            for user in [Demo.vet1, Demo.owner1] {
                expectError(
                    try await app.get("/api/v1/medical-records/\(encoded)", token: try await app.token(for: user)),
                    .badRequest, "Invalid medical record ID format")
            }
        }
    }

    @Test func unknownAndInvisibleRecordsAre404() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(
                try await app.get("/api/v1/medical-records/\(UUID().lowercased)", token: vet), .notFound, "Medical record not found")
            let other = try await OtherPractice.create(app)
            for n in 1...4 {
                expectError(
                    try await app.get(MedicalRecordFixtures.path(n), token: other.vetToken), .notFound, "Medical record not found")
            }
            // Even when the pet becomes visible, the other practice's members only see their own records.
            try await PetOwnerFixtures.link(app, owner: Demo.owner(1).lowercased, practice: other.practiceID)
            expectError(try await app.get(MedicalRecordFixtures.path(2), token: other.vetToken), .notFound, "Medical record not found")
            let foreign = try await MedicalRecordFixtures.create(app, token: other.vetToken)
            #expect(try await app.get("/api/v1/medical-records/\(foreign)", token: other.vetToken).status == .ok)
            expectError(try await app.get("/api/v1/medical-records/\(foreign)", token: vet), .notFound, "Medical record not found")
            #expect(try await app.get("/api/v1/medical-records/\(foreign)", token: try await app.token(for: Demo.admin)).status == .ok)
            #expect(try await app.get("/api/v1/medical-records/\(foreign)", token: try await app.token(for: Demo.owner1)).status == .ok)
        }
    }

    @Test func petOwnersReadTheirOwnPetsRecordsOnly() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            for n in 1...3 {
                let response = try await app.get(MedicalRecordFixtures.path(n), token: owner)
                #expect(response.status == .ok, "record \(n)")
                #expect(response.json.keys == ClinicalKeys.medicalRecordDetail)
            }
            expectError(try await app.get(MedicalRecordFixtures.path(4), token: owner), .notFound, "Medical record not found")
        }
    }
}
