import Foundation

/// The drug names the engines are primed with and the draft summary looks for (`Resources/medications.txt`).
public struct MedicationLexicon: Sendable {
    public struct Entry: Sendable, Equatable {
        /// The generic name the note uses: the first form written in lower case.
        public var name: String
        /// Every spoken form, lowercased, the line's first form first.
        public var forms: [String]
        /// Brand names as spelled (a form written with a capital letter): "Apoquel" for oclacitinib.
        public var brands: [String] = []
        /// The line's first form as written: what the decoder's prompt lists (lowercased there, as the prompt
        /// was measured: bench/results/2026-11-26-transcription-prompt.txt).
        public var promptName: String

        public init(name: String, forms: [String], brands: [String] = [], promptName: String? = nil) {
            self.name = name
            self.forms = forms
            self.brands = brands
            self.promptName = promptName ?? forms.first ?? name
        }

        /// Every form as it is spelled: brands with their capitals, the rest lower case.
        public var spelledForms: [String] { forms.map { brand(saidAs: $0) ?? $0 } }

        /// The brand's own spelling when `form` (lowercased, as found in a sentence) is a brand name.
        public func brand(saidAs form: String) -> String? {
            brands.first { $0.lowercased() == form }
        }
    }

    public let entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// Lines of `form | form | …`; `#` starts a comment. A form with a capital first letter is a brand name; the
    /// first lower-case form is the generic name (a line of brands only is named by its first brand, lowercased).
    public init(text: String) {
        entries = text.split(whereSeparator: \.isNewline).compactMap { line in
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let written = content.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            guard let first = written.first else { return nil }
            let isBrand = { (form: String) in form.first?.isUppercase == true }
            let name = (written.first { !isBrand($0) } ?? first).lowercased()
            return Entry(
                name: name, forms: written.map { $0.lowercased() }, brands: written.filter(isBrand), promptName: first)
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
        prompt += entries.prefix(40).map { $0.promptName.lowercased() }.joined(separator: ", ") + ". Veterinary visit notes"
        if let petName, !petName.isEmpty { prompt += " for \(petName)" }
        return prompt + "."
    }
}
