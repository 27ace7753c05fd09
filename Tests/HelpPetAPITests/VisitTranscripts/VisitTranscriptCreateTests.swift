import AppCore
import Foundation
import Testing
import VaporTesting

/// `POST /api/v1/visit-transcripts` — manual transcript (contract §4.9): shape, field rules, metadata limits,
/// practice resolution (§2.5), gates.
@Suite struct VisitTranscriptCreateTests {
    @Test func memberCreatesAProcessedManualVisit() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            clock.advance(by: 30)
            let response = try await app.post("/api/v1/visit-transcripts", token: vet, json: [
                "pet_id": Demo.pet(2).uuidString, "visit_date": 1_736_960_400,
                "full_text": "  Max was seen.\nAll good.  ", "summary": " Short summary ",
                "audio_transcript_url": "https://files.example.com/max/visit.txt?x=1",
                "metadata": [
                    "chief_complaint": "Limping", "Content-Type": "text/plain",
                    "vitalSigns": ["hr": 90, "temp": 101.2] as [String: Any?], "tags": ["leg", "recheck"], "flag": true,
                ] as [String: Any?],
                "appointment_id": nil,
            ])
            #expect(response.status == .created, "\(response)")
            let visit = response.json
            #expect(visit.keys == ClinicalKeys.visitTranscript)
            let id = try #require(visit["uuid"].string)
            #expect(id == id.lowercased() && Array(id)[14] == "4")
            #expect(visit["pet_id"].string == Demo.pet(2).lowercased)
            #expect(visit["appointment_id"].isNull)
            #expect(visit["practice_id"].string == Demo.practiceID.lowercased)
            #expect(visit["visit_date"].int == 1_736_960_400)
            #expect(visit["full_text"].string == "  Max was seen.\nAll good.  ", "free text is stored exactly")
            #expect(visit["summary"].string == " Short summary ")
            #expect(visit["audio_transcript_url"].string == "https://files.example.com/max/visit.txt?x=1")
            #expect(visit["state"].string == "processed")
            #expect(visit["created_by"].string == Demo.vet1.id.lowercased)
            #expect(visit["created_at"].string == WireTime.format(clock.now()))
            #expect(visit["updated_at"].string == WireTime.format(clock.now()))
            let metadata = visit["metadata"]
            #expect(metadata["chief_complaint"].string == "Limping")
            #expect(metadata["Content-Type"].string == "text/plain", "client keys are returned verbatim")
            #expect(metadata["vitalSigns"]["hr"].int == 90)
            #expect(metadata["vitalSigns"]["temp"].double == 101.2)
            #expect(metadata["tags"].array?.map(\.string) == ["leg", "recheck"])
            #expect(metadata["flag"].bool == true)

