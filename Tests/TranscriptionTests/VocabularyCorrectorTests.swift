import Foundation
import Testing

@testable import Transcription

/// The clinic-vocabulary corrector: Whisper's near-misses of clinic terms become the terms, and an
/// ordinary English word is never rewritten, however close it is to a term.
@Suite struct VocabularyCorrectorTests {
    static let ordinary: Set<String>? = ClinicVocabulary.ordinaryWords
    static var corrector: VocabularyCorrector { ClinicVocabulary.bundled.corrector() }

    @Test func theSystemWordListIsInstalled() throws {
        // Debian's wamerican; without it the corrector (by design) rewrites nothing, so the tests below would pass
        // vacuously.
        let words = try #require(Self.ordinary, "install wamerican (/usr/share/dict/words)")
        #expect(words.contains("molars") && words.contains("daily") && !words.contains("melecicam"))
    }

    @Test(arguments: [
        // What tiny.en wrote for espeak-ng's reading of the benchmark sentences, and what was said.
        ("give melecicam with food once a day.", "give meloxicam with food once a day."),
        ("riskpiratory rate is 24 per minute.", "respiratory rate is 24 per minute."),
        ("Melecicam 0.1 mg per kg.", "Meloxicam 0.1 mg per kg."),
        ("start cefalexin 500 milligrams", "start cephalexin 500 milligrams"),
        ("a dose of gabapentine tonight", "a dose of gabapentin tonight"),
        ("DHPP and leptospirosiss boosters", "DHPP and leptospirosis boosters"),
    ])
    func nearMissesOfClinicTermsAreRewritten(_ heard: String, _ said: String) throws {
        try #require(Self.ordinary != nil)
        let (text, corrections) = Self.corrector.correct(heard)
        #expect(text == said)
        #expect(!corrections.isEmpty)
    }

    @Test(arguments: [
        // Ordinary words close to a term stay as they are: "moonless" (molars), "nail it" (daily), "genes"
        // (vaccines), "rabbis" (rabies), "spayed", "murmurs", "grew" — the vet reads and fixes those.
        "My old mental tartar on the upper moonless.",
        "apply the ear drop, twice, nail it for one week.",
        "My genes are up to date and the next booster is new next year.",
        "The rabbis said the spayed dog murmurs.",
        "We grew blood for a complete blood count and a chemistry panel.",
        // Short words and numbers are never touched.
        "Give 2 tabs bid, recheck q 2 wks.",
    ])
    func ordinaryWordsAreNeverRewritten(_ text: String) throws {
        try #require(Self.ordinary != nil)
        let (corrected, corrections) = Self.corrector.correct(text)
        #expect(corrected == text)
        #expect(corrections.isEmpty)
    }

    @Test func anAmbiguousNearMissIsLeftAlone() {
        // Equally close to two terms: no guess.
        let corrector = VocabularyCorrector(terms: ["cardolol", "cardilol"], ordinaryWords: [])
        #expect(corrector.correct("cardalol").text == "cardalol")
        #expect(corrector.correct("cardolal").text == "cardolol")
    }

    @Test func withoutAWordListNothingIsRewritten() {
        let corrector = VocabularyCorrector(terms: ["meloxicam"], ordinaryWords: nil)
        #expect(corrector.correct("melecicam").text == "melecicam")
    }

    @Test func segmentsAreCorrectedLikeTheText() throws {
        try #require(Self.ordinary != nil)
        let heard = Transcript(
            text: "Start melecicam today. Riskpiratory rate normal.",
            segments: [
                .init(start: 0, end: 2, text: "Start melecicam today."), .init(start: 2, end: 4, text: "Riskpiratory rate normal."),
            ], language: "en", durationSeconds: 4, engine: "whisper", model: "m")
        let (corrected, corrections) = Self.corrector.correct(heard)
        #expect(corrected.text == "Start meloxicam today. Respiratory rate normal.")
        #expect(corrected.segments.map(\.text) == ["Start meloxicam today.", "Respiratory rate normal."])
        #expect(corrections == [
            .init(heard: "melecicam", written: "meloxicam"), .init(heard: "Riskpiratory", written: "Respiratory"),
        ])
    }
}
