import AppCore
import Foundation
import Testing
import VaporTesting

/// `POST /api/v1/medical-records` (contract §4.8): version 1 of a new lineage, field rules, practice resolution (§2.5).
@Suite struct MedicalRecordCreateTests {
    @Test func memberCreatesVersionOneOfANewLineage() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            clock.advance(by: 20)
            let response = try await app.post("/api/v1/medical-records", token: vet, json: [
                "pet_id": Demo.pet(2).uuidString, "record_type": "lab_result", "title": "  Bloodwork ",
                "description": "  CBC and chemistry panel\n", "diagnosis": " Mild anemia ", "treatment_plan": "Iron",
                "medications": [" Iron supplement ", "Vitamin B12"], "notes": " see attached ",
                "follow_up_date": "2026-02-28",
                "version": 7, "is_current": false, "original_id": Demo.record(1).lowercased,  // ignored on create
            ])
            #expect(response.status == .created, "\(response)")
            let record = response.json
            #expect(record.keys == ClinicalKeys.medicalRecord, "no detail keys on create")
            let id = try #require(record["id"].string)
            #expect(id == id.lowercased() && Array(id)[14] == "4")
            #expect(record["original_id"].string == id)
            #expect(record["version"].int == 1)
            #expect(record["is_current"].bool == true)
            #expect(record["pet_id"].string == Demo.pet(2).lowercased)
            #expect(record["practice_id"].string == Demo.practiceID.lowercased)
            #expect(record["record_type"].string == "lab_result")
            #expect(record["title"].string == "Bloodwork", "titles are trimmed")
            #expect(record["description"].string == "  CBC and chemistry panel\n", "free text is stored exactly as sent")
            #expect(record["diagnosis"].string == " Mild anemia ")
            #expect(record["notes"].string == " see attached ")
            #expect(record["treatment_plan"].string == "Iron")
            #expect(record["medications"].array?.map(\.string) == ["Iron supplement", "Vitamin B12"])
            #expect(record["follow_up_date"].string == "2026-02-28")
            #expect(record["created_by"].string == Demo.vet1.id.lowercased)
            #expect(record["created_at"].string == WireTime.format(clock.now()))
            #expect(record["updated_at"].string == WireTime.format(clock.now()))

