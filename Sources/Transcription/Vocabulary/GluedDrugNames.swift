import Foundation

/// Splits a word the recogniser glued onto a drug name: "startcarprofen", "starcarprofen" → "start carprofen",
/// "stardoxicycline" → "start doxycycline", "stardapocal" → "start Apoquel", and the other way round, "metacomone"
/// → "Metacam one". Whisper does this with a drug it does not know, and the drug was then lost from the note.
///
/// Never splits an ordinary word: the glued word must be missing from the word list (wamerican) and from the
/// lexicon. The head must be an ordinary word (at least three letters) or a short function word, and the tail a drug
/// name, spelled or by sound (DrugSoundAlike's key, its distances), nearer to exactly one drug than any other cut.
struct GluedDrugNames: Sendable {
    private let soundAlike: DrugSoundAlike
    private let ordinaryWords: Set<String>
    /// Lowercased drug form → its spelling in the lexicon ("apoquel" → "Apoquel").
    private let drugSpelling: [String: String]

    /// Verbs a vet says right before a drug. Glued to the drug they often lose their last sound to its first one
    /// ("start carprofen" heard as "starcarprofen", whose "star" is a word but not the one said).
    static let leadingVerbs = ["start", "starting", "continue", "prescribe", "dispense", "give", "add", "stop", "try"]
    static let functionWords: Set<String> = ["on", "of", "to", "an", "and", "no", "the", "her", "his", "some"]
    static let minimumTailLength = 5

    init(drugForms: [String], ordinaryWords: Set<String>) {
        var spelling: [String: String] = [:]
        for form in drugForms where form.allSatisfy(\.isLetter) {
            spelling[form.lowercased()] = spelling[form.lowercased()] ?? form
        }
        drugSpelling = spelling
        self.ordinaryWords = ordinaryWords
        soundAlike = DrugSoundAlike(drugNames: Array(spelling.keys), ordinaryWords: ordinaryWords)
    }

    /// "start carprofen" for "startcarprofen"; nil when the word is not a glued drug name.
    func split(_ word: String) -> String? {
        let lower = word.lowercased()
        guard lower.count >= 2 + Self.minimumTailLength, lower.allSatisfy(\.isLetter), !ordinaryWords.contains(lower),
            drugSpelling[lower] == nil
        else { return nil }
        // A word that itself sounds like a drug ("maxisillin") is a misspelling for the sound-alike pass, not two
        // words: "max" + "insulin" would be a guess against what was heard.
        let wholeKey = DrugSoundAlike.key(lower)
        if wholeKey.count >= DrugSoundAlike.minimumKeyLength, soundAlike.closestDrug(to: wholeKey) != nil { return nil }
        let letters = Array(lower)
        var best: (head: String, drug: String, distance: Int)?
        var tie = false
        for cut in 2...(letters.count - Self.minimumTailLength) {
            let head = String(letters[..<cut])
            guard let said = Self.headAsSaid(head, ordinaryWords: ordinaryWords) else { continue }
            let tail = String(letters[cut...])
            let match: (drug: String, distance: Int)?
            if drugSpelling[tail] != nil {
                match = (tail, 0)
            } else {
                let key = DrugSoundAlike.key(tail)
                match = key.count >= DrugSoundAlike.minimumKeyLength ? soundAlike.closestDrug(to: key) : nil
            }
            guard let match else { continue }
            if let current = best {
                if match.distance < current.distance {
                    best = (said, match.drug, match.distance)
                    tie = false
                } else if match.distance == current.distance && match.drug != current.drug {
                    tie = true
                }
            } else {
                best = (said, match.drug, match.distance)
            }
        }
        if let best, !tie, let drug = drugSpelling[best.drug] {
            return VocabularyCorrector.matchingCase(of: word, best.head) + " " + drug
        }
        return tie ? nil : drugThenWord(letters, word: word)
    }

    /// The other order: a drug with the next word glued on ("metacomone milliliter" is "Metacam one milliliter").
    /// The tail must be an ordinary word of three letters or more, and only one drug may fit the head.
    private func drugThenWord(_ letters: [Character], word: String) -> String? {
        var best: (drug: String, tail: String, distance: Int)?
        var tie = false
        for cut in stride(from: letters.count - 3, through: Self.minimumTailLength, by: -1) {
            let tail = String(letters[cut...])
            guard ordinaryWords.contains(tail) || Self.functionWords.contains(tail) else { continue }
            let head = String(letters[..<cut])
            let match: (drug: String, distance: Int)?
            if drugSpelling[head] != nil {
                match = (head, 0)
            } else {
                let key = DrugSoundAlike.key(head)
                match = key.count >= DrugSoundAlike.minimumKeyLength ? soundAlike.closestDrug(to: key) : nil
            }
            guard let match else { continue }
            if let current = best {
                if match.distance < current.distance {
                    best = (match.drug, tail, match.distance)
                    tie = false
                } else if match.distance == current.distance && match.drug != current.drug {
                    tie = true
                }
            } else {
                best = (match.drug, tail, match.distance)
            }
        }
        guard let best, !tie, let drug = drugSpelling[best.drug] else { return nil }
        let written = word.first?.isUppercase == true && drug == drug.lowercased()
            ? drug.prefix(1).uppercased() + drug.dropFirst() : drug
        return written + " " + best.tail
    }

    /// The word said before the drug: a leading verb, whole or short of its last letter ("star" is "start"), else
    /// an ordinary word of three letters or more, or a short function word.
    static func headAsSaid(_ head: String, ordinaryWords: Set<String>) -> String? {
        if let verb = leadingVerbs.first(where: { $0 == head || $0.dropLast() == head }) { return verb }
        if functionWords.contains(head) { return head }
        return head.count >= 3 && ordinaryWords.contains(head) ? head : nil
    }
}
