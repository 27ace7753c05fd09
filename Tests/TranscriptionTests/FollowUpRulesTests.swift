import Foundation
import Testing

@testable import Transcription

/// A follow-up comes only from a spoken return instruction that says when. Each case is one short visit.
@Suite("Follow-up: only a return instruction with a time")
struct FollowUpRulesTests {
    func note(_ sentences: String...) throws -> ClinicalNote {
        let segments = sentences.enumerated().map { index, text in
            TranscriptSegment(start: Double(index * 5), end: Double(index * 5 + 4), text: text)
        }
        return try #require(ClinicalNoteDrafter().draft(segments, template: ClinicalNoteDrafterTests.soap))
    }

    @Test(arguments: [
        ("Recheck in two weeks.", 14),
        ("Come back in five days if she is still vomiting.", 5),
        ("We will schedule the dental next month.", 30),
        ("Let's recheck her in a week.", 7),
        ("Recheck the ears in ten days.", 10),
        ("We'd like to see him again in about three weeks for bloodwork.", 21),
        ("Her next booster is due in one year.", 365),
        ("Follow up in a couple of weeks.", 14),
        ("Recheck two to three weeks from now.", 14),
        ("Bring her back tomorrow to change the bandage.", 1),
        ("Recheck 10 days.", 10),
        ("We'll check in 10 days.", 10),
        ("We will schedule the dental next months.", 30),
    ])
    func aReturnWithAnIntervalIsAFollowUp(_ said: String, _ days: Int) throws {
        let followUp = try #require(try note("Heart and lungs sound normal.", said).followUp)
        #expect(followUp.intervalDays == days)
        #expect(followUp.sources == [.init(start: 5, end: 9)])
    }

    @Test func aDayOfTheWeekIsKeptForTheServerToDate() throws {
        let followUp = try #require(try note("We'll see her again on Friday to remove the sutures.").followUp)
        #expect(followUp.weekday == "friday" && followUp.intervalDays == nil)
        #expect(followUp.reason == nil || followUp.reason == "remove the sutures")
    }

    @Test(arguments: [
        // The reason for the visit, which once became a follow-up.
        "Bella is here for a recheck.",
        "Max is in today for his recheck of the ear infection.",
        "She's back for her recheck and the ears look much better.",
        // Something done today.
        "She got the rabies vaccine and the FVRCP booster today.",
        "We gave the booster and scheduled nothing else.",
        // Times that are not a return.
        "She has been vomiting since Monday.",
        "The owner noticed the lump two weeks ago.",
        "Give carprofen for two weeks.",
        "We rechecked her two weeks ago and she was fine.",
        // A return whose only time belongs to a condition.
        "Recheck if she is still limping tomorrow.",
        // No return at all.
        "Everything looks good today.",
    ])
    func noReturnInstructionWithATimeGivesNoFollowUp(_ said: String) throws {
        let drafted = try note(said)
        #expect(drafted.followUp == nil)
    }

    @Test(arguments: [
        "Recheck if she gets worse.",
        "Come back in a few days if the swelling does not go down.",
        "We will want to recheck her ears.",
    ])
    func aReturnWithoutATimeIsFlaggedNotInvented(_ said: String) throws {
        let drafted = try note(said)
        #expect(drafted.followUp == nil)
        #expect(drafted.flags.map(\.kind) == ["return_without_time"])
    }

    @Test func theReasonForTheVisitDoesNotHideTheReturnSaidLater() throws {
        let drafted = try note(
            "Bella is here for a recheck.", "Temperature 101.5, weight 22 kilograms.",
            "Start carprofen 75 milligrams twice daily.", "Recheck in two weeks.")
        #expect(drafted.followUp?.intervalDays == 14 && drafted.followUp?.text == "Recheck in 2 weeks.")
        #expect(drafted.flags.isEmpty)
        let sameSentence = try note("She is here for a recheck, and we'll see her again next month.")
        #expect(sameSentence.followUp?.intervalDays == 30)
    }

    @Test func theVisitOfIssue27HasNoFollowUpAndNoFlagForIt() throws {
        let drafted = try note(
            "Bella is here for a recheck.", "Temperature 101.5, weight 22 kilograms.",
            "Heart and lungs sound normal.", "Start carprofen 75 milligrams twice daily.")
        #expect(drafted.followUp == nil)
        #expect(!drafted.flags.contains { $0.kind == "return_without_time" })
    }

    @Test(arguments: [
        // As tiny.en wrote "Recheck in four days" and "Recheck in 10 days" for espeak-ng: the corrector makes them
        // "recheck" (a clinic term), and the return is read.
        ("Rechek in four days.", 4),
        ("Recheckin 10 days.", 10),
    ])
    func aMisspeltRecheckIsCorrectedAndRead(_ heard: String, _ days: Int) throws {
        try #require(ClinicVocabulary.ordinaryWords != nil, "install wamerican (/usr/share/dict/words)")
        let corrected = ClinicVocabulary.bundled.corrector().correct(heard).text
        #expect(try note(corrected).followUp?.intervalDays == days, "\(corrected)")
    }
}
