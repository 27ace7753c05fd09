import Foundation

/// The corrector's third pass, for the place a drug name must be: between a verb of giving and a dose ("start ___ 75
/// milligrams", "send home ___ 62.5 milligrams", "we gave a ___ injection"). A recogniser that does not know the drug
/// writes ordinary English there ("start car-proofing 75 milligrams", "start It may look sick and 1.5 milligrams"),
/// which the first two passes leave alone because they never rewrite ordinary words.
///
/// Here the slot itself is the evidence that a drug was said, so ordinary words may be compared by sound
/// (`DrugSoundAlike.key`), but only:
/// - words that end right before the dose (a number and a dose unit) or before "injection";
/// - after a verb of giving, or "and" joining a second drug, with at most five words between;
/// - when no drug of the lexicon is already in the slot;
/// - when exactly one drug is closest, within a third of its sound key, with a key of five sounds or more.
/// Anything less stays as heard: a missing drug sends the vet to the sentence; a wrong one would be an invented fact.
struct DrugDoseSlot: Sendable {
    /// Sound key → the drug's spelling.
    private let drugs: [(key: String, name: String)]
    private let drugForms: Set<String>

    static let openers: Set<String> = [
        "start", "started", "starting", "give", "given", "giving", "gave", "send", "sending", "sent", "continue",
        "continuing", "begin", "prescribe", "prescribed", "prescribing", "administer", "administered", "inject",
        "injected", "add", "adding", "switch", "try", "use", "and", "plus", "also", "then",
    ]
    /// Words that may stand between the opener and the drug, and never begin a drug's name.
    static let fillers: Set<String> = [
        "a", "an", "the", "her", "his", "him", "it", "them", "some", "with", "on", "home", "of",
    ]
    static let doseUnits: Set<String> = [
        "mg", "milligram", "milligrams", "ml", "milliliter", "milliliters", "millilitre", "millilitres", "cc", "mcg",
        "microgram", "micrograms", "tablet", "tablets", "capsule", "capsules", "unit", "units", "drop", "drops",
    ]
    static let maximumWords = 5
    static let conjunctions: Set<String> = ["and", "plus", "also", "then"]
    static let minimumKeyLength = 5

    init(drugNames: [String]) {
        var seen = Set<String>()
        var drugs: [(key: String, name: String)] = []
        for name in drugNames where name.allSatisfy(\.isLetter) {
            let key = DrugSoundAlike.key(name)
            guard key.count >= Self.minimumKeyLength, seen.insert(key).inserted else { continue }
            drugs.append((key, name.lowercased()))
        }
        self.drugs = drugs
        drugForms = Set(drugNames.map { $0.lowercased() })
    }

    private struct Token {
        enum Kind { case word, number, other }
        var text: String
        var kind: Kind
        var lower: String { text.lowercased() }
    }

    func correct(_ text: String) -> (text: String, corrections: [VocabularyCorrector.Correction]) {
        var tokens = Self.tokens(text)
        var corrections: [VocabularyCorrector.Correction] = []
        var index = 0
        while index < tokens.count {
            defer { index += 1 }
            guard let slotEnd = anchor(at: index, in: tokens), let slot = slotWords(endingBefore: slotEnd, in: tokens),
                let (span, drug) = bestSpan(slot, in: tokens)
            else { continue }
            let heard = tokens[span.lowerBound..<span.upperBound].map(\.text).joined()
            let written = VocabularyCorrector.matchingCase(of: heard, drug)
            tokens.replaceSubrange(span, with: [Token(text: written, kind: .word)])
            let correction = VocabularyCorrector.Correction(heard: heard, written: written)
            if !corrections.contains(correction) { corrections.append(correction) }
            index = span.lowerBound
        }
        return (tokens.map(\.text).joined(), corrections)
    }

    /// Where a slot ends: a number followed by a dose unit, or the word "injection".
    private func anchor(at index: Int, in tokens: [Token]) -> Int? {
        let token = tokens[index]
        if token.kind == .word, ["injection", "injections"].contains(token.lower) { return index }
        guard token.kind == .number, let unit = nextWord(after: index, in: tokens), Self.doseUnits.contains(unit.lower)
        else { return nil }
        return index
    }

    private func nextWord(after index: Int, in tokens: [Token]) -> Token? {
        var next = index + 1
        while next < tokens.count, tokens[next].kind == .other, tokens[next].text.allSatisfy({ $0 == " " }) { next += 1 }
        return next < tokens.count && tokens[next].kind == .word ? tokens[next] : nil
    }

