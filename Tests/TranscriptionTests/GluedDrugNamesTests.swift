import Foundation
import Testing

@testable import Transcription

/// A word the recogniser glued onto a drug name is split against the lexicon; an ordinary word never is.
@Suite struct GluedDrugNamesTests {
    static var corrector: VocabularyCorrector { ClinicVocabulary.bundled.corrector() }

    @Test(arguments: [
        // What tiny.en wrote for flite's slt voice, and what was said.
        ("Startcarprofen 75 milligrams twice daily.", "Start carprofen 75 milligrams twice daily."),
        ("starcarprofen 75 milligrams", "start carprofen 75 milligrams"),
        ("We will stardoxicycline 100 milligrams.", "We will start doxycycline 100 milligrams."),
        ("stardapocal 5.4 milligrams twice daily", "start Apoquel 5.4 milligrams twice daily"),
        ("continuemeloxicam once daily", "continue meloxicam once daily"),
        ("give herRimadyl", "give her Rimadyl"),
        // The next word glued after the drug (flite slt: "Metacam one milliliter").
        ("and metacomone milliliter once daily", "and Metacam one milliliter once daily"),
    ])
    func aWordGluedOntoADrugIsSplit(_ heard: String, _ said: String) throws {
        try #require(ClinicVocabulary.ordinaryWords != nil, "install wamerican (/usr/share/dict/words)")
        #expect(Self.corrector.correct(heard).text == said)
    }

    @Test(arguments: [
        // Ordinary words, some ending in letters that sound like a drug's start.
        "She is a startled little cat and hates the carrier.",
        "Understandably the owner is worried about her appetite.",
        "The carpet at home is stained.",
        "Recommend a prescription diet.",
        "The owner is a pharmacist.",
    ])
    func anOrdinaryWordIsNeverSplit(_ said: String) throws {
        try #require(ClinicVocabulary.ordinaryWords != nil, "install wamerican (/usr/share/dict/words)")
        #expect(Self.corrector.correct(said).text == said)
    }

    @Test func theSplitDrugReachesTheNote() throws {
        try #require(ClinicVocabulary.ordinaryWords != nil, "install wamerican (/usr/share/dict/words)")
        let heard = TranscriptSegment(start: 0, end: 4, text: "Stardapocal 5.4 milligrams twice daily.")
        let (transcript, corrections) = Self.corrector.correct(
            Transcript(text: heard.text, segments: [heard], language: "en", durationSeconds: 4, engine: "", model: ""))
        #expect(corrections.contains { $0.heard == "Stardapocal" && $0.written == "Start Apoquel" })
        let note = try #require(
            ClinicalNoteDrafter().draft(transcript.segments, template: ClinicalNoteDrafterTests.soap))
        #expect(note.medications.map(\.displayName) == ["oclacitinib (Apoquel)"])
        #expect(note.medications.first?.dose == 5.4 && note.medications.first?.frequency == "twice daily")
    }
}
