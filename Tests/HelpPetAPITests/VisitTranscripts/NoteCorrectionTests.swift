import AppCore
import Foundation
import HelpPetAPI
import Testing
import VaporTesting

/// One note: the vet corrects the drafted note (`PUT …/note`) before approving it, the summary is written again from
/// the corrected note, the correction history is kept, and what is approved is exactly what the owner reads.
@Suite struct NoteCorrectionTests {
    typealias F = RecordingFixtures
    typealias Note = ClinicalNoteTests

    static func notePath(_ visitID: String) -> String { "/api/v1/visit-transcripts/\(visitID)/note" }

    static var drafted: [String: Any?] { [
        "name": "meloxicam", "dose": 2.5, "unit": "mg", "frequency": "once daily",
    ] }
    static var amoxicillin: [String: Any?] { [
        "name": "amoxicillin", "dose": 250, "unit": "mg", "route": "oral", "frequency": "twice daily",
        "duration": "10 days",
    ] }

    @Test func aCorrectedDoseIsWhatTheSummaryAndTheOwnersDischargeInstructionsShow() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await app.token(for: Demo.owner1)
            let visitID = try await Note.transcribed(app, vet)
            #expect(try await F.visit(app, vet, visitID).json["summary"].string?.contains("meloxicam 2.5 mg once daily") == true)

