import AppCore
import Foundation
import HelpPetAPI
import Testing
import Transcription
import VaporTesting

/// A `PUT` with `summary` approves the note and records who and when; after that the note is locked (409
/// pointing at the addenda endpoint) and corrections are addenda (append-only), which pet owners see only with an
/// approved note. A new recording of the visit starts a new note.
@Suite struct NoteApprovalTests {
    typealias F = RecordingFixtures

    static func addendaPath(_ visitID: String) -> String { "/api/v1/visit-transcripts/\(visitID)/addenda" }

    /// vet1's transcribed recording of Bella (appointment 1), its summary still a draft.
    static func transcribedDraft(_ app: Application, _ vet: String) async throws -> String {
        let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
        try await OwnerDraftSummaryTests.transcribe(app, text: "Bella has an ear infection.")
        return visitID
    }

    @Test func approvingRecordsWhoAndWhenAndLocksTheNote() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await Self.transcribedDraft(app, vet)
            #expect(try await F.visit(app, vet, visitID).json["metadata"]["summary_status"].string == "draft")

            let approved = try await app.put(F.visitPath(visitID), token: vet, json: ["summary": "Otitis externa; drops."])
            #expect(approved.status == .ok, "\(approved)")
            let metadata = approved.json["metadata"]
            #expect(metadata["summary_status"].string == "approved")
            #expect(metadata["summary_approved_by"].string == Demo.vet1.id.lowercased)
            #expect(metadata["summary_approved_at"].string.map { (try? WireTime.parseInputDateTime($0, field: "t")) != nil } == true)

