import AppCore
import Foundation
import HelpPetAPI
import Testing
import Transcription
import VaporTesting

/// `GET`/`PUT /api/v1/practices/{id}/vocabulary`: a practice's own clinic terms for the transcription
/// engine; ADMIN and the practice's staff; validated and capped; handed to the worker with each job of the practice.
@Suite struct PracticeVocabularyTests {
    static let path = "/api/v1/practices/\(Demo.practiceID.uuidString.lowercased())/vocabulary"

    @Test func aPracticeWithoutTermsHasAnEmptyList() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.get(Self.path, token: vet)
            #expect(response.status == .ok, "\(response)")
            #expect(response.json["practice_id"].string == Demo.practiceID.uuidString.lowercased())
            #expect(response.json["terms"].array?.isEmpty == true)
            #expect(response.json["updated_at"].isNull && response.json["updated_by"].isNull)
        }
    }

    @Test func staffReplaceTheListWhichKeepsItsOrderWithoutRepeats() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let saved = try await app.put(Self.path, token: vet, json: [
                "terms": ["Zylkene", "Bravecto Plus", "zylkene", "Cerenia 16 mg", "Dr. Okafor's rinse", "Mélange 1/2+"],
            ])
            #expect(saved.status == .ok, "\(saved)")
            // In order; a repeat (ignoring case) dropped.
            #expect(saved.json["terms"].array?.compactMap(\.string)
                == ["Zylkene", "Bravecto Plus", "Cerenia 16 mg", "Dr. Okafor's rinse", "Mélange 1/2+"])
            #expect(saved.json["updated_by"].string == Demo.vet1.id.uuidString.lowercased())
            #expect(saved.json["updated_at"].string != nil)
            let staff = try await app.token(for: Demo.vet2)
            let read = try await app.get(Self.path, token: staff)
            #expect(read.json.value == saved.json.value)
            // The whole list is replaced; an empty array clears it.
            let cleared = try await app.put(Self.path, token: vet, json: ["terms": [String]()])
            #expect(cleared.json["terms"].array?.isEmpty == true, "\(cleared)")
        }
    }

    static func charactersMessage(_ index: Int) -> String {
        "terms[\(index)] may contain only letters, digits, spaces and - ' . / +, and may not start or end with a space"
    }

    @Test(arguments: [
        (#"{}"#, "terms is required"),
        (#"{"terms":"Zylkene"}"#, "terms must be an array"),
        (#"{"terms":null}"#, "terms cannot be null"),
        (#"{"terms":["ok",3]}"#, "terms[1] must be a string"),
        (#"{"terms":["x"]}"#, "terms[0] must be 2 to 60 characters"),
        (#"{"terms":["fine","<script>"]}"#, Self.charactersMessage(1)),
        (#"{"terms":["bell\u0007"]}"#, Self.charactersMessage(0)),
        (#"{"terms":[" Zylkene"]}"#, Self.charactersMessage(0)),
        (#"{"terms":["Zylkene "]}"#, Self.charactersMessage(0)),
        (#"{"terms":["two\tparts"]}"#, Self.charactersMessage(0)),
        (#"{"terms":["5×2"]}"#, Self.charactersMessage(0)),
    ])
    func badListsAreRefusedWithAMessage(_ body: String, _ message: String) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.sendRaw(.PUT, Self.path, token: vet, body: body, contentType: .json)
            #expect(response.status == .badRequest, "\(response)")
            #expect(response.json["detail"].string == message, "\(response)")
        }
    }

    @Test func theListIsCapped() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let many = (0...200).map { "term \($0)" }
            let response = try await app.put(Self.path, token: vet, json: ["terms": many])
            #expect(response.status == .badRequest)
            #expect(response.json["detail"].string == "terms may hold at most 200 entries")
            let long = try await app.put(Self.path, token: vet, json: ["terms": [String(repeating: "a", count: 61)]])
            #expect(long.json["detail"].string == "terms[0] must be 2 to 60 characters")
        }
    }

    @Test func ownersAreRefusedAndOtherPracticesAreNotFound() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            #expect(try await app.get(Self.path, token: owner).status == .forbidden)
            #expect(try await app.put(Self.path, token: owner, json: ["terms": ["Zylkene"]]).status == .forbidden)
            let admin = try await app.token(for: Demo.admin)
            let other = try await app.post("/api/v1/practices", token: admin, json: ["name": "Other", "timezone": "UTC"])
            let otherPath = "/api/v1/practices/\(other.json["id"].string ?? "")/vocabulary"
            let vet = try await app.token(for: Demo.vet1)
            let hidden = try await app.get(otherPath, token: vet)
            #expect(hidden.status == .notFound, "\(hidden)")
            #expect(hidden.json["detail"].string == "Practice not found")
            #expect(try await app.put(otherPath, token: vet, json: ["terms": ["Zylkene"]]).status == .notFound)
            // ADMIN reads and writes any practice's list.
            let written = try await app.put(otherPath, token: admin, json: ["terms": ["Zylkene"]])
            #expect(written.status == .ok, "\(written)")
        }
    }

    /// The worker gets the practice's terms with each job: the job's visit lookup carries them.
    @Test func aJobOfThePracticeCarriesItsTerms() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            _ = try await app.put(Self.path, token: vet, json: ["terms": ["Zylkene", "Bravecto Plus"]])
            let initiated = try await app.post("/api/v1/visit-transcripts/audio/upload/initiate", token: vet, json: [
                "pet_id": Demo.pet(1).uuidString.lowercased(), "filename": "v.m4a", "content_type": "audio/m4a",
            ])
            let visitID = try #require(initiated.json["visit_id"].string.flatMap(UUID.init(uuidString:)), "\(initiated)")
            let key = try #require(initiated.json["s3_key"].string, "\(initiated)")
            // As `complete` leaves it for the worker.
            try await app.db.sql.raw("UPDATE visits SET state = 'processing' WHERE id = \(bind: visitID)").run()
            let visit = try await VisitTranscriptionJobs.visit(visitID: visitID, storageKey: key, on: app.db)
            #expect(visit?.practiceTerms == ["Zylkene", "Bravecto Plus"])
        }
    }

    @Test func practiceTermsBecomeHotwordsAndCorrectionTargets() throws {
        try #require(ClinicVocabulary.ordinaryWords != nil, "install wamerican")
        let vocabulary = ClinicVocabulary.bundled.adding(practiceTerms: ["Zylkene", "Bravecto Plus"])
        #expect(vocabulary.hotwords == "Zylkene, Bravecto Plus")
        #expect(vocabulary.corrector().correct("Start zilkene daily.").text == "Start Zylkene daily.")
        #expect(ClinicVocabulary.bundled.corrector().correct("Start zilkene daily.").text == "Start zilkene daily.")
        // Hotwords stay short (they share Whisper's prompt window); every term still becomes a correction target.
        let many = (1...100).map { "Term\($0)" }
        let capped = ClinicVocabulary.bundled.adding(practiceTerms: many)
        #expect(capped.hotwords.count <= 300)
        #expect(capped.terms.suffix(100) == many[...])
    }
}