            var meloxicam = Self.drafted
            meloxicam["dose"] = 1.5
            let corrected = try await app.put(Self.notePath(visitID), token: vet, json: [
                "medications": [Self.amoxicillin, meloxicam],
            ])
            #expect(corrected.status == .ok, "\(corrected)")
            let summary = try #require(corrected.json["summary"].string)
            #expect(summary.contains("Medications: Amoxicillin 250 mg twice daily for 10 days; Meloxicam 1.5 mg once daily"), "\(summary)")
            // The plan's sentence still says 2.5 mg: the vet is asked to look before approving.
            let flags = try #require(corrected.json["metadata"]["clinical_note"]["flags"].array)
            #expect(flags.map { $0["kind"].string }.contains("sentence_disagrees"))
            #expect(flags.first { $0["kind"].string == "sentence_disagrees" }?["message"].string?.contains(
                "still says 2.5 for meloxicam; the medication list says 1.5 mg") == true)
            let plan = "We will start amoxicillin 250 mg by mouth twice daily for 10 days and meloxicam 1.5 mg once daily. "
                + "Recheck in 2 weeks for the ear."
            let agreed = try await app.put(Self.notePath(visitID), token: vet, json: ["sections": ["plan": plan]])
            #expect(agreed.json["metadata"]["clinical_note"]["flags"].array?.contains { $0["kind"].string == "sentence_disagrees" } == false)
            #expect(agreed.json["summary"].string?.contains("2.5 mg") == false)
            #expect(corrected.json["metadata"]["summary_status"].string == "draft")
            #expect(corrected.json["metadata"]["clinical_note"]["medications"][1]["dose"].double == 1.5)
            // The drug the draft named keeps the draft's audio link.
            #expect(corrected.json["metadata"]["clinical_note"]["medications"][1]["sources"][0]["start"].double == 18)

            let history = try #require(corrected.json["metadata"]["note_corrections"].array)
            #expect(history.count == 1 && agreed.json["metadata"]["note_corrections"].array?.count == 2)
            #expect(history[0]["corrected_by"].string == Demo.vet1.id.lowercased)
            #expect(history[0]["changes"].array?.map { $0["field"].string } == ["medications"])
            #expect(history[0]["changes"][0]["before"][1]["dose"].double == 2.5)
            #expect(history[0]["changes"][0]["after"][1]["dose"].double == 1.5)

            // Owners see neither the draft nor its history before approval.
            #expect(try await F.visit(app, owner, visitID).json["metadata"]["note_corrections"].isAbsent)

            let approved = try await Note.approveAsDrafted(app, vet, visitID)
            #expect(approved == agreed.json["summary"].string)
            let visit = try await F.visit(app, vet, visitID).json
            #expect(visit["metadata"]["summary_approved_from"].string == "note")
            let discharge = try await app.get(Note.dischargePath(visitID), token: owner)
            #expect(discharge.status == .ok)
            #expect(discharge.json["medications"][1]["name"].string == "Meloxicam")
            #expect(discharge.json["medications"][1]["instructions"].string?.hasPrefix("Give 1.5 mg once a day") == true)
            #expect(discharge.json["text"].string?.contains("2.5 mg") == false)
            // The owner's read of the visit shows the same approved text, and not the practice's correction history.
            let ownerView = try await F.visit(app, owner, visitID).json
            #expect(ownerView["summary"].string == approved)
            #expect(ownerView["metadata"]["note_corrections"].isAbsent)
        }
    }

    @Test func removingTheFollowUpLeavesNoFollowUpInTheSummaryTheDischargeOrTheRecords() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await app.token(for: Demo.owner1)
            let visitID = try await Note.transcribed(app, vet)
            #expect(try await F.visit(app, vet, visitID).json["summary"].string?.contains("Follow-up:") == true)

            let corrected = try await app.put(Self.notePath(visitID), token: vet, json: ["follow_up": nil])
            #expect(corrected.status == .ok, "\(corrected)")
            #expect(corrected.json["summary"].string?.contains("Follow-up") == false)
            #expect(corrected.json["metadata"]["clinical_note"]["follow_up"].isAbsent)
            #expect(corrected.json["metadata"]["note_corrections"][0]["changes"][0]["field"].string == "follow_up")
            #expect(corrected.json["metadata"]["note_corrections"][0]["changes"][0]["after"].isNull)

            _ = try await Note.approveAsDrafted(app, vet, visitID)
            let discharge = try await app.get(Note.dischargePath(visitID), token: owner)
            #expect(discharge.json["come_back"].isNull)
            #expect(discharge.json["text"].string?.contains("When to come back") == false)
            let records = try await app.get("/api/v1/medical-records/pet/\(Demo.pet(1).lowercased)", token: vet)
            #expect(records.json["records"].array?.contains { $0["record_type"].string == "visit_summary" } == false)
        }
    }

    @Test func aNewTimeWithTheDraftedWordingSentBackRewritesTheWording() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await Note.transcribed(app, vet)
            let drafted = try await F.visit(app, vet, visitID).json["metadata"]["clinical_note"]["follow_up"]
            let wording = try #require(drafted["text"].string)

            // The same time without wording keeps the drafted wording (and changes nothing).
            let same = try await app.put(Self.notePath(visitID), token: vet, json: [
                "follow_up": ["interval_days": 14, "reason": drafted["reason"].string],
            ])
            #expect(same.json["metadata"]["clinical_note"]["follow_up"]["text"].string == wording)
            #expect(same.json["metadata"]["note_corrections"].isAbsent)

            let moved = try await app.put(Self.notePath(visitID), token: vet, json: [
                "follow_up": ["interval_days": 7, "reason": "ear", "text": wording],
            ])
            #expect(moved.status == .ok, "\(moved)")
            #expect(moved.json["metadata"]["clinical_note"]["follow_up"]["text"].string == "Come back in 7 days for ear.")
            #expect(moved.json["summary"].string?.contains("Follow-up: Come back in 7 days for ear.") == true)

            // A date left blank by a form is no date.
            let blankDate = try await app.put(Self.notePath(visitID), token: vet, json: [
                "follow_up": ["interval_days": 7, "reason": "ear", "date": ""],
            ])
            #expect(blankDate.status == .ok, "\(blankDate)")
            #expect(blankDate.json["metadata"]["clinical_note"]["follow_up"]["date"].isAbsent)

            // Wording of the vet's own is kept as written.
            let worded = try await app.put(Self.notePath(visitID), token: vet, json: [
                "follow_up": ["interval_days": 7, "text": "Come back next week so we can look at the ear again."],
            ])
            #expect(worded.json["metadata"]["clinical_note"]["follow_up"]["text"].string
                == "Come back next week so we can look at the ear again.")
            #expect(worded.json["metadata"]["note_corrections"].array?.count == 2)
        }
    }

    @Test func aSentenceKeptWordForWordKeepsItsAudioAndATypedOneHasNone() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await Note.transcribed(app, vet)
            let corrected = try await app.put(Self.notePath(visitID), token: vet, json: [
                "sections": ["assessment": "This is most likely a yeast otitis. Bacterial otitis is less likely."],
            ])
            #expect(corrected.status == .ok, "\(corrected)")
            let sentences = try #require(
                corrected.json["metadata"]["clinical_note"]["sections"].array?.first { $0["key"].string == "assessment" }?["sentences"].array)
            #expect(sentences.map { $0["text"].string } == [
                "This is most likely a yeast otitis.", "Bacterial otitis is less likely.",
            ])
            #expect(sentences[0]["sources"][0]["start"].double == 12)
            #expect(sentences[1]["sources"].array?.isEmpty == true)
            #expect(corrected.json["summary"].string?.contains("Assessment: This is most likely a yeast otitis. Bacterial otitis is less likely.") == true)

            // Sending the note as it is changes nothing and records nothing.
            let same = try await app.put(Self.notePath(visitID), token: vet, json: [
                "sections": ["assessment": "This is most likely a yeast otitis. Bacterial otitis is less likely."],
            ])
            #expect(same.status == .ok)
            #expect(same.json["metadata"]["note_corrections"].array?.count == 1)
        }
    }

    @Test func approvingATextOfTheVetsOwnShowsThatTextAloneToTheOwner() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await app.token(for: Demo.owner1)
            let visitID = try await Note.transcribed(app, vet)
            let text = "Ear infection. Ear drops twice daily for a week."
            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["summary": text]).status == .ok)
            #expect(try await F.visit(app, vet, visitID).json["metadata"]["summary_approved_from"].string == "text")

            let discharge = try await app.get(Note.dischargePath(visitID), token: owner)
            #expect(discharge.json["found"].array?.map(\.string) == [text])
            #expect(discharge.json["medications"].array?.isEmpty == true)
            #expect(discharge.json["come_back"].isNull)
            let records = try await app.get("/api/v1/medical-records/pet/\(Demo.pet(1).lowercased)", token: vet)
            #expect(records.json["records"].array?.contains { $0["record_type"].string == "visit_summary" } == false)
        }
    }

    @Test func anApprovedNoteAVisitWithoutANoteAndOwnersCannotCorrect() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await app.token(for: Demo.owner1)
            let visitID = try await Note.transcribed(app, vet)

            let byOwner = try await app.put(Self.notePath(visitID), token: owner, json: ["follow_up": nil])
            #expect(byOwner.status == .forbidden)

            _ = try await Note.approveAsDrafted(app, vet, visitID)
            let late = try await app.put(Self.notePath(visitID), token: vet, json: ["follow_up": nil])
            #expect(late.status == .conflict)
            #expect(late.json["detail"].string == "The note is approved and can no longer be changed. Add an addendum "
                + "with POST /api/v1/visit-transcripts/\(visitID)/addenda")

            let manual = try await VisitFixtures.create(app, token: vet)
            let none = try await app.put(Self.notePath(manual), token: vet, json: ["follow_up": nil])
            #expect(none.status == .conflict)
            #expect(none.json["detail"].string == "This visit has no drafted note to correct")

            let unknown = try await app.put(Self.notePath(UUID().lowercased), token: vet, json: ["follow_up": nil])
            #expect(unknown.status == .notFound)
        }
    }

    @Test(arguments: [
        ("{}", "At least one updatable field is required"),
        ("{\"medications\": [{\"dose\": 5}]}", "medications[0].name is required"),
        ("{\"medications\": [{\"name\": \"carprofen\", \"dose\": -1}]}", "medications[0].dose must be greater than 0 and at most 100000"),
        ("{\"medications\": [{\"name\": \"carprofen\", \"unit\": \"spoons\"}]}", "Invalid medications[0].unit: 'spoons'. Allowed: mg, mg/kg, mcg, ml, g, units, tablet, capsule, drop"),
        ("{\"medications\": [{\"name\": \"carprofen\", \"dose_max\": 5}]}", "medications[0].dose_max needs a dose"),
        ("{\"medications\": \"carprofen\"}", "medications must be an array"),
        ("{\"vitals\": {\"weight\": {\"value\": 4.5, \"unit\": \"stone\"}}}", "Invalid vitals.weight.unit: 'stone'. Allowed: kg, lb"),
        ("{\"vitals\": {\"weight\": {\"unit\": \"kg\"}}}", "vitals.weight.value is required"),
        ("{\"vitals\": {\"pulse\": null}}", "Unknown vital: 'pulse'. Allowed: temperature, weight, heart_rate, respiratory_rate"),
        ("{\"follow_up\": {\"reason\": \"recheck\"}}", "follow_up needs interval_days, date or weekday (or null for no follow-up)"),
        ("{\"follow_up\": {\"interval_days\": 0}}", "follow_up.interval_days must be an integer between 1 and 730"),
        ("{\"follow_up\": {\"weekday\": \"someday\"}}", "Invalid follow_up.weekday: 'someday'. Allowed: monday, tuesday, wednesday, thursday, friday, saturday, sunday"),
        ("{\"sections\": {\"diagnosis\": \"Otitis.\"}}", "Unknown note section: 'diagnosis'. Allowed: subjective, objective, assessment, plan"),
    ])
    func aBadCorrectionIsRefusedWithTheFieldNamed(_ body: String, _ message: String) async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await Note.transcribed(app, vet)
            let response = try await app.sendRaw(.PUT, Self.notePath(visitID), token: vet, body: body, contentType: .json)
            #expect(response.status == .badRequest, "\(response)")
            #expect(response.json["detail"].string == message)
            #expect(try await F.visit(app, vet, visitID).json["metadata"]["note_corrections"].isAbsent)
        }
    }
}
