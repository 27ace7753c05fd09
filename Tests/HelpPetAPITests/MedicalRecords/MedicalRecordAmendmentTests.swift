import AppCore
import Foundation
import Testing
import VaporTesting

/// `PUT /api/v1/medical-records/{record_id}` — amend (contract §4.8): a new version; the addressed one is superseded.
@Suite struct MedicalRecordAmendmentTests {
    static let current = MedicalRecordFixtures.path(2)  // version 2 of Bella's vaccination lineage

    @Test func anAmendmentInsertsTheNextVersionAndSupersedesTheOld() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet2 = try await app.token(for: Demo.vet2)
            let before = try await app.get(Self.current, token: vet2)
            clock.advance(by: 100)
            let response = try await app.put(Self.current, token: vet2, json: [
                "notes": "Mild swelling reported", "treatment_plan": nil, "medications": ["DHPP Vaccine"],
                "title": " Annual Vaccinations (amended) ",
            ])
            #expect(response.status == .ok, "\(response)")
            let next = response.json
            #expect(next.keys == ClinicalKeys.medicalRecord)
            let id = try #require(next["id"].string)
            #expect(id != Demo.record(2).lowercased, "the new version has a new id")
            #expect(next["original_id"].string == Demo.record(1).lowercased)
            #expect(next["version"].int == 3)
            #expect(next["is_current"].bool == true)
            #expect(next["pet_id"].string == Demo.pet(1).lowercased)
            #expect(next["practice_id"].string == Demo.practiceID.lowercased)
            #expect(next["created_by"].string == Demo.vet2.id.lowercased, "the author of an amendment is the caller")
            #expect(next["title"].string == "Annual Vaccinations (amended)")
            #expect(next["notes"].string == "Mild swelling reported")
            #expect(next["treatment_plan"].isNull, "null clears")
            #expect(next["medications"].array?.map(\.string) == ["DHPP Vaccine"])
            for key in ["record_type", "description", "diagnosis", "follow_up_date"] {
                #expect(next[key].value == before.json[key].value, "\(key) is carried over")
            }
            let now = WireTime.format(clock.now())
            #expect(next["created_at"].string == now && next["updated_at"].string == now)

            let old = try await app.get(Self.current, token: vet2)
            #expect(old.json["is_current"].bool == false)
            #expect(old.json["updated_at"].string == now, "updated_at becomes the supersede time")
            for key in ["id", "version", "title", "notes", "treatment_plan", "medications", "created_by", "created_at"] {
                #expect(old.json[key].value == before.json[key].value, "\(key) of the old version never changes")
            }

