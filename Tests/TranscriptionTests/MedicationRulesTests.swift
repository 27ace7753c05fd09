import Foundation
import Testing

@testable import Transcription

/// Medications need a drug of the lexicon; brands map to the drug and keep their name; a negated drug is not a
/// medication; decimals survive.
@Suite("Medications and numbers: nothing invented, nothing lost")
struct MedicationRulesTests {
    func note(_ sentences: String...) throws -> ClinicalNote {
        let segments = sentences.enumerated().map { index, text in
            TranscriptSegment(start: Double(index * 5), end: Double(index * 5 + 4), text: text)
        }
        return try #require(ClinicalNoteDrafter().draft(segments, template: ClinicalNoteDrafterTests.soap))
    }

    @Test(arguments: [
        ("Start Apoquel 5.4 milligrams twice daily.", "oclacitinib", "Apoquel"),
        ("Send home Rimadyl 75 milligrams twice daily.", "carprofen", "Rimadyl"),
        ("Metacam 1.5 milliliters once daily.", "meloxicam", "Metacam"),
        ("We gave Cerenia 0.8 milliliters under the skin.", "maropitant", "Cerenia"),
        ("We gave a Convenia injection, 1 milliliter under the skin.", "cefovecin", "Convenia"),
        ("Clavamox 62.5 milligrams twice daily for 10 days.", "amoxicillin-clavulanate", "Clavamox"),
        ("Baytril 68 milligrams once daily.", "enrofloxacin", "Baytril"),
        ("Give one Simparica chew once a month.", "sarolaner", "Simparica"),
        ("NexGard once a month.", "afoxolaner", "NexGard"),
        ("Bravecto every three months.", "fluralaner", "Bravecto"),
        ("Galliprant 60 milligrams once daily.", "grapiprant", "Galliprant"),
        ("Neurontin 100 milligrams twice daily.", "gabapentin", "Neurontin"),
    ])
    func aBrandNameIsTheDrugAndKeepsItsName(_ said: String, _ generic: String, _ brand: String) throws {
        let meds = try note(said).medications
        #expect(meds.map(\.name) == [generic])
        #expect(meds.first?.brand == brand)
        #expect(meds.first?.displayName == "\(generic) (\(brand))")
    }

    @Test func aGenericNameHasNoBrand() throws {
        let meds = try note("Start carprofen 75 milligrams twice daily.").medications
        #expect(meds.map(\.name) == ["carprofen"] && meds.first?.brand == nil)
    }

    @Test(arguments: [
        "She is eating well and playing normally.",
        "The owner gives her a joint supplement with fish oil.",
        "Start her on the new food twice daily.",
        "Give two tablets of the chews twice daily.",
    ])
    func noDrugOfTheLexiconNoMedication(_ said: String) throws {
        #expect(try note(said).medications.isEmpty)
    }

    @Test(arguments: [
        ("We will not start carprofen today.", "will not"),
        ("No more Rimadyl.", "no"),
        ("Stop the meloxicam.", "stop"),
        ("She is allergic to amoxicillin.", "allergic to"),
        ("The owner declined the Convenia injection.", "declined"),
    ])
    func aNegatedDrugIsFlaggedNotListed(_ said: String, _ negation: String) throws {
        let drafted = try note(said)
        #expect(drafted.medications.isEmpty)
        #expect(drafted.flags.map(\.kind) == ["medication_negated"])
        #expect(drafted.flags.first?.message.contains("\"\(negation)\"") == true)
    }

    @Test func aNegationAboutSomethingElseLeavesTheDrug() throws {
        let drafted = try note(
            "No vomiting, no diarrhea.", "She is not eating so give maropitant 16 milligrams once daily.")
        #expect(drafted.medications.map(\.name) == ["maropitant"])
        #expect(drafted.flags.isEmpty)
    }

    @Test func noVomitingIsNotAComplaintOrAFinding() throws {
        let drafted = try note("No vomiting or diarrhea at home.", "Heart and lungs sound normal.")
        #expect(drafted.medications.isEmpty && drafted.vitals.isEmpty && drafted.followUp == nil)
        #expect(drafted.flags.isEmpty)
    }

    @Test func twoDrugsInOneSentenceEachKeepTheirDose() throws {
        let meds = try note("Start doxycycline 100 milligrams twice daily and Cerenia 24 milligrams once daily.").medications
        #expect(meds.map(\.name) == ["doxycycline", "maropitant"])
        #expect(meds.map(\.dose) == [100, 24])
        #expect(meds.map(\.frequency) == ["twice daily", "once daily"])
    }

