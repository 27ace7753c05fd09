import AppCore
import Foundation
@testable import HelpPetAPI
import Testing

/// The API's draft summary is the note's own words and fields: nothing the note does not hold.
@Suite struct NoteSummaryTextTests {
    static func note(_ json: String) throws -> StoredClinicalNote {
        try JSONDecoder().decode(StoredClinicalNote.self, from: Data(json.utf8))
    }

    @Test func theReasonForAVisitIsNeverAFollowUpLine() throws {
        let note = try Self.note("""
            {"template": "recheck", "sections": [
              {"key": "progress", "title": "Progress since last visit",
               "sentences": [{"text": "Bella is here for a recheck.", "sources": []}]},
              {"key": "plan", "title": "Plan",
               "sentences": [{"text": "Start carprofen 75 milligrams twice daily.", "sources": []}]}],
             "vitals": {"temperature": {"value": 101.5, "unit": "°F", "sources": []},
                        "weight": {"value": 22, "unit": "kg", "sources": []}},
             "medications": [{"name": "carprofen", "brand": "Rimadyl", "dose": 75, "unit": "mg",
                              "frequency": "twice daily", "sources": []}],
             "flags": []}
            """)
        let summary = try #require(NoteSummaryText.render(note))
        #expect(summary == """
            Progress since last visit: Bella is here for a recheck.
            Plan: Start carprofen 75 milligrams twice daily.
            Vitals: temperature 101.5 °F; weight 22 kg
            Medications: Carprofen (Rimadyl) 75 mg twice daily
            """)
        #expect(!summary.contains("Follow-up"))
    }

    @Test func aFollowUpLineIsTheNotesReturnInstruction() throws {
        let note = try Self.note("""
            {"sections": [], "medications": [{"name": "amoxicillin", "dose": 250, "unit": "mg",
              "frequency": "twice daily", "duration": "10 days", "sources": []}],
             "follow_up": {"interval_days": 14, "text": "Recheck in two weeks.", "sources": []}}
            """)
        #expect(NoteSummaryText.render(note) == """
            Medications: Amoxicillin 250 mg twice daily for 10 days
            Follow-up: Recheck in two weeks.
            """)
    }

    @Test func anEmptyNoteHasNoSummary() throws {
        #expect(NoteSummaryText.render(try Self.note(#"{"sections": [], "medications": []}"#)) == nil)
    }
}