            #expect(try await app.get(VisitFixtures.path(id), token: vet).json.value == visit.value)
            #expect(try await app.get(VisitFixtures.list(pet: 2), token: vet).json.ids == [id])
        }
    }

    @Test func optionalFieldsDefault() async throws {
        try await withTestApp { app in
            let response = try await app.post(
                "/api/v1/visit-transcripts", token: try await app.token(for: Demo.vet1), json: VisitFixtures.body())
            #expect(response.status == .created, "\(response)")
            #expect(response.json["summary"].isNull)
            #expect(response.json["audio_transcript_url"].isNull)
            #expect(response.json["appointment_id"].isNull)
            #expect(response.json["metadata"].keys.isEmpty)
            #expect(response.text.contains("\"metadata\":{}"), "metadata is never null: \(response)")
        }
    }

    @Test func visitDateRangeIsFrom2000ToOneDayAfterNow() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let now = Int(clock.now().timeIntervalSince1970)
            for date in [946_684_800, now, now + 86_400] {
                let response = try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body(visitDate: date))
                #expect(response.status == .created, "\(date): \(response)")
                #expect(response.json["visit_date"].int == date)
            }
            for date in [946_684_799, now + 86_401, 0, -1] {
                expectError(
                    try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body(visitDate: date)),
                    .badRequest, "visit_date must be between 946684800 and the current time plus 86400 seconds")
            }
        }
    }

    static let urlMessage = "audio_transcript_url must be an absolute http or https URL"

    @Test(arguments: [FieldCase]([
        FieldCase("pet_id", "nope", "Invalid pet ID format"),
        FieldCase("pet_id", nil, "pet_id cannot be null"),
        FieldCase("visit_date", 1_736_960_400.5, "visit_date must be an integer number of seconds"),
        FieldCase("visit_date", "1736960400", "visit_date must be an integer"),
        FieldCase("visit_date", "2025-01-15T17:00:00Z", "visit_date must be an integer"),
        FieldCase("visit_date", nil, "visit_date cannot be null"),
        FieldCase("full_text", "", "full_text must not be empty"),
        FieldCase("full_text", .string(String(repeating: "x", count: 200_001)), "full_text must be at most 200000 characters"),
        FieldCase("full_text", nil, "full_text cannot be null"),
        FieldCase("full_text", 12, "full_text must be a string"),
        FieldCase("summary", .string(String(repeating: "s", count: 10_001)), "summary must be at most 10000 characters"),
        FieldCase("summary", ["x"], "summary must be a string"),
        FieldCase("audio_transcript_url", "ftp://files.example.com/a.txt", urlMessage),
        FieldCase("audio_transcript_url", "/relative/path.txt", urlMessage),
        FieldCase("audio_transcript_url", "not a url", urlMessage),
        FieldCase("audio_transcript_url", "https://", urlMessage),
        FieldCase("audio_transcript_url", .string("https://example.com/" + String(repeating: "a", count: 981)), urlMessage),
        FieldCase("metadata", "x", "metadata must be an object"),
        FieldCase("metadata", [], "metadata must be an object"),
        FieldCase("metadata", nil, "metadata cannot be null"),
        FieldCase("metadata", .object(["s3_key": "x"]), "metadata key 's3_key' is managed by the server"),
        FieldCase("metadata", .object(["summary_status": "approved"]), "metadata key 'summary_status' is managed by the server"),
        FieldCase("metadata", .object(["note": "a\u{0}b"]), "metadata contains invalid characters"),
        FieldCase("appointment_id", .string(Demo.record(1).lowercased),
                  "appointment_id cannot be set on a manual transcript; use the audio upload flow"),
        FieldCase("appointment_id", "", "appointment_id cannot be set on a manual transcript; use the audio upload flow"),
        FieldCase("practice_id", "nope", "Invalid practice ID format"),
    ]))
    func invalidFieldsAnswer400(_ field: FieldCase) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body([field.key: field.any])),
                .badRequest, field.detail)
            #expect(try await app.get(VisitFixtures.list(pet: 1), token: vet).totalCount == "1", "nothing was created")
        }
    }

    @Test func boundaryValuesAreAccepted() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body([
                "full_text": String(repeating: "x", count: 200_000), "summary": String(repeating: "s", count: 10_000),
                "audio_transcript_url": "http://example.com/" + String(repeating: "a", count: 981),
                "metadata": VisitFixtures.metadata(keys: 100),
            ]))
            #expect(response.status == .created, "\(response)")
            #expect(response.json["metadata"].keys.count == 100)
            let blank = try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body(["full_text": " "]))
            #expect(blank.status == .created, "full_text is not trimmed: \(blank)")
        }
    }

    @Test func metadataLimits() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body([
                    "metadata": VisitFixtures.metadata(keys: 101),
                ])),
                .badRequest, "metadata must have at most 100 keys")
            let atLimit = try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body([
                "metadata": VisitFixtures.metadata(serializedBytes: 65_536),
            ]))
            #expect(atLimit.status == .created, "65536 serialized bytes are allowed: \(atLimit)")
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body([
                    "metadata": VisitFixtures.metadata(serializedBytes: 65_537),
                ])),
                .badRequest, "metadata must be at most 65536 bytes")
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body([
                    "metadata": ["nested": ["deep": String(repeating: "z", count: 70_000)]],
                ])),
                .badRequest, "metadata must be at most 65536 bytes")
        }
    }

    @Test func everyServerManagedMetadataKeyIsRefused() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for key in VisitFixtures.managedKeys {
                for value: Any? in ["x", 1, nil] {
                    expectError(
                        try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body([
                            "metadata": ["client_key": "ok", key: value] as [String: Any?],
                        ])),
                        .badRequest, "metadata key '\(key)' is managed by the server")
                }
            }
            #expect(try await app.get(VisitFixtures.list(pet: 1), token: vet).totalCount == "1")
        }
    }

    @Test func requiredFieldsAreNamedInTableOrder() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for key in ["pet_id", "visit_date", "full_text"] {
                var body = VisitFixtures.body()
                body.removeValue(forKey: key)
                expectError(try await app.post("/api/v1/visit-transcripts", token: vet, json: body), .badRequest, "\(key) is required")
            }
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: vet, json: ["full_text": "", "visit_date": "x"]),
                .badRequest, "pet_id is required")
        }
    }

    @Test func thePetMustBeVisible() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body(["pet_id": UUID().lowercased])),
                .notFound, "Pet not found")
            let other = try await OtherPractice.create(app)
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: other.vetToken, json: VisitFixtures.body()),
                .notFound, "Pet not found")
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: other.vetToken, json: VisitFixtures.body([
                    "practice_id": PetOwnerFixtures.demoPractice,
                ])),
                .notFound, "Pet not found")
        }
    }

    @Test func practiceResolution() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let admin = try await app.token(for: Demo.admin)
            let own = try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body([
                "practice_id": Demo.practiceID.uuidString,
            ]))
            #expect(own.status == .created, "\(own)")
            let single = try await app.post("/api/v1/visit-transcripts", token: admin, json: VisitFixtures.body())
            #expect(single.json["practice_id"].string == PetOwnerFixtures.demoPractice)
            #expect(single.json["created_by"].string == Demo.admin.id.lowercased)
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: admin, json: VisitFixtures.body([
                    "practice_id": UUID().lowercased,
                ])),
                .notFound, "Practice not found")

            let other = try await OtherPractice.create(app)
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: vet, json: VisitFixtures.body([
                    "practice_id": other.practiceID,
                ])),
                .notFound, "Practice not found")
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: admin, json: VisitFixtures.body([
                    "practice_id": other.practiceID,
                ])),
                .badRequest, "Pet owner is not a client of this practice")
            try await PetOwnerFixtures.link(app, owner: Demo.owner(1).lowercased, practice: other.practiceID)
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: admin, json: VisitFixtures.body()),
                .badRequest, "practice_id is required because the pet's owner is not a client of exactly one practice")
            let chosen = try await app.post("/api/v1/visit-transcripts", token: admin, json: VisitFixtures.body([
                "practice_id": other.practiceID,
            ]))
            #expect(chosen.json["practice_id"].string == other.practiceID)
            let byOther = try await app.post("/api/v1/visit-transcripts", token: other.vetToken, json: VisitFixtures.body())
            #expect(byOther.json["practice_id"].string == other.practiceID)
        }
    }

    @Test func petOwnersMayNotCreate() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            expectError(
                try await app.post("/api/v1/visit-transcripts", token: owner, json: VisitFixtures.body()),
                .forbidden, "Veterinary staff or administrator access required")
            expectError(
                try await app.sendRaw(.POST, "/api/v1/visit-transcripts", token: owner, body: "{", contentType: .plainText),
                .forbidden, "Veterinary staff or administrator access required")
            #expect(try await app.get(VisitFixtures.list(pet: 1), token: owner).totalCount == "1")
        }
    }

    @Test func bodySyntaxErrorsAndTrailingSlash() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            try await BodySyntaxChecks.expectRefused(app, .POST, "/api/v1/visit-transcripts", token: vet)
            let slashed = try await app.post("/api/v1/visit-transcripts/", token: vet, json: VisitFixtures.body())
            #expect(slashed.status == .created, "\(slashed)")
        }
    }
}
