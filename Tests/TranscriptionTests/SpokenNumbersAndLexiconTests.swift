import Foundation
import Testing

@testable import Transcription

@Suite("Spoken numbers")
struct SpokenNumbersTests {
    @Test(arguments: [
        ("one hundred and two point five degrees", "102.5 degrees"),
        ("twenty-five pounds", "25 pounds"),
        ("two hundred fifty milligrams", "250 milligrams"),
        ("in two weeks.", "in 2 weeks."),
        ("one thousand two hundred", "1200"),
        ("point blank", "point blank"),
        ("one two three", "1 2 3"),
        ("thirty eight point nine", "38.9"),
    ])
    func normalize(input: String, expected: String) {
        #expect(SpokenNumbers.normalize(input) == expected)
    }
}

@Suite("Engines and lexicon")
struct EngineParsingTests {
    @Test func pocketsphinxTimedOutput() {
        let output = """
            the dog has a fever
            <s> 0.000 0.020 0.999000
            the 0.030 0.170 0.421136
            dog 0.180 0.400 0.113705
            <sil> 0.410 0.600 0.9
            has(2) 0.610 0.800 0.5
            [NOISE] 0.810 0.900 0.5
            </s> 0.910 1.000 1.000000
            a fever
            <s> 2.000 2.020 0.999000
            a 2.030 2.100 0.5
            fever 2.110 2.600 0.5
            </s> 2.610 2.700 1.0
            """
        let segments = PocketsphinxRecognizer.parse(output)
        #expect(segments == [
            .init(start: 0.03, end: 0.8, text: "the dog has"), .init(start: 2.03, end: 2.6, text: "a fever"),
        ])
    }

    @Test func lexiconFileAndPrompt() {
        let lexicon = MedicationLexicon.bundled
        #expect(lexicon.entries.count >= 40)
        #expect(lexicon.entries.contains { $0.name == "carprofen" && $0.forms.contains("rimadyl") })
        let prompt = lexicon.prompt(petName: "Bella")
        // The plain sentence last: a prompt ending on the drug list made tiny.en carry on listing drugs.
        #expect(prompt.hasSuffix("Veterinary visit notes for Bella."))
        #expect(prompt.contains("amoxicillin"))
    }

    @Test func lexiconParsing() {
        let lexicon = MedicationLexicon(text: "# comment\nfoo | bar\n\n  baz  # trailing\n")
        #expect(lexicon.entries == [.init(name: "foo", forms: ["foo", "bar"]), .init(name: "baz", forms: ["baz"])])
    }

    @Test func aCapitalisedFormIsABrandOfTheGenericDrug() throws {
        let lexicon = MedicationLexicon(text: "Apoquel | oclacitinib\ncarprofen | Rimadyl | Novox\n")
        let apoquel = try #require(lexicon.entries.first)
        #expect(apoquel.name == "oclacitinib" && apoquel.brands == ["Apoquel"])
        #expect(apoquel.forms == ["apoquel", "oclacitinib"] && apoquel.brand(saidAs: "apoquel") == "Apoquel")
        #expect(lexicon.entries[1].name == "carprofen" && lexicon.entries[1].brands == ["Rimadyl", "Novox"])
        #expect(lexicon.entries[1].brand(saidAs: "carprofen") == nil)
        // The prompt keeps the line's first form, lowercased as the prompt was measured.
        #expect(lexicon.prompt(petName: nil).contains("apoquel, carprofen."))
    }

    @Test func theBundledLexiconKnowsTheCommonBrands() {
        let generic = Dictionary(
            MedicationLexicon.bundled.entries.flatMap { entry in entry.brands.map { ($0, entry.name) } },
            uniquingKeysWith: { first, _ in first })
        let expected = [
            "Apoquel": "oclacitinib", "Rimadyl": "carprofen", "Metacam": "meloxicam", "Cerenia": "maropitant",
            "Convenia": "cefovecin", "Clavamox": "amoxicillin-clavulanate", "Baytril": "enrofloxacin",
            "Simparica": "sarolaner", "NexGard": "afoxolaner", "Bravecto": "fluralaner", "Galliprant": "grapiprant",
            "Neurontin": "gabapentin",
        ]
        for (brand, drug) in expected { #expect(generic[brand] == drug, "\(brand)") }
    }
}