            let list = try await app.get(MedicalRecordFixtures.list(pet: 1), token: vet2)
            MedicalRecordFixtures.expectCounts(list, total: 3, current: 1, historical: 2)
            #expect(list.json["records"].ids == [id, Demo.record(2).lowercased, Demo.record(1).lowercased])
        }
    }

    @Test func identicalValuesStillMakeANewVersion() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.put(Self.current, token: vet, json: ["title": "Annual Vaccinations"])
            #expect(response.status == .ok)
            #expect(response.json["version"].int == 3)
            let list = try await app.get(MedicalRecordFixtures.list(pet: 1), token: vet)
            MedicalRecordFixtures.expectCounts(list, total: 3, current: 1, historical: 2)
        }
    }

    @Test func onlyTheCurrentVersionCanBeAmended() async throws {
        // The amendment must be later than the seeded versions: within the same second the list's tie-break
        // (`id`) would decide the order, and the assertion below would depend on a random id.
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            clock.advance(by: 100)
            let conflict = "Only the current version of a medical record can be amended"
            expectError(try await app.put(MedicalRecordFixtures.path(1), token: vet, json: ["notes": "x"]), .conflict, conflict)
            let third = try await MedicalRecordFixtures.amend(app, token: vet, Demo.record(2).lowercased)
            expectError(try await app.put(Self.current, token: vet, json: ["notes": "late"]), .conflict, conflict)
            // A client echoing the stale `is_current: true` it read earlier gets the same 409.
            expectError(
                try await app.put(Self.current, token: vet, json: ["notes": "late", "is_current": true]), .conflict, conflict)
            let list = try await app.get(MedicalRecordFixtures.list(pet: 1), token: vet)
            MedicalRecordFixtures.expectCounts(list, total: 3, current: 1, historical: 2)
            #expect(list.json["records"].ids.first == third)
        }
    }

    @Test func concurrentAmendmentsOfOneVersionCreateExactlyOneVersion() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            async let a = app.put(Self.current, token: vet, json: ["notes": "a"])
            async let b = app.put(Self.current, token: vet, json: ["notes": "b"])
            async let c = app.put(Self.current, token: vet, json: ["notes": "c"])
            async let d = app.put(Self.current, token: vet, json: ["notes": "d"])
            let results = try await [a, b, c, d]
            #expect(results.filter { $0.status == .ok }.count == 1, "\(results.map(\.status.code))")
            for loser in results where loser.status != .ok {
                expectError(loser, .conflict, "Only the current version of a medical record can be amended")
            }
            let history = try await app.get(MedicalRecordFixtures.history(pet: 1), token: vet)
            let lineage = (history.json["records"].array ?? []).filter { $0["original_id"].string == Demo.record(1).lowercased }
            #expect(lineage.map { $0["version"].int ?? 0 } == [3, 2, 1])
            #expect(lineage.filter { $0["is_current"].bool == true }.count == 1)
        }
    }

    @Test func immutableFieldsMayBeRepeatedButNotChanged() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let same: [String: Any?] = [
                "id": Demo.record(2).uuidString, "original_id": Demo.record(1).uuidString, "version": 2,
                "pet_id": Demo.pet(1).lowercased, "practice_id": Demo.practiceID.lowercased, "is_current": true,
                "created_by": Demo.vet1.id.uuidString, "notes": "same ids",
            ]
            for (key, value) in [
                ("id", Demo.record(3).lowercased as Any?), ("original_id", Demo.record(2).lowercased), ("version", 3),
                ("pet_id", Demo.pet(2).lowercased), ("practice_id", UUID().lowercased), ("is_current", false),
                ("created_by", Demo.vet2.id.lowercased), ("pet_id", nil), ("version", nil),
            ] {
                var body = same
                body[key] = value
                expectError(try await app.put(Self.current, token: vet, json: body), .badRequest, "\(key) cannot be changed")
            }
            let list = try await app.get(MedicalRecordFixtures.list(pet: 1), token: vet)
            #expect(list.json["total"].int == 2, "refused amendments create nothing")
            let accepted = try await app.put(Self.current, token: vet, json: same)
            #expect(accepted.status == .ok, "current values (any case) are accepted: \(accepted)")
            #expect(accepted.json["version"].int == 3)
        }
    }

    @Test func theWholeDetailObjectCanBeSentBack() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let detail = try await app.get(MedicalRecordFixtures.path(3), token: vet)
            let response = try await app.sendRaw(.PUT, MedicalRecordFixtures.path(3), token: vet, body: detail.text, contentType: .json)
            #expect(response.status == .ok, "\(response)")
            #expect(response.json["version"].int == 2)
            #expect(response.json["original_id"].string == Demo.record(3).lowercased)
            #expect(response.json["title"].string == "Wellness Exam")
            #expect(response.json.keys == ClinicalKeys.medicalRecord)
        }
    }

    @Test func aBodyWithoutUpdatableFieldsIsRefused() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for body: [String: Any?] in [
                [:], ["id": Demo.record(2).lowercased, "version": 2], ["created_at": "2030-01-01T00:00:00Z", "pet": [:]],
            ] {
                expectError(try await app.put(Self.current, token: vet, json: body), .badRequest, "At least one updatable field is required")
            }
        }
    }

    @Test(arguments: [FieldCase]([
        FieldCase("record_type", "vaccine", "Invalid record_type: 'vaccine'. \(MedicalRecordCreateTests.allowedTypes)"),
        FieldCase("record_type", nil, "record_type cannot be null"),
        FieldCase("title", nil, "title cannot be null"),
        FieldCase("title", "", "title must not be empty"),
        FieldCase("description", .string(String(repeating: "d", count: 10_001)), "description must be at most 10000 characters"),
        FieldCase("medications", nil, "medications cannot be null"),
        FieldCase("medications", [1], "medications items must be strings"),
        FieldCase("follow_up_date", "2026-13-01", "follow_up_date must be a date in YYYY-MM-DD format"),
    ]))
    func invalidFieldsAnswer400BeforeAnyLookup(_ field: FieldCase) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(try await app.put(Self.current, token: vet, json: [field.key: field.any]), .badRequest, field.detail)
            expectError(
                try await app.put("/api/v1/medical-records/\(UUID().lowercased)", token: vet, json: [field.key: field.any]),
                .badRequest, field.detail)
            expectError(
                try await app.put(MedicalRecordFixtures.path(1), token: vet, json: [field.key: field.any]),
                .badRequest, field.detail)
        }
    }

    @Test func nullClearsOptionalText() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.put(Self.current, token: vet, json: [
                "description": nil, "diagnosis": nil, "treatment_plan": nil, "notes": nil, "follow_up_date": nil,
                "medications": [],
            ])
            #expect(response.status == .ok)
            for key in ["description", "diagnosis", "treatment_plan", "notes", "follow_up_date"] {
                #expect(response.json[key].isNull, "\(key)")
            }
            #expect(response.json["medications"].array?.isEmpty == true)
            #expect(response.json["title"].string == "Annual Vaccinations")
        }
    }

    @Test func idsVisibilityAndGates() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let body: [String: Any?] = ["notes": "x"]
            expectError(
                try await app.put("/api/v1/medical-records/nope", token: vet, json: body), .badRequest, "Invalid medical record ID format")
            expectError(
                try await app.put("/api/v1/medical-records/\(UUID().lowercased)", token: vet, json: body),
                .notFound, "Medical record not found")
            let other = try await OtherPractice.create(app)
            expectError(try await app.put(Self.current, token: other.vetToken, json: body), .notFound, "Medical record not found")
            // 404 (visibility) comes before 409 (state).
            expectError(
                try await app.put(MedicalRecordFixtures.path(1), token: other.vetToken, json: body),
                .notFound, "Medical record not found")
            let owner = try await app.token(for: Demo.owner1)
            expectError(
                try await app.put(Self.current, token: owner, json: body), .forbidden, "Veterinary staff or administrator access required")
            #expect(try await app.get(MedicalRecordFixtures.list(pet: 1), token: vet).json["total"].int == 2)
            let admin = try await app.put(Self.current + "/", token: try await app.token(for: Demo.admin), json: body)
            #expect(admin.status == .ok, "ADMIN amends any record, trailing slash included: \(admin)")
        }
    }

    @Test func bodySyntaxErrors() async throws {
        try await withTestApp { app in
            try await BodySyntaxChecks.expectRefused(app, .PUT, Self.current, token: try await app.token(for: Demo.vet1))
        }
    }
}