    @Test(arguments: [
        ("Weight 4.5 kilograms.", 4.5),
        ("Weight four point five kilograms.", 4.5),
        ("She weighs 4 point 5 kilograms.", 4.5),
        ("Weight is twenty two point three kilograms.", 22.3),
    ])
    func aDecimalWeightKeepsItsDecimals(_ said: String, _ kilograms: Double) throws {
        let weight = try #require(try note(said).vitals.weight)
        #expect(weight.value == kilograms && weight.unit == "kg")
    }

    @Test func aDecimalDoseKeepsItsDecimals() throws {
        let meds = try note("Clavamox sixty two point five milligrams twice daily.").medications
        #expect(meds.first?.dose == 62.5 && meds.first?.unit == "mg")
        let written = try note("Clavamox 62.5 milligrams twice daily.").medications
        #expect(written.first?.dose == 62.5)
    }

    @Test(arguments: [
        "Heart rate normal, lungs clear.",
        "Her weight is stable.",
        "Temperature is normal.",
        "Heart rate good, 2 milligrams of dexamethasone given.",
    ])
    func aVitalNeedsAMeasurementSaidAloud(_ said: String) throws {
        let vitals = try note(said).vitals
        #expect(vitals.heartRate == nil && vitals.weight == nil && vitals.temperature == nil)
    }

    @Test func aMisheardNextDrugLendsItsDoseToNoOne() throws {
        // Festival/espeak-ng recordings: amoxicillin heard as "Oh, mama, sisillin", Clavamox as "live on ox".
        let given = try note("We gave buprenorphine 0.1 milliliters today, and Oh, mama, sisillin 50 milligrams, twice daily.")
        #expect(given.medications.map(\.name) == ["buprenorphine"])
        #expect(given.medications.first?.dose == 0.1 && given.medications.first?.frequency == nil)
        let monthly = try note("Start Solensia once a month and live on ox 62.5 milligrams twice daily.")
        #expect(monthly.medications.first?.dose == nil && monthly.medications.first?.unit == nil)
        #expect(monthly.medications.first?.frequency == "once a month")
    }

    @Test func aDoseKeepsItsUnitAcrossAComma() throws {
        let meds = try note("Metacam one, milliliter once daily.").medications
        #expect(meds.first?.dose == 1 && meds.first?.unit == "ml")
    }

    @Test func aSpokenTensAndUnitsWrittenApartIsOneNumber() throws {
        // "sixty-two point five" as Whisper wrote it for Festival's voice.
        let meds = try note("Clavamox 60 2.5 mg twice daily.").medications
        #expect(meds.first?.dose == 62.5)
        // A range stays a range.
        #expect(try note("Carprofen 20 to 25 milligrams twice daily.").medications.first?.doseMax == 25)
    }

    @Test func aRangeThatRunsBackwardsIsFlaggedNotWritten() throws {
        let drafted = try note("Clavamox 60 to 0.5 mg twice daily.")
        #expect(drafted.medications.first?.dose == nil && drafted.medications.first?.frequency == "twice daily")
        #expect(drafted.flags.map(\.kind) == ["dose_unclear"])
    }

    @Test func aBareDailyAfterAMisheardWordIsNoFrequency() throws {
        // "twice daily" heard as "wise daily": not once daily.
        let misheard = try note("Start doxycycline 100 milligrams wise daily.")
        #expect(misheard.medications.first?.frequency == nil)
        #expect(misheard.flags.map(\.kind) == ["frequency_not_heard"])
        #expect(try note("Give famotidine 10 milligrams daily.").medications.first?.frequency == "once daily")
        // "once daily" written as "one daily" (flite slt): one a day either way.
        #expect(try note("Start enrofloxacin 68 milligrams one daily.").medications.first?.frequency == "once daily")
    }

    @Test func aDrugNameWithNothingSaidAboutItIsFlaggedNotListed() throws {
        // espeak-ng's "once daily" heard as "Unsailied", which the sound-alike pass made "Insulin".
        let drafted = try note("Start Galliprant 60 milligrams, Insulin.")
        #expect(drafted.medications.map(\.name) == ["grapiprant"])
        #expect(drafted.flags.map(\.kind).contains("medication_unclear"))
        // A verb of giving, a dose or a frequency is enough.
        #expect(try note("Give Bravecto.").medications.map(\.name) == ["fluralaner"])
        #expect(try note("Cerenia as needed.").medications.map(\.name) == ["maropitant"])
    }

    @Test func britishSpellingsOfUnitsAreTheSameUnits() throws {
        let note = try note("Weight 30 kilogrammes.", "Start meloxicam 1.5 milligrammes once daily.")
        #expect(note.vitals.weight?.value == 30 && note.vitals.weight?.unit == "kg")
        #expect(note.medications.first?.dose == 1.5 && note.medications.first?.unit == "mg")
    }

