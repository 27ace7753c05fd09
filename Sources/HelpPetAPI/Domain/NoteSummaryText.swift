import Foundation

/// The API's `summary` of a transcribed visit, written from its clinical note: the note's own sentences and fields,
/// never a second reading of the transcript. So the summary the app shows and a `PUT` approves, the console's note
/// and the owner's discharge page cannot disagree, and the summary holds nothing the note (and so the recording)
/// does not. One line per section that has sentences, then the structured fields, each only when present:
///
///     Subjective: Bella presents with vomiting since yesterday.
///     Vitals: temperature 103 °F; weight 12 kg
///     Medications: amoxicillin 250 mg twice daily for 10 days
///     Follow-up: Recheck in two weeks.
package enum NoteSummaryText {
    static let maxLength = 10_000

    /// The summary of a note given as its JSON (`server transcribe` prints it beside the note).
    package static func render(noteJSON: Data) -> String? {
        (try? JSONDecoder().decode(StoredClinicalNote.self, from: noteJSON)).flatMap(render)
    }

    package static func render(_ note: StoredClinicalNote) -> String? {
        var lines: [String] = []
        for section in note.sections ?? [] where !section.sentences.isEmpty {
            lines.append("\(section.title): " + section.sentences.map(\.text).joined(separator: " "))
        }
        if let vitals = note.vitals {
            let parts = [
                ("temperature", vitals.temperature), ("weight", vitals.weight), ("heart rate", vitals.heartRate),
                ("respiratory rate", vitals.respiratoryRate),
            ].compactMap { name, measurement in
                measurement.flatMap { StoredClinicalNote.amount($0.value, $0.valueMax, $0.unit) }.map { "\(name) \($0)" }
            }
            if !parts.isEmpty { lines.append("Vitals: " + parts.joined(separator: "; ")) }
        }
        let medications = (note.medications ?? []).map { medication in
            [medication.displayName, StoredClinicalNote.amount(medication.dose, medication.doseMax, medication.unit),
             medication.frequency, medication.duration.map { "for \($0)" }].compactMap { $0 }.joined(separator: " ")
        }
        if !medications.isEmpty { lines.append("Medications: " + medications.joined(separator: "; ")) }
        if let followUp = note.followUp?.text, !followUp.isEmpty { lines.append("Follow-up: " + followUp) }
        let text = lines.joined(separator: "\n")
        return text.isEmpty ? nil : String(text.prefix(maxLength))
    }
}
