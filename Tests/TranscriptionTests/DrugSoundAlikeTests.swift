import Foundation
import Testing

@testable import Transcription

/// The corrector's sound-alike pass for drug names: what tiny.en wrote for drugs it did not know, cut into several
/// words or spelled far from the name, becomes the drug; ordinary speech, and the benchmark's own sentences, never
/// change.
@Suite struct DrugSoundAlikeTests {
    static var corrector: VocabularyCorrector { ClinicVocabulary.bundled.corrector() }

    @Test(arguments: [
        // Heard in the spoken-visit and benchmark recordings (espeak-ng, flite), and what was said.
        ("start my loxacom, 0.1 milligrams per kilogram", "start meloxicam, 0.1 milligrams per kilogram"),
        ("Start meloxic and 0.1 milligrams per kilogram", "Start meloxicam 0.1 milligrams per kilogram"),
        ("start melic sick and 0.1 milligrams", "start meloxicam 0.1 milligrams"),
        ("divine moxacillin, 250 milligrams", "divine amoxicillin, 250 milligrams"),
        ("give mexisillin 250 milligrams", "give amoxicillin 250 milligrams"),
        ("We will start on maxisillin 250 milligrams", "We will start on amoxicillin 250 milligrams"),
        ("start metlexycom, 0.1 milligrams per kilogram", "start meloxicam, 0.1 milligrams per kilogram"),
        ("Noxocycline 100 milligrams", "Doxycycline 100 milligrams"),
    ])
    func soundAlikesOfDrugNamesBecomeTheDrug(_ heard: String, _ said: String) throws {
        try #require(ClinicVocabulary.ordinaryWords != nil, "install wamerican (/usr/share/dict/words)")
        let (text, corrections) = Self.corrector.correct(heard)
        #expect(text == said)
        #expect(!corrections.isEmpty)
    }

    @Test(arguments: [
        // As near tramadol as trazodone (it was trazodone): no guess between two real drugs.
        "Tramadone 50 milligrams, one hour before the visit.",
        // Ordinary words only, however they sound.
        "My lock is calm and the cat is on a mild diet.",
        "Give em a 6,250 milligrams by mouth twice a day.",
        // Never across punctuation.
        "start mel, ox, icam today",
    ])
    func otherSpeechIsLeftAlone(_ text: String) throws {
        try #require(ClinicVocabulary.ordinaryWords != nil)
        #expect(Self.corrector.correct(text).text == text)
    }

    @Test func theBenchmarkSentencesComeThroughUnchanged() throws {
        try #require(ClinicVocabulary.ordinaryWords != nil)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var checked = 0
        for name in ["vet_sentences.txt", "vet_sentences_doses.txt"] {
            let text = try String(contentsOf: root.appendingPathComponent("bench/data/\(name)"), encoding: .utf8)
            for sentence in text.split(whereSeparator: \.isNewline) {
                let (corrected, corrections) = Self.corrector.correct(String(sentence))
                #expect(corrected == String(sentence), "\(corrections)")
                checked += 1
            }
        }
        #expect(checked == 42)
    }

    @Test func aSoundKeyIgnoresSpellingAndVowels() {
        #expect(DrugSoundAlike.key("meloxicam") == DrugSoundAlike.key("my loxacom"))
        #expect(DrugSoundAlike.key("cephalexin") == DrugSoundAlike.key("sefalexin"))
        #expect(DrugSoundAlike.key("amoxicillin") != DrugSoundAlike.key("maxisillin"))
    }
}