    /// The decoder's frequency slot chooses among these phrases (DoseFrequencySlot), so each must be one the note
    /// reads as a frequency, and no two may mean the same.
    @Test func everyFrequencyTheDecoderMayChooseIsOneTheNoteReads() throws {
        var meanings: [String] = []
        for phrase in DoseFrequencySlot.clinicalNote.frequencies {
            let frequency = try note("Start carprofen 75 milligrams \(phrase).").medications.first?.frequency
            #expect(frequency != nil, "\(phrase)")
            meanings.append(frequency ?? "")
        }
        #expect(Set(meanings).count == meanings.count, "\(meanings)")
    }

    /// "Four point five" is often written "for point 5": "for" right before "point" and digits is a four, because
    /// "for point" is no English; "to point" is ("down to point five milliliters"), so it stays.
    @Test(arguments: [
        ("Wait for point 5 kilograms.", 4.5),
        ("Weight for point five kilograms.", 4.5),
        ("Wait for a point two kilograms.", 4.2),
        ("Weight 4.5 kilograms.", 4.5),
        // Without the four, the digits after "point" are the decimals, never a whole number (it was 5 kg).
        ("Weight point 9 kilograms.", 0.9),
    ])
    func forPointBeforeAWeightIsFour(_ said: String, _ kilograms: Double) throws {
        let weight = try note(said).vitals.weight
        #expect(weight?.value == kilograms && weight?.unit == "kg", "\(String(describing: weight))")
    }

    /// The recogniser also writes "weight four point nine" as "wait for 0.9 kg": the zero is its own, and 0.9 kg is a
    /// real kitten, so the text cannot tell. The weight is not written; a flag sends the vet to the sentence.
    @Test(arguments: ["Wait for 0.9 kg.", "Weight for a 0.5 kilograms, bright and alert."])
    func aWeightUnderOneAfterForIsFlaggedNotWritten(_ said: String) throws {
        let note = try note("Peanut is here for a nail trim.", said)
        #expect(note.vitals.weight == nil, "\(String(describing: note.vitals.weight))")
        let flag = try #require(note.flags.first { $0.kind == "weight_unclear" }, "\(note.flags)")
        #expect(flag.message.contains("or 4."), "\(flag.message)")
        #expect(flag.sources.first?.start == 5, "the flag points at the sentence: \(flag.sources)")
    }

    @Test(arguments: [
        // A weight under one not after "for", and a "for" before a weight of one or more, are what was said.
        ("Weight 0.9 kg.", 0.9),
        ("Fed for a week on the new food, weight 0.8 kg.", 0.8),
        ("Weight for 4.9 kg.", 4.9),
    ])
    func aWeightNotOpenToAHiddenFourIsWritten(_ said: String, _ kilograms: Double) throws {
        let note = try note(said)
        #expect(note.vitals.weight?.value == kilograms, "\(String(describing: note.vitals.weight))")
        #expect(!note.flags.contains { $0.kind == "weight_unclear" }, "\(note.flags)")
    }

    @Test func anUnsureWeightIsNotFlaggedWhenAnotherWeightWasSaid() throws {
        let note = try note("Wait for 0.9 kg.", "Weight 4.9 kilograms on the scale.")
        #expect(note.vitals.weight?.value == 4.9)
        #expect(!note.flags.contains { $0.kind == "weight_unclear" }, "\(note.flags)")
    }

    /// A thermometer shows one decimal: "temperature 103.28" is "103.2 degrees" with the word run into the number.
    @Test func aTemperatureWithMoreDecimalsThanAThermometerShowsIsFlaggedNotWritten() throws {
        let note = try note("Oliver has an abscess.", "Temperature 103.28, 5.6 kg.")
        #expect(note.vitals.temperature == nil, "\(String(describing: note.vitals.temperature))")
        #expect(note.vitals.weight?.value == 5.6)
        let flag = try #require(note.flags.first { $0.kind == "temperature_unclear" }, "\(note.flags)")
        #expect(flag.message.contains("103.28") && flag.sources.first?.start == 5, "\(flag)")
        #expect(try self.note("She runs 39.25 degrees Celsius.").vitals.temperature == nil)
    }

    @Test(arguments: [("Temperature 103.2.", 103.2), ("Temp is 101 degrees.", 101), ("Temperature 38.55 C. Temperature 38.5 C.", 38.5)])
    func aTemperatureAThermometerCouldShowIsWritten(_ said: String, _ value: Double) throws {
        let note = try note(said)
        #expect(note.vitals.temperature?.value == value, "\(String(describing: note.vitals.temperature))")
        #expect(!note.flags.contains { $0.kind == "temperature_unclear" }, "\(note.flags)")
    }

    @Test func toPointBeforeADoseStaysAPointFive() throws {
        let meds = try note("Reduce the meloxicam to point 5 milliliters once daily.").medications
        #expect(meds.first?.dose == 0.5 && meds.first?.unit == "ml")
    }
}
