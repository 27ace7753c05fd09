import Foundation
import Testing

@testable import Transcription

/// The place a drug must be: between a verb of giving and a dose, ordinary words that sound like exactly one drug
/// become that drug; anything less stays as heard.
@Suite("A drug heard as ordinary words where a dose follows")
struct DrugDoseSlotTests {
    let slot = DrugDoseSlot(drugNames: MedicationLexicon.bundled.entries.flatMap(\.forms))

    @Test(arguments: [
        ("Start car-proofing 75 milligrams twice daily.", "Start carprofen 75 milligrams twice daily."),
        ("Start It may look sick and 1.5 milligrams, once daily.", "Start It meloxicam 1.5 milligrams, once daily."),
        ("Give neuron to 100 milligrams by mouth.", "Give neurontin 100 milligrams by mouth."),
        ("We gave a convenient injection, 1.5 milliliters under the skin.",
         "We gave a convenia injection, 1.5 milliliters under the skin."),
        ("Send home clavomark 62.5 milligrams twice daily.", "Send home clavamox 62.5 milligrams twice daily."),
        ("Send home a park will 16 milligrams twice daily.", "Send home apoquel 16 milligrams twice daily."),
        ("Start toxic, cycline 100 milligrams twice daily.", "Start doxycycline 100 milligrams twice daily."),
    ])
    func aDrugHeardAsOrdinaryWordsBeforeADoseBecomesTheDrug(_ heard: String, _ written: String) {
        #expect(slot.correct(heard).text == written)
    }

    @Test(arguments: [
        // No verb of giving before the words: a weight, a volume of fluids, a count.
        "Weight 30 kilograms.",
        "She drank about 200 milliliters today.",
        // The slot holds a drug already.
        "Start carprofen 75 milligrams twice daily.",
        // Words that sound like no drug closely enough.
        "We gave fluids 200 milliliters under the skin.",
        "Give her 2 tablets with food.",
        "Start the new diet 2 cups twice daily.",
        // A sentence ends between the words and the dose.
        "Start slowly. 5 milligrams of it.",
        // Too far from the verb.
        "Start the dog on the big green bag 5 milligrams.",
    ])
    func wordsThatAreNotInADrugsPlaceStayAsHeard(_ heard: String) {
        #expect(slot.correct(heard).text == heard)
    }

    @Test(arguments: [
        // As close to cefovecin as to cephalexin.
        "Start, cefic, sin 500 milligrams twice daily.",
        // As close to antirobe as to Baytril.
        "Start natural 20 milligrams once daily.",
        // Closest to insulin by its letters, but it does not begin like it (it was prednisolone).
        "Start with nislone 5 milligrams once daily.",
        // "is selling" sounds like insulin, but it is the end of a longer unknown word (amoxicillin).
        "Send and Homeomox is selling 50 milligrams twice daily.",
    ])
    func aSlotThatSoundsLikeTwoDrugsOrBeginsUnlikeTheDrugStaysAsHeard(_ heard: String) {
        #expect(slot.correct(heard).text == heard)
    }

    @Test func twoDrugsAsCloseAreNotChosenBetween() {
        let pair = DrugDoseSlot(drugNames: ["tramadol", "trazodone"])
        #expect(pair.correct("Start tramadon 50 milligrams.").text == "Start tramadon 50 milligrams.")
    }

    @Test func theCorrectorRunsTheSlotPassAndReportsIt() {
        let corrector = VocabularyCorrector(terms: ["carprofen"], drugNames: ["carprofen"], ordinaryWords: ["car", "proofing", "start"])
        let (text, corrections) = corrector.correct("Start car proofing 75 milligrams.")
        #expect(text == "Start carprofen 75 milligrams.")
        #expect(corrections == [.init(heard: "car proofing", written: "carprofen")])
    }
}
