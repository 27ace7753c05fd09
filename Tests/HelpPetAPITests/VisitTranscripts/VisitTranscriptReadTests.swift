import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /api/v1/visit-transcripts/{visit_id}` (contract §4.9, §4.0 VisitTranscript): shape, ids, visibility.
@Suite struct VisitTranscriptReadTests {
    @Test func theDemoVisitHasEveryKeyWithUnixSecondsAndExplicitNulls() async throws {
        try await withTestApp { app in
            let response = try await app.get(VisitFixtures.demo, token: try await app.token(for: Demo.vet1))
            #expect(response.status == .ok)
            let seeded = WireTime.format(app.testSeedTime)
            let expected = """
                {"uuid": "d5000000-0000-4000-8000-000000000001", "pet_id": "d3000000-0000-4000-8000-000000000001",
                 "appointment_id": null, "practice_id": "d0000000-0000-4000-8000-000000000001",
                 "visit_date": \(VisitFixtures.demoVisitDate(app)),
                 "full_text": "Patient presented for routine wellness exam. Weight stable at 65.5 pounds. Heart and lungs normal. Owner reports good appetite and normal activity.",
                 "audio_transcript_url": null,
                 "metadata": {"chief_complaint": "Annual wellness exam", "duration_minutes": 25},
                 "summary": "Routine wellness exam completed. No issues found.", "state": "processed",
                 "created_at": "\(seeded)", "updated_at": "\(seeded)", "created_by": "d1000000-0000-4000-8000-000000000002"}
                """
            #expect(response.json.value == (try JSONNode(data: Data(expected.utf8))).value, "\(response)")
            #expect(response.json["visit_date"].int != nil, "visit_date is a JSON integer")
        }
    }

    /// §8 gives the example value for a seed on 2025-01-15.
    @Test func demoVisitDateOnTheContractsExampleDay() async throws {
        try await withTestApp(clock: ManualClock(Date(timeIntervalSince1970: 1_736_961_900))) { app in
            let response = try await app.get(VisitFixtures.demo, token: try await app.token(for: Demo.admin))
            #expect(response.json["visit_date"].int == 1_734_372_000)
        }
    }

    @Test func idsAreAcceptedInAnyCaseWithOrWithoutATrailingSlash() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for path in [VisitFixtures.path(Demo.visitID.uuidString), VisitFixtures.demo + "/"] {
                let response = try await app.get(path, token: vet)
                #expect(response.status == .ok, "\(path)")
                #expect(response.json["uuid"].string == Demo.visitID.lowercased)
            }
        }
    }

    @Test(arguments: ["nope", "d5000000000040008000000000000001", "urn:uuid:d5000000-0000-4000-8000-000000000001", "1"])
    func malformedIDsAre400(_ id: String) async throws {
        try await withTestApp { app in
            for user in [Demo.vet1, Demo.owner1] {
                expectError(
                    try await app.get(VisitFixtures.path(id), token: try await app.token(for: user)), .badRequest, "Invalid visit ID format")
            }
        }
    }

    @Test func unknownAndInvisibleVisitsAre404() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(try await app.get(VisitFixtures.path(UUID().lowercased), token: vet), .notFound, "Visit not found")
            let other = try await OtherPractice.create(app)
            expectError(try await app.get(VisitFixtures.demo, token: other.vetToken), .notFound, "Visit not found")
            // A visit of the other practice on a shared client stays invisible to the demo practice.
            try await PetOwnerFixtures.link(app, owner: Demo.owner(1).lowercased, practice: other.practiceID)
            expectError(try await app.get(VisitFixtures.demo, token: other.vetToken), .notFound, "Visit not found")
            let foreign = try await VisitFixtures.create(app, token: other.vetToken)
            #expect(try await app.get(VisitFixtures.path(foreign), token: other.vetToken).status == .ok)
            expectError(try await app.get(VisitFixtures.path(foreign), token: vet), .notFound, "Visit not found")
            for user in [Demo.admin, Demo.owner1] {
                #expect(try await app.get(VisitFixtures.path(foreign), token: try await app.token(for: user)).status == .ok)
            }
        }
    }

    @Test func petOwnersReadTheirOwnPetsVisitsOnly() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            let own = try await app.get(VisitFixtures.demo, token: owner)
            #expect(own.status == .ok)
            #expect(own.json["summary"].string == "Routine wellness exam completed. No issues found.")
            let fluffy = try await VisitFixtures.create(
                app, token: try await app.token(for: Demo.admin), ["pet_id": Demo.pet(4).lowercased])
            expectError(try await app.get(VisitFixtures.path(fluffy), token: owner), .notFound, "Visit not found")
        }
    }

    @Test func pendingVisitsAreReturnedById() async throws {
        try await withTestApp { app in
            let pending = try await VisitSQL.insertRecording(
                app, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app), state: "new",
                visitDate: app.testSeedTime, createdAt: app.testSeedTime)
            let response = try await app.get(VisitFixtures.path(pending.lowercased), token: try await app.token(for: Demo.vet1))
            #expect(response.status == .ok, "\(response)")
            #expect(response.json.keys == ClinicalKeys.visitTranscript)
            #expect(response.json["state"].string == "new")
            #expect(response.json["appointment_id"].string == Demo.appointmentID(1, app).lowercased)
            #expect(response.json["full_text"].string == "")
        }
    }
}
