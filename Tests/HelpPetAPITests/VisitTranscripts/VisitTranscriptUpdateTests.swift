import AppCore
import Foundation
import Testing
import VaporTesting

/// `PUT /api/v1/visit-transcripts/{visit_id}` (contract §4.9, PUT semantics of §1.7): text, summary approval,
/// immutables, no-ops, visibility. State changes: VisitStateTransitionTests; metadata: VisitMetadataMergeTests.
@Suite struct VisitTranscriptUpdateTests {
    @Test func textAndSummaryChangeAndTheSummaryIsApproved() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let before = try await app.get(VisitFixtures.demo, token: vet)
            clock.advance(by: 50)
            let response = try await app.put(VisitFixtures.demo, token: vet, json: [
                "full_text": "  Corrected transcript.\n", "summary": " Vet-written summary ",
            ])
            #expect(response.status == .ok, "\(response)")
            let visit = response.json
            #expect(visit.keys == ClinicalKeys.visitTranscript)
            #expect(visit["full_text"].string == "  Corrected transcript.\n")
            #expect(visit["summary"].string == " Vet-written summary ")
            #expect(visit["metadata"]["summary_status"].string == "approved")
            #expect(visit["metadata"]["chief_complaint"].string == "Annual wellness exam", "other keys stay")
            #expect(visit["metadata"]["duration_minutes"].int == 25)
            #expect(visit["state"].string == "processed")
            for key in ["uuid", "pet_id", "appointment_id", "practice_id", "visit_date", "audio_transcript_url",
                        "created_at", "created_by"] {
                #expect(visit[key].value == before.json[key].value, "\(key) is unchanged")
            }
            #expect(visit["updated_at"].string == WireTime.format(clock.now()))
            #expect(try await app.get(VisitFixtures.demo, token: vet).json.value == visit.value)
        }
    }

    @Test func aNullSummaryClearsItAndStillCountsAsApproval() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.put(VisitFixtures.demo, token: vet, json: ["summary": nil])
            #expect(response.status == .ok)
            #expect(response.json["summary"].isNull)
            #expect(response.json["metadata"]["summary_status"].string == "approved")
        }
    }

    @Test func fullTextMayBeEmptyButNotNull() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let empty = try await app.put(VisitFixtures.demo, token: vet, json: ["full_text": ""])
            #expect(empty.status == .ok, "\(empty)")
            #expect(empty.json["full_text"].string == "")
            #expect(empty.json["metadata"]["summary_status"].isAbsent, "only a summary key approves")
            for key in ["full_text", "state", "metadata"] {
                expectError(try await app.put(VisitFixtures.demo, token: vet, json: [key: nil]), .badRequest, "\(key) cannot be null")
            }
        }
    }

    @Test(arguments: [FieldCase]([
        FieldCase("full_text", .string(String(repeating: "x", count: 200_001)), "full_text must be at most 200000 characters"),
        FieldCase("full_text", 1, "full_text must be a string"),
        FieldCase("summary", .string(String(repeating: "s", count: 10_001)), "summary must be at most 10000 characters"),
        FieldCase("metadata", "{}", "metadata must be an object"),
        FieldCase("metadata", .object(["transcription_engine": "manual"]), "metadata key 'transcription_engine' is managed by the server"),
        FieldCase("state", "done", "Invalid state: 'done'. \(VisitFixtures.allowedStates)"),
        FieldCase("state", "PROCESSED", "Invalid state: 'PROCESSED'. \(VisitFixtures.allowedStates)"),
        FieldCase("state", 2, "state must be a string"),
    ]))
    func invalidFieldsAnswer400BeforeAnyLookup(_ field: FieldCase) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let before = try await app.get(VisitFixtures.demo, token: vet)
            expectError(try await app.put(VisitFixtures.demo, token: vet, json: [field.key: field.any]), .badRequest, field.detail)
            expectError(
                try await app.put(VisitFixtures.path(UUID().lowercased), token: vet, json: [field.key: field.any]),
                .badRequest, field.detail)
            #expect(try await app.get(VisitFixtures.demo, token: vet).json.value == before.json.value)
        }
    }

    @Test func immutableFieldsMayBeRepeatedButNotChanged() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let before = try await app.get(VisitFixtures.demo, token: vet)
            let same: [String: Any?] = [
                "uuid": Demo.visitID.uuidString, "pet_id": Demo.pet(1).uuidString, "appointment_id": nil,
                "practice_id": Demo.practiceID.lowercased, "visit_date": VisitFixtures.demoVisitDate(app),
                "audio_transcript_url": nil, "created_by": Demo.vet1.id.lowercased, "full_text": "same ids",
            ]
            for (key, value) in [
                ("uuid", UUID().lowercased as Any?), ("pet_id", Demo.pet(2).lowercased),
                ("appointment_id", Demo.appointmentID(1, app).lowercased), ("practice_id", UUID().lowercased),
                ("visit_date", VisitFixtures.demoVisitDate(app) + 1), ("audio_transcript_url", "https://example.com/a.txt"),
                ("created_by", Demo.vet2.id.lowercased), ("pet_id", nil), ("visit_date", nil),
            ] {
                var body = same
                body[key] = value
                expectError(try await app.put(VisitFixtures.demo, token: vet, json: body), .badRequest, "\(key) cannot be changed")
            }
            #expect(try await app.get(VisitFixtures.demo, token: vet).json.value == before.json.value)
            let accepted = try await app.put(VisitFixtures.demo, token: vet, json: same)
            #expect(accepted.status == .ok, "current values (any case) are accepted: \(accepted)")
            #expect(accepted.json["full_text"].string == "same ids")
        }
    }

    @Test func aManualVisitsURLIsImmutableToo() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let url = "https://files.example.com/t.txt"
            let id = try await VisitFixtures.create(app, token: vet, ["audio_transcript_url": url])
            #expect(try await app.put(VisitFixtures.path(id), token: vet, json: ["audio_transcript_url": url, "summary": "s"]).status == .ok)
            for value: Any? in ["https://files.example.com/other.txt", nil] {
                expectError(
                    try await app.put(VisitFixtures.path(id), token: vet, json: ["audio_transcript_url": value, "summary": "s"]),
                    .badRequest, "audio_transcript_url cannot be changed")
            }
        }
    }

    @Test func theWholeObjectCanBeSentBack() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let before = try await app.get(VisitFixtures.demo, token: vet)
            let echoed = try await app.sendRaw(.PUT, VisitFixtures.demo, token: vet, body: before.text, contentType: .json)
            #expect(echoed.status == .ok, "\(echoed)")
            #expect(echoed.json["full_text"].value == before.json["full_text"].value)
            #expect(echoed.json["summary"].value == before.json["summary"].value)
            #expect(echoed.json["metadata"]["summary_status"].string == "approved", "the body contained `summary`")
        }
    }

    @Test func aBodyWithoutUpdatableFieldsIsRefused() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for body: [String: Any?] in [
                [:], ["uuid": Demo.visitID.lowercased], ["created_at": "2030-01-01T00:00:00Z", "updated_at": nil],
                ["visit_date": 1, "pet_id": "x"],
            ] {
                expectError(
                    try await app.put(VisitFixtures.demo, token: vet, json: body), .badRequest, "At least one updatable field is required")
            }
        }
    }

    @Test func noOpsKeepUpdatedAt() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let before = try await app.get(VisitFixtures.demo, token: vet)
            clock.advance(by: 500)
            for body: [String: Any?] in [
                ["state": "processed"],
                ["full_text": before.json["full_text"].string],
                ["metadata": ["chief_complaint": "Annual wellness exam", "duration_minutes": 25] as [String: Any?]],
                ["metadata": ["not_there": nil] as [String: Any?]],
                ["metadata": [:] as [String: Any?]],
            ] {
                let response = try await app.put(VisitFixtures.demo, token: vet, json: body)
                #expect(response.status == .ok, "\(body): \(response)")
                #expect(response.json.value == before.json.value, "\(body) is a no-op")
            }
            // Once approved, sending the same summary again changes nothing either.
            let approved = try await app.put(VisitFixtures.demo, token: vet, json: ["summary": "Final"])
            clock.advance(by: 500)
            let again = try await app.put(VisitFixtures.demo, token: vet, json: ["summary": "Final"])
            #expect(again.json["updated_at"].string == approved.json["updated_at"].string)
        }
    }

    @Test func idsVisibilityAndGates() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let body: [String: Any?] = ["summary": "x"]
            expectError(try await app.put(VisitFixtures.path("nope"), token: vet, json: body), .badRequest, "Invalid visit ID format")
            expectError(try await app.put(VisitFixtures.path(UUID().lowercased), token: vet, json: body), .notFound, "Visit not found")
            let other = try await OtherPractice.create(app)
            expectError(try await app.put(VisitFixtures.demo, token: other.vetToken, json: body), .notFound, "Visit not found")
            // The caller's own practice's visit only, even on a shared client.
            try await PetOwnerFixtures.link(app, owner: Demo.owner(1).lowercased, practice: other.practiceID)
            expectError(try await app.put(VisitFixtures.demo, token: other.vetToken, json: body), .notFound, "Visit not found")
            let owner = try await app.token(for: Demo.owner1)
            expectError(
                try await app.put(VisitFixtures.demo, token: owner, json: body), .forbidden, "Veterinary staff or administrator access required")
            #expect(try await app.get(VisitFixtures.demo, token: vet).json["summary"].string
                == "Routine wellness exam completed. No issues found.")
            let admin = try await app.put(VisitFixtures.demo + "/", token: try await app.token(for: Demo.admin), json: body)
            #expect(admin.status == .ok, "\(admin)")
            // An approved note no longer changes; the upper-case id still reaches the visit.
            let upper = try await app.put(
                VisitFixtures.path(Demo.visitID.uuidString), token: vet, json: ["metadata": ["note": "y"]])
            #expect(upper.json["metadata"]["note"].string == "y")
        }
    }

    @Test func bodySyntaxErrors() async throws {
        try await withTestApp { app in
            try await BodySyntaxChecks.expectRefused(app, .PUT, VisitFixtures.demo, token: try await app.token(for: Demo.vet1))
        }
    }
}
