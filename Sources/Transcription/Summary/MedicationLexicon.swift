import Foundation

/// The drug names the engines are primed with and the draft summary looks for (`Resources/medications.txt`).
public struct MedicationLexicon: Sendable {
    public struct Entry: Sendable, Equatable {
        /// The name the summary uses.
        public var name: String
        /// Every spoken form, the name first.
        public var forms: [String]
    }

    public let entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// Lines of `name | alias | alias`; `#` starts a comment.
    public init(text: String) {
        entries = text.split(whereSeparator: \.isNewline).compactMap { line in
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let forms = content.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty }
            guard let name = forms.first else { return nil }
            return Entry(name: name, forms: forms)
        }
    }

    /// The lexicon shipped with the module.
    public static let bundled: MedicationLexicon = {
        guard let url = TranscriptionResources.medicationLexicon, let text = try? String(contentsOf: url, encoding: .utf8)
        else { return MedicationLexicon(entries: []) }
        return MedicationLexicon(text: text)
    }()

    /// Whisper's initial prompt: context and spellings (the pet's name, the drug names), kept short because
    /// Whisper only reads the last 224 tokens of a prompt. The drug list comes first and a plain sentence last:
    /// a prompt that ended on the list made tiny.en go on listing drugs over the first words said
    /// ("metronidazalexin" for "Bella is here"; bench/results/2026-11-26-transcription-prompt.txt).
    public func prompt(petName: String?) -> String {
        var prompt = "Temperature in degrees Fahrenheit, weight in kilograms, heart rate in bpm. Medications: "
        prompt += entries.prefix(40).map(\.name).joined(separator: ", ") + ". Veterinary visit notes"
        if let petName, !petName.isEmpty { prompt += " for \(petName)" }
        return prompt + "."
    }
}
