import Foundation

/// The words a clinic uses that a general speech model gets wrong: the drug names of `medications.txt` and the
/// veterinary terms of `veterinary_terms.txt` feed the corrector after decoding; `hotwords` (a practice's own short
/// list, none by default) prime the decoder.
///
/// Why the bundled terms are not hotwords: measured on the benchmark sentences with tiny.en, the drug-name prompt
/// alone gives WER 0.111, adding 40 generic veterinary terms as hotwords 0.140, adding 48 of them 0.246 (docs/scribe.md):
/// a long list of words that are not being said makes this small model write them.
public struct ClinicVocabulary: Sendable {
    public let terms: [String]
    public let hotwords: String

    public init(terms: [String], hotwords: String = "") {
        self.terms = terms
        self.hotwords = hotwords
    }

    /// This vocabulary with a practice's own terms: they become correction targets, and (being few and chosen by
    /// the practice for words its vets do say) the decoder's hotwords, cut at `hotwordLimit` characters because
    /// prompt and hotwords share Whisper's 224-token window.
    public func adding(practiceTerms: [String], hotwordLimit: Int = 300) -> ClinicVocabulary {
        guard !practiceTerms.isEmpty else { return self }
        var hotwords = self.hotwords
        for term in practiceTerms {
            let next = hotwords.isEmpty ? term : hotwords + ", " + term
            if next.count > hotwordLimit { break }
            hotwords = next
        }
        return ClinicVocabulary(terms: terms + practiceTerms, hotwords: hotwords)
    }

    /// One term per line; `#` starts a comment.
    public static func terms(inList text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let content = (line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                .trimmingCharacters(in: .whitespaces)
            return content.isEmpty ? nil : content
        }
    }

    /// Every spoken form of every bundled drug, then the bundled veterinary terms.
    public static let bundled: ClinicVocabulary = {
        let drugs = MedicationLexicon.bundled.entries.flatMap(\.spelledForms)
        let listed = TranscriptionResources.veterinaryTerms
            .flatMap { try? String(contentsOf: $0, encoding: .utf8) }
            .map(terms(inList:)) ?? []
        return ClinicVocabulary(terms: drugs + listed)
    }()

    /// The system's English word list (Debian `wamerican`), lowercased; nil when it is not installed, and then the
    /// corrector rewrites nothing.
    public static let ordinaryWords: Set<String>? = {
        for path in ["/usr/share/dict/words", "/usr/share/dict/american-english"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            var words = Set<String>()
            for line in text.split(whereSeparator: \.isNewline) {
                // "vet's" adds nothing over "vet": the corrector only looks at runs of letters.
                guard !line.contains("'") else { continue }
                words.insert(line.lowercased())
            }
            return words
        }
        return nil
    }()

    public func corrector() -> VocabularyCorrector {
        VocabularyCorrector(
            terms: terms, drugNames: MedicationLexicon.bundled.entries.flatMap(\.spelledForms), ordinaryWords: Self.ordinaryWords)
    }
}
