import Foundation

/// Drafts the clinical note of a transcript: the template's sections with every sentence tied to its
/// audio, the structured findings, and the flags a person must clear. Deterministic and offline.
public struct ClinicalNoteDrafter: Sendable {
    public let lexicon: MedicationLexicon

    public init(lexicon: MedicationLexicon = .bundled) { self.lexicon = lexicon }

    /// - Parameters:
    ///   - petWeightKg: the pet's recorded weight, used when the visit does not say one, to check doses.
    ///   - uncertainBelow: a segment whose average log-probability is below this is one the recogniser was unsure
    ///     of; a number in it is flagged (Whisper's own fallback threshold is −1.0).
    public func draft(
        _ segments: [TranscriptSegment], template: NoteTemplate, petWeightKg: Double? = nil,
        uncertainBelow: Double = -1.0
    ) -> ClinicalNote? {
        let sentences = TranscriptSentences.split(segments)
        guard !sentences.isEmpty else { return nil }
        let extractor = ClinicalExtractor(lexicon: lexicon)
        let names = lexicon.entries.flatMap(\.forms)
        let roles = SentenceRoles.roles(of: sentences.map(\.text)) { lower in
            names.contains { ClinicalText.wordRange(of: $0, in: lower) != nil }
        }
        var sections = template.sections.map { ClinicalNote.Section(key: $0.key, title: $0.title, sentences: []) }
        for (sentence, role) in zip(sentences, roles) {
            sections[template.sectionIndex(for: role)].sentences.append(.init(text: sentence.text, sources: sentence.sources))
        }
        let vitals = extractor.vitals(sentences)
        let medications = extractor.medications(sentences)
        let weightKg = vitals.weight.map { $0.unit == "kg" ? $0.value : $0.value * 0.453_592_37 } ?? petWeightKg
        var flags = Self.doseFlags(medications, weightKg: weightKg)
        flags += Self.frequenciesNotHeard(medications)
        flags += medications.compactMap { med in
            med.unclearAmount.map { words in
                .init(kind: "dose_unclear", message: "\(med.displayName): the amount \"\(words)\" could not be read; listen before approving",
                      sources: med.sources)
            }
        }
        flags += extractor.negatedMedicationFlags(sentences)
        flags += extractor.returnsWithoutTime(sentences)
        flags += extractor.unsureWeightFlags(sentences, vitals: vitals)
        flags += extractor.unsureTemperatureFlags(sentences, vitals: vitals)
        flags += Self.uncertainNumbers(segments, below: uncertainBelow)
        return ClinicalNote(
            template: template.key, templateVersion: template.version, sections: sections, vitals: vitals,
            medications: medications, followUp: extractor.followUp(sentences), flags: flags)
    }

    static func doseFlags(_ medications: [ClinicalNote.Medication], weightKg: Double?) -> [ClinicalNote.Flag] {
        var flags: [ClinicalNote.Flag] = []
        for med in medications {
            guard let dose = med.dose else { continue }
            guard let unit = med.unit else {
                flags.append(.init(
                    kind: "dose_without_unit",
                    message: "\(med.displayName): dose \(Self.format(dose)) has no unit (mg, ml, tablets?)", sources: med.sources))
                continue
            }
            for amount in [dose, med.doseMax].compactMap({ $0 }) {
                guard let perKg = DoseRanges.mgPerKg(dose: amount, unit: unit, weightKg: weightKg),
                    let usual = DoseRanges.farOutside(med.name, perKg: perKg)
                else { continue }
                let weightNote = unit == "mg/kg" ? "" : " for \(Self.format(weightKg ?? 0)) kg"
                flags.append(.init(
                    kind: "dose_out_of_range",
                    message: "\(med.displayName): \(Self.format(amount)) \(unit)\(weightNote) is \(Self.format(perKg)) mg/kg; "
                        + "the usual range is \(Self.format(usual.lowerBound))–\(Self.format(usual.upperBound)) mg/kg",
                    sources: med.sources))
                break
            }
        }
        return flags
    }

    /// A drug sent home with a dose but no frequency. Misheard frequencies are common ("twice a May", "were snaily"
    /// for "once daily"), and the words are too short and too alike to correct by sound here without risking "once"
    /// for "twice". The decoder corrects those the audio decides (DoseFrequencySlot); the rest are never guessed,
    /// and the reviewer is sent to the sentence instead.
    static func frequenciesNotHeard(_ medications: [ClinicalNote.Medication]) -> [ClinicalNote.Flag] {
        medications.compactMap { med in
            guard let dose = med.dose, med.frequency == nil, !med.givenInClinic else { return nil }
            let amount = [Self.format(dose), med.doseMax.map { "–" + Self.format($0) }, med.unit.map { " " + $0 }]
                .compactMap { $0 }.joined()
            return .init(
                kind: "frequency_not_heard",
                message: "\(med.displayName) \(amount): no frequency was heard (how often?); listen before approving",
                sources: med.sources)
        }
    }

    static func uncertainNumbers(_ segments: [TranscriptSegment], below threshold: Double) -> [ClinicalNote.Flag] {
        segments.compactMap { segment in
            guard let logProbability = segment.averageLogProbability, logProbability < threshold else { return nil }
            let normalized = ClinicalText.normalize(segment.text)
            guard let number = ClinicalText.firstMatch(#"\d+(?:\.\d+)?"#, in: normalized)?[0] else { return nil }
            return .init(
                kind: "uncertain_number",
                message: "The recogniser was unsure of \"\(segment.text.trimmingCharacters(in: .whitespaces))\" "
                    + "(\(number)); listen before approving",
                sources: [.init(start: segment.start, end: segment.end)])
        }
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
