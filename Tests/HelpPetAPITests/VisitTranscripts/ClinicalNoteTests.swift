import AppCore
import Foundation
import HelpPetAPI
import Testing
import Transcription
import VaporTesting

/// The worker's sectioned note (`metadata.clinical_note`) is a draft staff see and owners do not; approving
/// it writes its follow-up into the pet's medical records and opens the owner's discharge instructions; practices
/// keep their own, versioned note templates.
@Suite struct ClinicalNoteTests {
    typealias F = RecordingFixtures

    static let visitSentences = [
        "Bella came in because the owner noticed her scratching her left ear for a week.",
        "Temperature 102.5 F. She weighs 25 kg. The left ear canal is red with brown discharge.",
        "This is most likely a yeast otitis.",
        "We will start amoxicillin 250 mg by mouth twice daily for 10 days and meloxicam 2.5 mg once daily.",
        "Recheck in two weeks for the ear.",
    ]

    /// The note the worker drafts for `sentences`, with HelpPet's built-in SOAP template, as the server stores it.
    static func note(_ sentences: [String] = visitSentences) throws -> JSONValue {
        let soap = NoteTemplates.builtIn["soap"]!
        let template = NoteTemplate(key: soap.key, version: soap.version, title: soap.title, sections: soap.sections.map {
            .init(key: $0.key, title: $0.title, hint: $0.hint, collects: $0.collects.compactMap(NoteTemplate.Role.init))
        })
        let segments = sentences.enumerated().map {
            TranscriptSegment(start: Double($0.offset * 6), end: Double($0.offset * 6 + 5), text: $0.element)
        }
        let note = try #require(ClinicalNoteDrafter().draft(segments, template: template, petWeightKg: 25))
        return try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(note))
    }

    /// vet1's recording of Bella (appointment 1), transcribed by "the worker" with the note above.
    static func transcribed(_ app: Application, _ vet: String) async throws -> String {
        let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
        let store = TranscriptionJobStore(owner: "test-worker", leaseSeconds: 300, retryDelays: [30])
        let job = try #require(try await store.claim(now: Date().addingTimeInterval(1), on: app.db))
        let text = visitSentences.joined(separator: " ")
        var result = VisitTranscriptionJobs.Result(
            fullText: text, segments: [.object(["start": .number(0), "end": .number(30), "text": .string(text)])],
            engine: "whisper", model: "whisper-tiny.en", language: "en", audioDurationSeconds: 30, realTimeFactor: 0.1,
            completedAt: Date(), draftSummary: "Draft summary")
        result.clinicalNote = try note()
        let applied = try await VisitTranscriptionJobs.applySuccess(
            jobID: job.id, owner: job.owner, visitID: job.visitID, storageKey: job.storageKey, result: result, on: app.db)
        #expect(applied == .applied)
        return visitID
    }

    /// Approves the note as drafted, as the console and an app that sends the draft back unchanged do.
    static func approveAsDrafted(_ app: Application, _ token: String, _ visitID: String) async throws -> String {
        let summary = try #require(try await F.visit(app, token, visitID).json["summary"].string)
        #expect(try await app.put(F.visitPath(visitID), token: token, json: ["summary": summary]).status == .ok)
        return summary
    }

    static func dischargePath(_ visitID: String) -> String { "/api/v1/visit-transcripts/\(visitID)/discharge-instructions" }

    @Test func theDraftNoteIsStoredWithSectionsAndAudioLinksAndOwnersNeverSeeIt() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await app.token(for: Demo.owner1)
            let visitID = try await Self.transcribed(app, vet)

            let staffView = try await F.visit(app, vet, visitID).json["metadata"]["clinical_note"]
            #expect(staffView["template"].string == "soap")
            #expect(staffView["sections"].array?.map { $0["title"].string } == ["Subjective", "Objective", "Assessment", "Plan"])
            #expect(staffView["sections"][3]["sentences"][0]["sources"][0]["start"].double == 18)
            #expect(staffView["medications"].array?.map { $0["name"].string } == ["amoxicillin", "meloxicam"])
            #expect(staffView["follow_up"]["interval_days"].int == 14)
            #expect(staffView["vitals"]["weight"]["value"].double == 25)

            // Owners: no draft note anywhere (the visit read, the pet's list, the appointment's list).
            #expect(try await F.visit(app, owner, visitID).json["metadata"]["clinical_note"].isNull)
            let byPet = try await app.get("/api/v1/visit-transcripts/pet/\(Demo.pet(1).lowercased)", token: owner)
            #expect(byPet.json.array?.contains { $0["uuid"].string == visitID } == true)
            #expect(byPet.json.array?.allSatisfy { $0["metadata"]["clinical_note"]["template"].string == nil } == true)
            // Clients cannot write it.
            let forged = try await app.put(F.visitPath(visitID), token: vet, json: ["metadata": ["clinical_note": [:]]])
            #expect(forged.status == .badRequest)
            #expect(forged.json["detail"].string == "metadata key 'clinical_note' is managed by the server")

            // Approved: the owner reads the note.
            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["summary": "Yeast otitis; meds; recheck."]).status == .ok)
            #expect(try await F.visit(app, owner, visitID).json["metadata"]["clinical_note"]["template"].string == "soap")
        }
    }

    @Test func approvingANoteWithAFollowUpWritesItIntoThePetsMedicalRecords() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await Self.transcribed(app, vet)
            let before = try await app.get("/api/v1/medical-records/pet/\(Demo.pet(1).lowercased)", token: vet)
            #expect(before.json["records"].array?.contains { $0["record_type"].string == "visit_summary" } == false)

            let approved = try await Self.approveAsDrafted(app, vet, visitID)
            let after = try await app.get("/api/v1/medical-records/pet/\(Demo.pet(1).lowercased)", token: vet)
            let record = try #require(after.json["records"].array?.first { $0["record_type"].string == "visit_summary" })
            let visitDay = LocalDay.day(containing: try await F.visit(app, vet, visitID).json["visit_date"].double
                .map { Date(timeIntervalSince1970: $0) } ?? Date(), in: Demo.zone)
            #expect(record["follow_up_date"].string == visitDay.adding(days: 14).description)
            #expect(record["follow_up_required"].bool == true)
            #expect(record["description"].string == approved)
            #expect(record["diagnosis"].string == "This is most likely a yeast otitis.")
            #expect(record["medications"].array?.map(\.string) == ["amoxicillin 250 mg twice daily", "meloxicam 2.5 mg once daily"])
            #expect(record["weight"].double == 25)
            #expect(record["temperature"].double == 102.5)
            #expect(record["version"].int == 1)
        }
    }

    @Test func dischargeInstructionsOnlyFromTheApprovedNoteAndOnlyForThoseWhoMayReadTheVisit() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await app.token(for: Demo.owner1)
            let visitID = try await Self.transcribed(app, vet)

            let early = try await app.get(Self.dischargePath(visitID), token: owner)
            #expect(early.status == .conflict)
            #expect(early.json["detail"].string
                == "Discharge instructions are written from the approved note; this visit's note is not approved yet")

            _ = try await Self.approveAsDrafted(app, vet, visitID)
            #expect(try await app.post(NoteApprovalTests.addendaPath(visitID), token: vet,
                                       json: ["text": "Culture came back: Malassezia."]).status == .created)
            let read = try await app.get(Self.dischargePath(visitID), token: owner)
            #expect(read.status == .ok, "\(read)")
            #expect(read.json["pet_name"].string == "Bella")
            #expect(read.json["found"].array?.map(\.string) == ["This is most likely a yeast otitis."])
            #expect(read.json["medications"][0]["instructions"].string
                == "Give 250 mg by mouth twice a day (every 12 hours) for 10 days. Finish the whole course, even if your pet seems better.")
            #expect(read.json["medications"][1]["name"].string == "Meloxicam")
            #expect(read.json["come_back"].string?.hasPrefix("in 2 weeks (on or around ") == true)
            #expect(read.json["come_back"].string?.hasSuffix(") for ear.") == true)
            #expect(read.json["watch_for"].array?.count == 3)
            #expect(read.json["addenda"].array?.map(\.string) == ["Culture came back: Malassezia."])
            #expect(read.json["text"].string?.contains("Medications:\n  Amoxicillin: Give 250 mg") == true)

            // Someone who may not read the visit gets the visit's 404, before anything about the note.
            let vet2 = try await app.token(for: Demo.vet2)
            let other = try await app.get(Self.dischargePath(visitID), token: vet2)
            #expect(other.status == .notFound || other.status == .ok)
            let unknown = try await app.get(Self.dischargePath(UUID().lowercased), token: owner)
            #expect(unknown.status == .notFound)
        }
    }

    @Test func practicesKeepVersionedNoteTemplatesThatOnlyAdminsEdit() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let admin = try await app.token(for: Demo.admin)
            let owner = try await app.token(for: Demo.owner1)
            let base = "/api/v1/practices/\(Demo.practiceID.lowercased)/note-templates"

            let list = try await app.get(base, token: vet)
            #expect(list.status == .ok)
            #expect(list.json.array?.map { $0["key"].string } == ["soap", "dental", "surgery", "recheck"])
            #expect(list.json.array?.allSatisfy { $0["version"].int == 1 && $0["built_in"].bool == true } == true)
            #expect(try await app.get(base, token: owner).status == .forbidden)

            let sections: [[String: Any?]] = [
                ["key": "history", "title": "History", "hint": "What the owner says", "collects": ["subjective"]],
                ["key": "exam", "title": "Exam and assessment", "collects": ["objective", "assessment"]],
                ["key": "plan", "title": "Plan", "collects": ["plan"]],
            ]
            let byVet = try await app.put(base + "/soap", token: vet, json: ["sections": sections])
            #expect(byVet.status == .forbidden)
            let uncovered = try await app.put(base + "/soap", token: admin, json: ["sections": Array(sections.prefix(2))])
            #expect(uncovered.status == .badRequest)
            #expect(uncovered.json["detail"].string
                == "No section collects plan: every one of subjective, objective, assessment and plan needs a section")
            let badKey = try await app.put(base + "/soap", token: admin, json: [
                "sections": [["key": "Plan!", "title": "P", "collects": ["subjective", "objective", "assessment", "plan"]]]])
            #expect(badKey.json["detail"].string == "sections[0].key must be lower-case letters, digits and _ and start with a letter")
            let badRole = try await app.put(base + "/soap", token: admin, json: [
                "sections": [["key": "all", "title": "All", "collects": ["everything"]]]])
            #expect(badRole.json["detail"].string == "sections[0].collects may only hold subjective, objective, assessment, plan")
            #expect(try await app.put(base + "/nope", token: admin, json: ["sections": sections]).status == .notFound)

            let saved = try await app.put(base + "/soap", token: admin, json: ["title": "Short SOAP", "sections": sections])
            #expect(saved.status == .ok, "\(saved)")
            #expect(saved.json["version"].int == 2 && saved.json["built_in"].bool == false)
            #expect(saved.json["updated_by"].string == Demo.admin.id.lowercased)
            let again = try await app.put(base + "/soap", token: admin, json: ["sections": sections])
            #expect(again.json["version"].int == 3 && again.json["title"].string == "SOAP")

            // New notes use the newest version; an old note's version stays readable.
            let current = try await VisitTemplateCheck.current(app, key: "soap")
            #expect(current.version == 3 && current.sections.map(\.key) == ["history", "exam", "plan"])
            let first = try await app.get(base + "/soap?version=1", token: vet)
            #expect(first.json["sections"].array?.count == 4 && first.json["built_in"].bool == true)
            #expect(try await app.get(base + "/soap?version=2", token: vet).json["title"].string == "Short SOAP")
            #expect(try await app.get(base + "/soap?version=9", token: vet).status == .notFound)
            #expect(try await app.get(base + "/soap?version=x", token: vet).status == .badRequest)
        }
    }
}

/// What the worker would be handed for a practice's template key.
enum VisitTemplateCheck {
    static func current(_ app: Application, key: String) async throws -> ClinicalNoteTemplate {
        try await NoteTemplateStore(db: app.db).current(practiceID: Demo.practiceID, key: key)
    }
}