            let detail = try await app.get("/api/v1/medical-records/\(id)", token: vet)
            #expect(detail.json["title"].string == "Bloodwork")
            #expect(detail.json["created_by_user"]["full_name"].string == "Dr. Sarah Johnson")
        }
    }

    @Test func optionalFieldsDefaultToNullAndAnEmptyMedicationList() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post("/api/v1/medical-records", token: vet, json: MedicalRecordFixtures.body())
            #expect(response.status == .created, "\(response)")
            for key in ["description", "diagnosis", "treatment_plan", "notes", "follow_up_date"] {
                #expect(response.json[key].isNull, "\(key)")
            }
            #expect(response.json["medications"].array?.isEmpty == true)
            #expect(response.text.contains("\"medications\":[]"))
        }
    }

    @Test(arguments: ["checkup", "vaccination", "surgery", "emergency", "dental", "diagnostic", "treatment", "follow_up",
                      "lab_result", "visit_summary", "other"])
    func everyRecordTypeIsAccepted(_ type: String) async throws {
        try await withTestApp { app in
            let response = try await app.post(
                "/api/v1/medical-records", token: try await app.token(for: Demo.vet1),
                json: MedicalRecordFixtures.body(["record_type": type]))
            #expect(response.status == .created)
            #expect(response.json["record_type"].string == type)
        }
    }

    static let allowedTypes =
        "Allowed: checkup, vaccination, surgery, emergency, dental, diagnostic, treatment, follow_up, lab_result, visit_summary, other, grooming"

    @Test(arguments: [FieldCase]([
        FieldCase("pet_id", "nope", "Invalid pet ID format"),
        FieldCase("pet_id", "", "Invalid pet ID format"),
        FieldCase("pet_id", nil, "pet_id cannot be null"),
        FieldCase("record_type", "Checkup", "Invalid record_type: 'Checkup'. \(allowedTypes)"),
        FieldCase("record_type", "spa", "Invalid record_type: 'spa'. \(allowedTypes)"),
        FieldCase("record_type", "", "Invalid record_type: ''. \(allowedTypes)"),
        FieldCase("record_type", nil, "record_type cannot be null"),
        FieldCase("record_type", 1, "record_type must be a string"),
        FieldCase("title", "  ", "title must not be empty"),
        FieldCase("title", .string(String(repeating: "t", count: 201)), "title must be at most 200 characters"),
        FieldCase("title", nil, "title cannot be null"),
        FieldCase("description", .string(String(repeating: "d", count: 10_001)), "description must be at most 10000 characters"),
        FieldCase("description", 5, "description must be a string"),
        FieldCase("diagnosis", .string(String(repeating: "d", count: 5001)), "diagnosis must be at most 5000 characters"),
        FieldCase("treatment_plan", .string(String(repeating: "t", count: 5001)), "treatment_plan must be at most 5000 characters"),
        FieldCase("notes", .string(String(repeating: "n", count: 10_001)), "notes must be at most 10000 characters"),
        FieldCase("notes", "a\u{0}b", "notes contains invalid characters"),
        FieldCase("medications", .array(Array(repeating: .string("pill"), count: 51)), "medications must contain at most 50 items"),
        FieldCase("medications", [""], "medications items must be 1 to 200 characters"),
        FieldCase("medications", ["ok", "   "], "medications items must be 1 to 200 characters"),
        FieldCase("medications", [.string(String(repeating: "m", count: 201))], "medications items must be 1 to 200 characters"),
        FieldCase("medications", 42, "medications must be an array"),
        FieldCase("medications", nil, "medications cannot be null"),
        FieldCase("follow_up_date", "2026-02-29", "follow_up_date must be a date in YYYY-MM-DD format"),
        FieldCase("follow_up_date", "2026-02-28T00:00:00",
                  "follow_up_date must be a date in YYYY-MM-DD format or an ISO-8601 datetime with a timezone"),
        FieldCase("follow_up_date", "next week", "follow_up_date must be a date in YYYY-MM-DD format"),
        FieldCase("practice_id", "nope", "Invalid practice ID format"),
    ]))
    func invalidFieldsAnswer400(_ field: FieldCase) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(
                try await app.post("/api/v1/medical-records", token: vet, json: MedicalRecordFixtures.body([field.key: field.any])),
                .badRequest, field.detail)
            let list = try await app.get(MedicalRecordFixtures.list(pet: 1), token: vet)
            #expect(list.json["total"].int == 2, "nothing was created")
        }
    }

    @Test func boundaryValuesAreAccepted() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post("/api/v1/medical-records", token: vet, json: MedicalRecordFixtures.body([
                "title": String(repeating: "t", count: 200), "description": String(repeating: "d", count: 10_000),
                "diagnosis": String(repeating: "d", count: 5000), "treatment_plan": String(repeating: "t", count: 5000),
                "notes": String(repeating: "n", count: 10_000),
                "medications": Array(repeating: String(repeating: "m", count: 200), count: 50),
                "follow_up_date": nil,
            ]))
            #expect(response.status == .created, "\(response)")
            #expect(response.json["medications"].count == 50)
        }
    }

    @Test func requiredFieldsAreNamedInTableOrder() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for key in ["pet_id", "record_type", "title"] {
                var body = MedicalRecordFixtures.body()
                body.removeValue(forKey: key)
                expectError(try await app.post("/api/v1/medical-records", token: vet, json: body), .badRequest, "\(key) is required")
            }
            expectError(
                try await app.post("/api/v1/medical-records", token: vet, json: ["title": "", "record_type": "x"]),
                .badRequest, "pet_id is required")
        }
    }

    @Test func thePetMustBeVisible() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(
                try await app.post("/api/v1/medical-records", token: vet, json: MedicalRecordFixtures.body([
                    "pet_id": UUID().lowercased,
                ])),
                .notFound, "Pet not found")
            let other = try await OtherPractice.create(app)
            expectError(
                try await app.post("/api/v1/medical-records", token: other.vetToken, json: MedicalRecordFixtures.body()),
                .notFound, "Pet not found")
            // The pet check comes before practice resolution (§4.8 "Checks").
            expectError(
                try await app.post("/api/v1/medical-records", token: other.vetToken, json: MedicalRecordFixtures.body([
                    "practice_id": PetOwnerFixtures.demoPractice,
                ])),
                .notFound, "Pet not found")
        }
    }

    @Test func memberRecordsAlwaysBelongToTheirPractice() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let own = try await app.post("/api/v1/medical-records", token: vet, json: MedicalRecordFixtures.body([
                "practice_id": Demo.practiceID.uuidString,
            ]))
            #expect(own.status == .created, "\(own)")
            let other = try await OtherPractice.create(app)
            expectError(
                try await app.post("/api/v1/medical-records", token: vet, json: MedicalRecordFixtures.body([
                    "practice_id": other.practiceID,
                ])),
                .notFound, "Practice not found")
            // A member of the other practice writes into it once the owner is their client.
            try await PetOwnerFixtures.link(app, owner: Demo.owner(1).lowercased, practice: other.practiceID)
            let foreign = try await app.post("/api/v1/medical-records", token: other.vetToken, json: MedicalRecordFixtures.body())
            #expect(foreign.status == .created, "\(foreign)")
            #expect(foreign.json["practice_id"].string == other.practiceID)
        }
    }

    @Test func adminPracticeResolution() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let single = try await app.post("/api/v1/medical-records", token: admin, json: MedicalRecordFixtures.body())
            #expect(single.status == .created, "\(single)")
            #expect(single.json["practice_id"].string == PetOwnerFixtures.demoPractice, "the owner's only practice")
            #expect(single.json["created_by"].string == Demo.admin.id.lowercased)

            expectError(
                try await app.post("/api/v1/medical-records", token: admin, json: MedicalRecordFixtures.body([
                    "practice_id": UUID().lowercased,
                ])),
                .notFound, "Practice not found")
            let other = try await OtherPractice.create(app)
            expectError(
                try await app.post("/api/v1/medical-records", token: admin, json: MedicalRecordFixtures.body([
                    "practice_id": other.practiceID,
                ])),
                .badRequest, "Pet owner is not a client of this practice")

            try await PetOwnerFixtures.link(app, owner: Demo.owner(1).lowercased, practice: other.practiceID)
            expectError(
                try await app.post("/api/v1/medical-records", token: admin, json: MedicalRecordFixtures.body()),
                .badRequest, "practice_id is required because the pet's owner is not a client of exactly one practice")
            let chosen = try await app.post("/api/v1/medical-records", token: admin, json: MedicalRecordFixtures.body([
                "practice_id": other.practiceID,
            ]))
            #expect(chosen.status == .created, "\(chosen)")
            #expect(chosen.json["practice_id"].string == other.practiceID)
        }
    }

    @Test func petOwnersMayNotCreate() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            expectError(
                try await app.post("/api/v1/medical-records", token: owner, json: MedicalRecordFixtures.body()),
                .forbidden, "Veterinary staff or administrator access required")
            expectError(
                try await app.sendRaw(.POST, "/api/v1/medical-records", token: owner, body: "", contentType: nil),
                .forbidden, "Veterinary staff or administrator access required")
            #expect(try await app.get(MedicalRecordFixtures.list(pet: 1), token: owner).json["total"].int == 2)
        }
    }

    @Test func bodySyntaxErrorsAndTrailingSlash() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            try await BodySyntaxChecks.expectRefused(app, .POST, "/api/v1/medical-records", token: vet)
            let slashed = try await app.post("/api/v1/medical-records/", token: vet, json: MedicalRecordFixtures.body())
            #expect(slashed.status == .created, "\(slashed)")
        }
    }
}