            let again = try await app.put(F.visitPath(visitID), token: vet, json: ["summary": "Changed my mind."])
            #expect(again.status == .conflict)
            #expect(again.json["detail"].string == "The note is approved and can no longer be changed. Add an addendum "
                + "with POST /api/v1/visit-transcripts/\(visitID)/addenda")
            #expect(try await F.visit(app, vet, visitID).json["summary"].string == "Otitis externa; drops.")
            // The same text again (apps send whole objects back) is a no-op, even from someone else.
            let admin = try await app.token(for: Demo.admin)
            let resent = try await app.put(F.visitPath(visitID), token: admin, json: ["summary": "Otitis externa; drops."])
            #expect(resent.status == .ok, "\(resent)")
            #expect(resent.json["metadata"]["summary_approved_by"].string == Demo.vet1.id.lowercased)
            // The client's own metadata stays editable.
            let edit = try await app.put(F.visitPath(visitID), token: vet, json: ["metadata": ["chief_complaint": "Ear"]])
            #expect(edit.status == .ok, "\(edit)")
            // Clients cannot forge the approval.
            let forged = try await app.put(F.visitPath(visitID), token: vet, json: ["metadata": ["summary_approved_by": "x"]])
            #expect(forged.status == .badRequest)
            #expect(forged.json["detail"].string == "metadata key 'summary_approved_by' is managed by the server")
        }
    }

    @Test func theTranscriptIsLockedWithTheApprovedNote() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await Self.transcribedDraft(app, vet)
            // Before approval the vet may still correct the transcript.
            let corrected = try await app.put(F.visitPath(visitID), token: vet, json: ["full_text": "Bella has otitis."])
            #expect(corrected.status == .ok, "\(corrected)")
            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["summary": "Otitis externa."]).status == .ok)

            let changed = try await app.put(F.visitPath(visitID), token: vet, json: ["full_text": "Something else."])
            #expect(changed.status == .conflict, "\(changed)")
            #expect(changed.json["detail"].string == "The note is approved and its transcript can no longer be changed. "
                + "Add an addendum with POST /api/v1/visit-transcripts/\(visitID)/addenda")
            let admin = try await app.token(for: Demo.admin)
            #expect(try await app.put(F.visitPath(visitID), token: admin, json: ["full_text": ""]).status == .conflict)
            #expect(try await F.visit(app, vet, visitID).json["full_text"].string == "Bella has otitis.")
            // Apps send whole objects back: the same text again changes nothing.
            let resent = try await app.put(
                F.visitPath(visitID), token: vet, json: ["full_text": "Bella has otitis.", "summary": "Otitis externa."])
            #expect(resent.status == .ok, "\(resent)")
        }
    }

    @Test func transcribingAnApprovedVisitAgainKeepsTheTranscriptTheNoteWasMadeFrom() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await Self.transcribedDraft(app, vet)
            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["summary": "Otitis externa."]).status == .ok)

            let again = try await app.send(.POST, F.transcribePath(visitID), token: vet)
            #expect(again.status == .accepted, "\(again)")
            try await OwnerDraftSummaryTests.transcribe(app, text: "Bella has an ear infection in the left ear.")

            let visit = try await F.visit(app, vet, visitID).json
            #expect(visit["full_text"].string == "Bella has an ear infection in the left ear.")
            #expect(visit["summary"].string == "Otitis externa.", "the approved note stays")
            let kept = visit["metadata"]["previous_transcripts"].array ?? []
            #expect(kept.count == 1)
            #expect(kept.first?["full_text"].string == "Bella has an ear infection.")
            #expect(kept.first?["transcription_engine"].string == "whisper")
            #expect(kept.first?["superseded_at"].string != nil)
            let forged = try await app.put(F.visitPath(visitID), token: vet, json: ["metadata": ["previous_transcripts": []]])
            #expect(forged.json["detail"].string == "metadata key 'previous_transcripts' is managed by the server")
        }
    }

    @Test func addendaAppendToAnApprovedNoteOnlyAndOwnersSeeThemThen() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await app.token(for: Demo.owner1)
            let visitID = try await Self.transcribedDraft(app, vet)

            let early = try await app.post(Self.addendaPath(visitID), token: vet, json: ["text": "Too early"])
            #expect(early.status == .conflict)
            #expect(early.json["detail"].string == "Only an approved note takes addenda. Approve the draft first (PUT with summary).")
            #expect(try await app.get(Self.addendaPath(visitID), token: owner).json.array?.count == 0)

            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["summary": "Otitis externa."]).status == .ok)
            let blank = try await app.post(Self.addendaPath(visitID), token: vet, json: ["text": "   "])
            #expect(blank.status == .badRequest)
            #expect(blank.json["detail"].string == "text must not be empty")
            let byOwner = try await app.post(Self.addendaPath(visitID), token: owner, json: ["text": "Me too"])
            #expect(byOwner.status == .forbidden)

            let first = try await app.post(Self.addendaPath(visitID), token: vet, json: ["text": " Recheck in 10 days. "])
            #expect(first.status == .created, "\(first)")
            #expect(first.json["text"].string == "Recheck in 10 days.")
            #expect(first.json["author_name"].string == "Dr. Sarah Johnson")
            let admin = try await app.token(for: Demo.admin)
            #expect(try await app.post(Self.addendaPath(visitID), token: admin, json: ["text": "Lab result: normal."]).status == .created)

            for token in [vet, owner] {
                let listed = try await app.get(Self.addendaPath(visitID), token: token)
                #expect(listed.status == .ok)
                #expect(listed.json.array?.map { $0["text"].string ?? "" } == ["Recheck in 10 days.", "Lab result: normal."])
            }
            let other = try await OtherPractice.create(app)
            #expect(try await app.get(Self.addendaPath(visitID), token: other.vetToken).status == .notFound)
            #expect(try await app.post(Self.addendaPath(visitID), token: other.vetToken, json: ["text": "x"]).status == .notFound)
        }
    }

    @Test func aNewRecordingStartsANewNoteAndKeepsTheApprovedOneWithItsApproval() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await Self.transcribedDraft(app, vet)
            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["summary": "Approved text."]).status == .ok)
            _ = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app), replaceExisting: true)
            let visit = try await F.visit(app, vet, visitID)
            let previous = visit.json["metadata"]["previous_recordings"][0]
            #expect(previous["summary_status"].string == "approved")
            #expect(previous["summary_approved_by"].string == Demo.vet1.id.lowercased)
            #expect(visit.json["metadata"]["summary_status"].isAbsent)
            // The new recording's note may be approved again.
            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["summary": "Second note."]).status == .ok)
        }
    }
}
