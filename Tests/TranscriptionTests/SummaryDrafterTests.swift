import Foundation
import Testing

@testable import Transcription

@Suite("Draft summary")
struct SummaryDrafterTests {
    let drafter = SummaryDrafter()

    @Test func fullVisitWithDigits() {
        let text = """
            Bella presents with vomiting since yesterday. Her temperature is 103.2 degrees Fahrenheit. \
            Weight is 12.4 kilograms. Heart rate 120 bpm and respiratory rate 28 breaths per minute. \
            We will start amoxicillin 250 milligrams twice daily for 10 days. Recheck in two weeks.
            """
        let draft = drafter.draft(of: text)
        #expect(draft.complaint == "Bella presents with vomiting since yesterday.")
        #expect(draft.vitals.temperature == "103.2 °F")
        #expect(draft.vitals.weight == "12.4 kg")
        #expect(draft.vitals.heartRate == "120 bpm")
        #expect(draft.vitals.respiratoryRate == "28 breaths/min")
        #expect(draft.medications == [.init(name: "amoxicillin", dose: "250 mg", frequency: "twice daily for 10 days")])
        #expect(draft.followUp == ["Recheck in 2 weeks."])
        #expect(draft.text == """
            Complaint: Bella presents with vomiting since yesterday.
            Vitals: temperature 103.2 °F; weight 12.4 kg; heart rate 120 bpm; respiratory rate 28 breaths/min
            Medications: amoxicillin 250 mg twice daily for 10 days
            Follow-up: Recheck in 2 weeks.
            """)
    }

    /// Whisper often joins sentences with commas: the complaint and follow-up are cut to their clauses.
    @Test func runOnSentenceFromAnEngine() {
        let text = "Bella present with vomiting since yesterday, her temperature is 103 degrees Fahrenheit, "
            + "weight is 12 kilograms, we will start amoxicillin 250 milligrams twice daily, recheck in two weeks."
        let draft = drafter.draft(of: text)
        #expect(draft.complaint == "Bella present with vomiting since yesterday.")
        #expect(draft.vitals.temperature == "103 °F")
        #expect(draft.vitals.weight == "12 kg")
        #expect(draft.medications == [.init(name: "amoxicillin", dose: "250 mg", frequency: "twice daily")])
        #expect(draft.followUp == ["Recheck in 2 weeks."])
        // Clauses without numbers or other parts stay with the complaint.
        #expect(drafter.draft(of: "Owner reports coughing, sneezing and lethargy.").complaint
            == "Owner reports coughing, sneezing and lethargy.")
    }

    @Test func spokenNumbersAreRead() {
        let text = "Temperature is one hundred and two point five degrees. She weighs twenty-five pounds. "
            + "Give meloxicam one point five milligrams once a day."
        let draft = drafter.draft(of: text)
        #expect(draft.vitals.temperature == "102.5 °F")
        #expect(draft.vitals.weight == "25 lb")
        #expect(draft.medications == [.init(name: "meloxicam", dose: "1.5 mg", frequency: "once daily")])
    }

    @Test func celsiusAndShortUnits() {
        let draft = drafter.draft(of: "Temp 38.9 °C, weight 4.2 kg, pulse of 180, RR 30.")
        #expect(draft.vitals.temperature == "38.9 °C")
        #expect(draft.vitals.weight == "4.2 kg")
        #expect(draft.vitals.heartRate == "180 bpm")
        #expect(draft.vitals.respiratoryRate == "30 breaths/min")
    }

    @Test func temperatureWithoutUnitIsInferredFromRange() {
        #expect(drafter.draft(of: "The temperature was 101.5 today.").vitals.temperature == "101.5 °F")
        #expect(drafter.draft(of: "The temperature was 38.5 today.").vitals.temperature == "38.5 °C")
        // A number outside body temperatures is not a temperature.
        #expect(drafter.draft(of: "The temperature in the room was 70.").vitals.temperature == nil)
    }

    @Test func severalMedicationsWithAliasesAndAbbreviations() {
        let text = "Start Rimadyl 75 mg BID with food and gabapentin 100 milligrams every 12 hours. "
            + "Continue Apoquel 16 mg SID. Cerenia as needed."
        let meds = drafter.draft(of: text).medications
        #expect(meds == [
            .init(name: "carprofen", dose: "75 mg", frequency: "twice daily"),
            .init(name: "gabapentin", dose: "100 mg", frequency: "every 12 hours"),
            .init(name: "oclacitinib", dose: "16 mg", frequency: "once daily"),
            .init(name: "maropitant", dose: nil, frequency: "as needed"),
        ])
    }

    @Test func aDrugIsListedOnceAndOnlyWholeWordsMatch() {
        let text = "Amoxicillin 250 mg twice daily. Owner asked whether amoxicillin is safe. Insulinoma suspected."
        let meds = drafter.draft(of: text).medications
        #expect(meds.map(\.name) == ["amoxicillin"])
    }

    @Test func heartRateInBpmIsNotTakenFromRespiration() {
        let draft = drafter.draft(of: "Respiratory rate 24. Heart rate is 90 beats per minute.")
        #expect(draft.vitals.heartRate == "90 bpm")
        #expect(draft.vitals.respiratoryRate == "24 breaths/min")
    }

    @Test func followUpPhrases() {
        let text = "All good. Come back in 3 days if the limp persists. Schedule the booster next month. Thanks."
        #expect(drafter.draft(of: text).followUp == [
            "Come back in 3 days if the limp persists.", "Schedule the booster next month.",
        ])
    }

    @Test func complaintCuesAndNone() {
        #expect(drafter.draft(of: "Hello. Max came in for limping on the left hind leg. OK.").complaint
            == "Max came in for limping on the left hind leg.")
        #expect(drafter.draft(of: "Owner reports coughing at night.").complaint == "Owner reports coughing at night.")
        #expect(drafter.draft(of: "Nice weather today.").complaint == nil)
    }

    @Test func emptyTranscriptHasNoSummary() {
        #expect(drafter.summary(of: "") == nil)
        #expect(drafter.summary(of: "Hello there.") == nil)
    }

    @Test func deterministic() {
        let text = "Bella presents with itching. Temperature 101 °F. Start cephalexin 500 mg twice a day."
        #expect(drafter.summary(of: text) == drafter.summary(of: text))
        #expect(drafter.summary(of: text) == """
            Complaint: Bella presents with itching.
            Vitals: temperature 101 °F
            Medications: cephalexin 500 mg twice daily
            """)
    }
}

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