    /// The token indexes of the words between an opener and `end`, or nil when there is no opener within reach,
    /// a sentence ends, or a drug of the lexicon already fills the slot.
    private func slotWords(endingBefore end: Int, in tokens: [Token]) -> [Int]? {
        var words: [Int] = []
        var index = end - 1
        while index >= 0 {
            let token = tokens[index]
            switch token.kind {
            case .number: return nil
            case .other:
                // Spaces, hyphens and commas join the slot's words; a sentence's end or anything else closes it.
                guard token.text.allSatisfy({ $0 == " " || $0 == "-" || $0 == "," }) else { return nil }
            case .word:
                let lower = token.lower
                if drugForms.contains(lower) { return nil }
                if Self.openers.contains(lower) {
                    if !words.isEmpty { return words.reversed() }
                    // "…sick and 1.5 milligrams": a conjunction right before the dose is a heard piece of the name.
                    guard Self.conjunctions.contains(lower) else { return nil }
                }
                words.append(index)
                if words.count > Self.maximumWords { return nil }
            }
            index -= 1
        }
        return nil
    }

    /// The words ending at the slot's end, not starting on a filler, whose sound is closest to exactly one drug.
    private func bestSpan(_ words: [Int], in tokens: [Token]) -> (span: Range<Int>, drug: String)? {
        var best: (span: Range<Int>, drug: String, ratio: Double)?
        for start in words.indices {
            // Every word before the span must be a filler: a span cannot begin in the middle of what was heard
            // ("Homeomox is selling": "is selling" is not insulin, it is the end of amoxicillin).
            if start > 0, !Self.fillers.contains(tokens[words[start - 1]].lower) { break }
            let first = tokens[words[start]].lower
            // "a"/"an" may be a drug's first vowel heard as an article ("a park will" for Apoquel); the other
            // fillers never begin a drug's name.
            guard !Self.fillers.contains(first) || first == "a" || first == "an" else { continue }
            let letters = words[start...].map { tokens[$0].lower.filter(\.isLetter) }.joined()
            let key = DrugSoundAlike.key(letters)
            guard key.count >= Self.minimumKeyLength, let (drug, ratio) = closestDrug(to: key) else { continue }
            if best == nil || ratio < best!.ratio {
                best = (words[start]..<(words.last! + 1), drug, ratio)
            }
        }
        return best.map { ($0.span, $0.drug) }
    }

    /// The one drug whose key is within a third of its length of `key` (three sounds at most), with no other drug
    /// as close or one sound further.
    func closestDrug(to key: String) -> (drug: String, ratio: Double)? {
        let heard = Array(key)
        var near: [(drug: String, distance: Int, limit: Int, keyLength: Int)] = []
        for (drugKey, name) in drugs where Self.sameOnset(key, drugKey) {
            let limit = min(3, drugKey.count / 3)
            guard abs(drugKey.count - key.count) <= limit + 1 else { continue }
            let distance = EditDistance.damerauLevenshtein(heard, Array(drugKey), limit: limit + 1)
            if distance <= limit + 1 { near.append((name, distance, limit, drugKey.count)) }
        }
        guard let first = near.filter({ $0.distance <= $0.limit }).min(by: { $0.distance < $1.distance }) else {
            return nil
        }
        // Another drug as close is too near to choose between; so is one a sound further when already two off.
        let margin = first.distance >= 2 ? 1 : 0
        if near.contains(where: { $0.drug != first.drug && $0.distance <= first.distance + margin }) { return nil }
        return (first.drug, Double(first.distance) / Double(first.keyLength))
    }

    /// The first sounds agree, or differ only in voicing (t/d, p/b, k/g, f/v): "nislone" is never insulin, while
    /// "toxic cycline" may be doxycycline.
    static func sameOnset(_ heard: String, _ drug: String) -> Bool {
        guard let a = heard.first, let b = drug.first else { return false }
        if a == b { return true }
        let pairs: Set<String> = ["td", "dt", "pb", "bp", "kg", "gk", "fv", "vf"]
        return pairs.contains(String([a, b]))
    }

    private static func tokens(_ text: String) -> [Token] {
        let characters = Array(text)
        var tokens: [Token] = []
        var index = 0
        while index < characters.count {
            let start = index
            let character = characters[index]
            let kind: Token.Kind
            if character.isLetter || character == "'" {
                while index < characters.count, characters[index].isLetter || characters[index] == "'" { index += 1 }
                kind = .word
            } else if character.isNumber {
                while index < characters.count, characters[index].isNumber { index += 1 }
                // "62.5": a full stop between digits belongs to the number; otherwise it ends a sentence.
                if index + 1 < characters.count, characters[index] == ".", characters[index + 1].isNumber {
                    index += 1
                    while index < characters.count, characters[index].isNumber { index += 1 }
                }
                kind = .number
            } else {
                index += 1
                kind = .other
            }
            tokens.append(Token(text: String(characters[start..<index]), kind: kind))
        }
        return tokens
    }
}
