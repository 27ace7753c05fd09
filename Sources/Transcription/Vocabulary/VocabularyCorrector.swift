import Foundation

/// Rewrites near-misses of clinic terms after decoding ("melecicam" → "meloxicam", "riskpiratory" → "respiratory").
///
/// It is deliberately timid, because a wrong rewrite of a clinical note is worse than a misspelling a vet can see:
/// only a word that is *not* an ordinary English word (the system word list) is ever touched, only when exactly one
/// term is closest, and only within a small edit distance that grows with the word's length and keeps the first
/// letter. Without a word list nothing is rewritten at all.
public struct VocabularyCorrector: Sendable {
    public struct Correction: Sendable, Equatable, Hashable {
        /// What the recogniser wrote.
        public var heard: String
        /// The term it became.
        public var written: String
    }

    /// Lowercased word → the term's own spelling (`dhpp` → `DHPP`).
    private let terms: [String: String]
    /// Terms by first letter, for the search.
    private let termsByInitial: [Character: [String]]
    private let ordinaryWords: Set<String>?
    /// The second pass over drug names (`DrugSoundAlike`); nil without a word list or drug names.
    private let soundAlike: DrugSoundAlike?
    /// Words glued onto a drug name ("starcarprofen"); nil without a word list or drug names.
    private let glued: GluedDrugNames?
    /// The place a drug must be ("start ___ 75 milligrams"), matched by sound; nil without drug names.
    private let doseSlot: DrugDoseSlot?

    /// `terms` may hold phrases; each of their words of 5 letters or more becomes a target. `drugNames` are also
    /// matched by sound, over up to three words.
    public init(terms: [String], drugNames: [String] = [], ordinaryWords: Set<String>?) {
        var spelled: [String: String] = [:]
        for term in terms {
            for word in term.split(whereSeparator: { !$0.isLetter }) where word.count >= Self.minimumLength {
                spelled[word.lowercased()] = spelled[word.lowercased()] ?? String(word)
            }
        }
        self.terms = spelled
        self.termsByInitial = Dictionary(grouping: spelled.keys) { $0.first! }
        self.ordinaryWords = ordinaryWords
        soundAlike = ordinaryWords.flatMap { drugNames.isEmpty ? nil : DrugSoundAlike(drugNames: drugNames, ordinaryWords: $0) }
        glued = ordinaryWords.flatMap { drugNames.isEmpty ? nil : GluedDrugNames(drugForms: drugNames, ordinaryWords: $0) }
        doseSlot = drugNames.isEmpty ? nil : DrugDoseSlot(drugNames: drugNames)
    }

    static let minimumLength = 5

    /// Edits allowed for a word of `length` letters: 1 up to 7 letters, 2 up to 11, then 3.
    static func allowedEdits(forLength length: Int) -> Int {
        length <= 7 ? 1 : length <= 11 ? 2 : 3
    }

    /// The text with every near-miss replaced, and what was replaced (each pair once, in order of appearance).
    public func correct(_ text: String) -> (text: String, corrections: [Correction]) {
        guard let ordinaryWords, !terms.isEmpty else { return (text, []) }
        var output = ""
        var corrections: [Correction] = []
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            if let written = replacement(for: word, ordinaryWords: ordinaryWords).map({ Self.matchingCase(of: word, $0) })
                ?? glued?.split(word)
            {
                output += written
                let correction = Correction(heard: word, written: written)
                if !corrections.contains(correction) { corrections.append(correction) }
            } else {
                output += word
            }
            word = ""
        }
        for character in text {
            if character.isLetter {
                word.append(character)
            } else {
                flush()
                output.append(character)
            }
        }
        flush()
        if let soundAlike {
            let (spoken, more) = soundAlike.correct(output)
            output = spoken
            for correction in more where !corrections.contains(correction) { corrections.append(correction) }
        }
        if let doseSlot {
            let (slotted, more) = doseSlot.correct(output)
            output = slotted
            for correction in more where !corrections.contains(correction) { corrections.append(correction) }
        }
        return (output, corrections)
    }

    /// The transcript's text and each segment's text corrected alike.
    public func correct(_ transcript: Transcript) -> (Transcript, [Correction]) {
        var corrected = transcript
        let (text, corrections) = correct(transcript.text)
        corrected.text = text
        corrected.segments = transcript.segments.map { segment in
            var segment = segment
            segment.text = correct(segment.text).text
            return segment
        }
        return (corrected, corrections)
    }

    private func replacement(for word: String, ordinaryWords: Set<String>) -> String? {
        let lower = word.lowercased()
        guard lower.count >= Self.minimumLength, terms[lower] == nil, !ordinaryWords.contains(lower),
            let initial = lower.first, let candidates = termsByInitial[initial]
        else { return nil }
        let limit = Self.allowedEdits(forLength: lower.count)
        var best: (term: String, distance: Int)?
        var tie = false
        let heard = Array(lower)
        for candidate in candidates where abs(candidate.count - heard.count) <= limit {
            let distance = EditDistance.damerauLevenshtein(heard, Array(candidate), limit: limit)
            guard distance <= limit else { continue }
            if let current = best {
                if distance < current.distance {
                    best = (candidate, distance)
                    tie = false
                } else if distance == current.distance {
                    tie = true
                }
            } else {
                best = (candidate, distance)
            }
        }
        guard let best, !tie else { return nil }
        return terms[best.term]
    }

    /// "Melecicam" at the start of a sentence becomes "Meloxicam"; a term with its own capitals (DHPP) keeps them.
    static func matchingCase(of heard: String, _ term: String) -> String {
        guard term == term.lowercased(), let first = heard.first, first.isUppercase else { return term }
        return term.prefix(1).uppercased() + term.dropFirst()
    }
}

/// Optimal string alignment distance (Damerau–Levenshtein with adjacent transpositions), cut off above `limit`.
enum EditDistance {
    static func damerauLevenshtein(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
