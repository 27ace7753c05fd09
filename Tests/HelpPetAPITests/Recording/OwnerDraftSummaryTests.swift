import AppCore
import Foundation
import HelpPetAPI
import Testing
import Transcription
import VaporTesting

/// Pet owners see approved summaries only, everywhere a visit is rendered for them. A replaced
/// recording keeps its summary and `summary_status` in `metadata.previous_recordings`; a draft one there is null
/// for owners (the visit read, both visit lists), while staff still see it and approved ones stay visible.
@Suite struct OwnerDraftSummaryTests {
    typealias F = RecordingFixtures

    /// A transcription result applied by a worker (as the engine would), with its draft summary.
    static func transcribe(_ app: Application, text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let store = TranscriptionJobStore(owner: "test-worker", leaseSeconds: 300, retryDelays: [30, 120])
        let job = try #require(try await store.claim(now: Date().addingTimeInterval(1), on: app.db), sourceLocation: sourceLocation)
        let result = VisitTranscriptionJobs.Result(
            fullText: text, segments: [.object(["start": .number(0), "end": .number(1), "text": .string(text)])],
            engine: "whisper", model: "whisper-tiny.en", language: "en", audioDurationSeconds: 1, realTimeFactor: 0.1,
            completedAt: Date(), draftSummary: "Draft: \(text)")
        let applied = try await VisitTranscriptionJobs.applySuccess(
            jobID: job.id, owner: job.owner, visitID: job.visitID, storageKey: job.storageKey, result: result, on: app.db)
        #expect(applied == .applied, sourceLocation: sourceLocation)
    }

    /// The summaries of `previous_recordings` in every rendering of the visit a caller can ask for.
    static func previousSummaries(_ app: Application, _ token: String, visitID: String) async throws -> [[String?]] {
        let appointment = Demo.appointmentID(1, app)
        let read = try await F.visit(app, token, visitID)
        let byPet = try await app.get("/api/v1/visit-transcripts/pet/\(Demo.pet(1).lowercased)", token: token)
        let byAppointment = try await app.get(F.appointmentVisitsPath(appointment), token: token)
        var renderings: [JSONNode] = [read.json]
        renderings += (byPet.json.array ?? []).filter { $0["uuid"].string == visitID }
        renderings += (byAppointment.json.array ?? []).filter { $0["uuid"].string == visitID }
        #expect(renderings.count == 3, "the visit is in the read and both lists")
        return renderings.map { visit in
            (visit["metadata"]["previous_recordings"].array ?? []).map { $0["summary"].string }
        }
    }

    @Test func draftSummariesOfPreviousRecordingsAreNullForOwners() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await app.token(for: Demo.owner1)
            let appointment = Demo.appointmentID(1, app)

            // Attempt 1: transcribed with a draft summary, then replaced.
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: appointment)
            try await Self.transcribe(app, text: "Bella is limping on the left hind leg.")
            _ = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment, replaceExisting: true)
            let draft = "Draft: Bella is limping on the left hind leg."
            #expect(try await Self.previousSummaries(app, vet, visitID: visitID) == Array(repeating: [draft], count: 3))
            #expect(try await Self.previousSummaries(app, owner, visitID: visitID) == Array(repeating: [nil], count: 3))

            // Attempt 2: transcribed, its summary approved by a vet's PUT, then replaced as well.
            let second = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            try await F.upload(app, second, bytes: F.bytes(200))
            #expect(try await F.complete(app, vet, visitID).status == .ok)
            try await Self.transcribe(app, text: "Recheck of the leg.")
            let approved = try await app.put(F.visitPath(visitID), token: vet, json: ["summary": "Leg healing well."])
            #expect(approved.status == .ok, "\(approved)")
            #expect(try await F.visit(app, owner, visitID).json["summary"].string == "Leg healing well.")
            _ = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment, replaceExisting: true)

            #expect(try await Self.previousSummaries(app, vet, visitID: visitID)
                == Array(repeating: [draft, "Leg healing well."], count: 3))
            #expect(try await Self.previousSummaries(app, owner, visitID: visitID)
                == Array(repeating: [nil, "Leg healing well."], count: 3), "approved text only")
            // Everything else of the entries is shown to the owner as stored.
            let entry = try await F.visit(app, owner, visitID).json["metadata"]["previous_recordings"][0]
            #expect(entry["summary_status"].string == "draft")
            #expect(entry["full_text"].string == "Bella is limping on the left hind leg.")
        }
    }
}
