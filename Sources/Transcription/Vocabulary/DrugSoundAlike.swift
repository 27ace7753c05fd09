import Foundation

/// The corrector's second pass, for drug names only: what the recogniser wrote for a drug it did not know often
/// *sounds* like it but is spelled far from it, or is cut into two or three words ("my loxacom", "meloxic and",
/// "moxacillin" for meloxicam and amoxicillin). Words are compared by a sound key (consonants normalised, every
/// vowel alike, doubles collapsed), over one to three neighbouring words.
///
/// Timid like the first pass: a span is only rewritten when it holds a word that is not ordinary English, when its
/// key is within a small distance of exactly one drug's key, and never across punctuation.
struct DrugSoundAlike: Sendable {
    /// Sound key → the drug's spelling.
    private let drugs: [String: String]
    private let ordinaryWords: Set<String>

    static let minimumKeyLength = 6
    static let maximumWords = 3

    init(drugNames: [String], ordinaryWords: Set<String>) {
        var drugs: [String: String] = [:]
        for name in drugNames where name.count >= Self.minimumKeyLength && name.allSatisfy(\.isLetter) {
            drugs[Self.key(name)] = drugs[Self.key(name)] ?? name.lowercased()
        }
        self.drugs = drugs
        self.ordinaryWords = ordinaryWords
    }

    /// Edits allowed between keys: 1 up to 9 sounds, then 2.
    static func allowedEdits(forKeyLength length: Int) -> Int { length <= 9 ? 1 : 2 }

    /// A word's sound key: "meloxicam" and "my loxacom" both give "malaksakam".
    static func key(_ text: String) -> String {
        let letters = Array(text.lowercased().filter { $0.isLetter && $0.isASCII })
        var out: [Character] = []
        var index = 0
        func next(_ offset: Int) -> Character? { index + offset < letters.count ? letters[index + offset] : nil }
        while index < letters.count {
            let c = letters[index]
            switch c {
            case "p" where next(1) == "h": out.append("f"); index += 1
            case "c" where next(1) == "k": out.append("k"); index += 1
            case "c": out.append(["e", "i", "y"].contains(next(1)) ? "s" : "k")
            case "q": out.append("k")
            case "x": out += ["k", "s"]
            case "z": out.append("s")
            case "h" where index > 0: break
            // A final e after a consonant is silent ("tramadone" sounds like "tramadon").
            case "e" where index == letters.count - 1 && index > 0 && !"aeiouy".contains(letters[index - 1]): break
            case "a", "e", "i", "o", "u", "y": out.append("a")
            default: out.append(c)
            }
            index += 1
        }
        var collapsed: [Character] = []
        for c in out where collapsed.last != c { collapsed.append(c) }
        return String(collapsed)
    }

    /// A word of the text and the separator that follows it.
    private struct Token {
        var word: String
        var separator: String
    }

    func correct(_ text: String) -> (text: String, corrections: [VocabularyCorrector.Correction]) {
        var tokens: [Token] = []
        var leading = ""
        var current: Token?
        for character in text {
            let inWord = current.map { !$0.word.isEmpty && $0.separator.isEmpty } ?? false
            if character.isLetter || (character == "'" && inWord) {
                if let token = current, !token.separator.isEmpty {
                    tokens.append(token)
                    current = Token(word: String(character), separator: "")
                } else if current == nil {
                    current = Token(word: String(character), separator: "")
                } else {
                    current!.word.append(character)
                }
            } else if current == nil {
                leading.append(character)
            } else {
                current!.separator.append(character)
            }
        }
        if let token = current { tokens.append(token) }

        var output = leading
        var corrections: [VocabularyCorrector.Correction] = []
        var index = 0
        while index < tokens.count {
            if let (count, drug) = match(at: index, in: tokens) {
                let heard = (index..<index + count).map { tokens[$0].word + ($0 < index + count - 1 ? tokens[$0].separator : "") }
                    .joined()
                let written = VocabularyCorrector.matchingCase(of: heard, drug)
                output += written + tokens[index + count - 1].separator
                let correction = VocabularyCorrector.Correction(heard: heard, written: written)
                if !corrections.contains(correction) { corrections.append(correction) }
                index += count
            } else {
                output += tokens[index].word + tokens[index].separator
                index += 1
            }
        }
        return (output, corrections)
    }

    /// The span starting at `start` (one to three words) whose key is closest to exactly one drug; the shorter
    /// span when two are as close ("on maxisillin" is "maxisillin").
    private func match(at start: Int, in tokens: [Token]) -> (count: Int, drug: String)? {
        var found: (count: Int, drug: String, distance: Int)?
        var letters = ""
        var hasUnusualWord = false
        for count in 1...Self.maximumWords where start + count - 1 < tokens.count {
            let token = tokens[start + count - 1]
            // Words join across spaces and hyphens only: never across a comma or a full stop.
            if count > 1, !tokens[start + count - 2].separator.allSatisfy({ $0 == " " || $0 == "-" }) { break }
            let lower = token.word.lowercased().filter(\.isLetter)
            if lower.isEmpty || drugs.values.contains(lower) { break }
            letters += lower
            // A non-word of three letters ("pre" of "pre-check") is too little to go on: it would make
            // "pre-check" Prozac.
            if lower.count >= 4 && !ordinaryWords.contains(lower) && !token.word.contains("'") { hasUnusualWord = true }
            guard hasUnusualWord else { continue }
            let key = Self.key(letters)
            guard key.count >= Self.minimumKeyLength, let (drug, distance) = closestDrug(to: key) else { continue }
            if found == nil || distance < found!.distance { found = (count, drug, distance) }
        }
        guard let found else { return nil }
        // A first word that adds nothing ("on" of "on maxisillin") is left out: the match starts at the next word.
        if found.count > 1 {
            let rest = (start + 1..<start + found.count).map { tokens[$0].word.lowercased().filter(\.isLetter) }.joined()
            let restKey = Self.key(rest)
            if restKey.count >= Self.minimumKeyLength, let alone = closestDrug(to: restKey), alone.distance <= found.distance {
                return nil
            }
        }
        return (found.count, found.drug)
    }

    func closestDrug(to key: String) -> (drug: String, distance: Int)? {
        let limit = Self.allowedEdits(forKeyLength: key.count)
        var best: (drug: String, distance: Int)?
        var tie = false
        let heard = Array(key)
        for (drugKey, drug) in drugs where abs(drugKey.count - key.count) <= limit {
            let distance = EditDistance.damerauLevenshtein(heard, Array(drugKey), limit: limit)
            guard distance <= limit else { continue }
            if let current = best, distance >= current.distance {
                if distance == current.distance && current.drug != drug { tie = true }
                continue
            }
            best = (drug, distance)
            tie = false
        }
        guard let best, !tie else { return nil }
        return best
    }
}
