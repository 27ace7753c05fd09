import Foundation

/// The deterministic draft summary of a transcript (contract §5.1): no network, no model, the same text for the
/// same transcript. Lines, each only when something was found:
///
///     Complaint: <the sentence that states why the pet came in>
///     Vitals: temperature 102.5 °F; weight 12.4 kg; heart rate 110 bpm; respiratory rate 24 breaths/min
///     Medications: amoxicillin 250 mg twice daily; meloxicam
///     Follow-up: <the sentences that ask for a recheck>
///
/// A vet reviews it: the visit's `summary_status` stays `draft` until a PUT of `summary` approves it.
public struct SummaryDrafter: Sendable {
    public struct Vitals: Sendable, Equatable {
        public var temperature: String?
        public var weight: String?
        public var heartRate: String?
        public var respiratoryRate: String?
    }

    public struct Medication: Sendable, Equatable {
        public var name: String
        public var dose: String?
        public var frequency: String?
        public var text: String {
            [name, dose, frequency].compactMap { $0 }.joined(separator: " ")
        }
    }

    public struct Draft: Sendable, Equatable {
        public var complaint: String?
        public var vitals: Vitals
        public var medications: [Medication]
        public var followUp: [String]

        public var text: String {
            var lines: [String] = []
            if let complaint { lines.append("Complaint: \(complaint)") }
            let vitalParts = [
                vitals.temperature.map { "temperature \($0)" }, vitals.weight.map { "weight \($0)" },
                vitals.heartRate.map { "heart rate \($0)" }, vitals.respiratoryRate.map { "respiratory rate \($0)" },
            ].compactMap { $0 }
            if !vitalParts.isEmpty { lines.append("Vitals: " + vitalParts.joined(separator: "; ")) }
            if !medications.isEmpty { lines.append("Medications: " + medications.map(\.text).joined(separator: "; ")) }
            if !followUp.isEmpty { lines.append("Follow-up: " + followUp.joined(separator: " ")) }
            return lines.joined(separator: "\n")
        }
    }

    public let lexicon: MedicationLexicon

    public init(lexicon: MedicationLexicon = .bundled) { self.lexicon = lexicon }

    /// The summary text, or nil when the transcript is empty.
    public func summary(of transcript: String) -> String? {
        let draft = draft(of: transcript)
        let text = draft.text
        return text.isEmpty ? nil : String(text.prefix(10_000))
    }

    public func draft(of transcript: String) -> Draft {
        let normalized = SpokenNumbers.normalize(
            transcript.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces))
        let sentences = Self.sentences(normalized)
        return Draft(
            complaint: complaint(sentences), vitals: vitals(normalized), medications: medications(sentences),
            followUp: followUp(sentences))
    }

    // MARK: Sentences

    static func sentences(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        let chars = Array(text)
        for (i, c) in chars.enumerated() {
            current.append(c)
            if ".!?".contains(c), i + 1 == chars.count || chars[i + 1] == " " {
                let s = current.trimmingCharacters(in: .whitespaces)
                if !s.isEmpty { result.append(s) }
                current = ""
            }
        }
        let rest = current.trimmingCharacters(in: .whitespaces)
        if !rest.isEmpty { result.append(rest) }
        return result
    }

    static let complaintCues = [
        "presents with", "present with", "presented with", "presenting with", "presenting for", "chief complaint", "complaint",
        "came in for", "comes in for", "brought in for", "brought in because", "is here for", "here today for",
        "in today for", "owner reports", "owner says", "owner noticed", "has been", "concerned about", "because of",
        "history of", "reason for",
    ]

    func complaint(_ sentences: [String]) -> String? {
        for cue in Self.complaintCues {
            if let s = sentences.first(where: { $0.lowercased().contains(cue) }) {
                return Self.clauses(of: s, from: cue, stoppingAtOtherSections: true)
            }
        }
        return nil
    }

    static let sectionWords = [
        "temperature", "temp ", "weight", "weighs", "heart", "pulse", "respiratory", "respiration", "breathing rate",
        "start ", "give ", "prescribe", "recheck", "follow", "come back", "return",
    ]

    /// Engines often join sentences with commas: the clause holding `cue`, and the clauses after it up to the
    /// first one that belongs to another part of the summary (a number, a vital sign, a medication, a follow-up)
    /// when `stoppingAtOtherSections`, else to the end of the sentence. Ends with the sentence's punctuation.
    static func clauses(of sentence: String, from cue: String, stoppingAtOtherSections: Bool) -> String {
        let parts = sentence.components(separatedBy: ", ")
        guard parts.count > 1, let start = parts.firstIndex(where: { $0.lowercased().contains(cue) }) else {
            return sentence
        }
        var taken = [parts[start]]
        for part in parts[(start + 1)...] {
            let lower = part.lowercased()
            if stoppingAtOtherSections,
                lower.contains(where: \.isNumber) || sectionWords.contains(where: { lower.contains($0) })
            {
                break
            }
            taken.append(part)
        }
        var text = taken.joined(separator: ", ")
        text = text.prefix(1).uppercased() + text.dropFirst()
        if let last = text.last, !".!?".contains(last) { text += "." }
        return text
    }

    // MARK: Vitals

    static let number = #"(\d{1,4}(?:\.\d{1,2})?)"#

    func vitals(_ text: String) -> Vitals {
        var v = Vitals()
        let n = Self.number
        // Temperature: an explicit unit anywhere, or "temperature ... N degrees".
        if let m = Self.match(#"\#(n)\s*(?:°\s*|degrees?\s+|deg\s+)?(fahrenheit|celsius|centigrade|f|c)\b"#, in: text),
            let value = Double(m[1]), let unit = m[2].first
        {
            let isF = unit == "f"
            if (isF && (85...115).contains(value)) || (!isF && (30...45).contains(value)) {
                v.temperature = "\(m[1]) \(isF ? "°F" : "°C")"
            }
        }
        if v.temperature == nil,
            let m = Self.match(#"\b(?:temperature|temp)\b[^.!?]{0,40}?\#(n)\s*(?:°|degrees?)?"#, in: text),
            let value = Double(m[1])
        {
            if (85...115).contains(value) { v.temperature = "\(m[1]) °F" }
            if (30...45).contains(value) { v.temperature = "\(m[1]) °C" }
        }
        if let m = Self.match(#"\#(n)\s*(kg|kgs|kilograms?|kilos?|lbs?|pounds?)\b"#, in: text) {
            let unit = m[2].hasPrefix("k") ? "kg" : "lb"
            v.weight = "\(m[1]) \(unit)"
        }
        if let m = Self.match(#"\#(n)\s*(?:bpm|beats per minute|beats a minute|beats/min)"#, in: text),
            !Self.isRespiratory(text, before: m[1])
        {
            v.heartRate = "\(m[1]) bpm"
        } else if let m = Self.match(#"\b(?:heart rate|pulse|hr)\b[^.!?]{0,30}?\#(n)"#, in: text) {
            v.heartRate = "\(m[1]) bpm"
        }
        if let m = Self.match(
            #"\b(?:respiratory rate|respiration rate|respirations|respiration|resp rate|breathing rate|rr)\b[^.!?]{0,30}?\#(n)"#,
            in: text)
        {
            v.respiratoryRate = "\(m[1]) breaths/min"
        } else if let m = Self.match(#"\#(n)\s*(?:breaths per minute|breaths a minute|breaths/min)"#, in: text) {
            v.respiratoryRate = "\(m[1]) breaths/min"
        }
        return v
    }

    static func isRespiratory(_ text: String, before value: String) -> Bool {
        match(#"\b(?:respiratory rate|respirations?|breathing rate)\b[^.!?]{0,30}?\b\#(value)\s*(?:bpm|beats)"#, in: text)
            != nil
    }

    // MARK: Medications

    static let dose =
        #"(\d{1,5}(?:\.\d{1,3})?)\s*(mg/kg|milligrams? per kilogram|mg|milligrams?|mcg|micrograms?|ml|milliliters?|millilitres?|cc|g|grams?|units?|iu|tablets?|tabs?|capsules?|caps?|drops?)\b"#
    static let frequency =
        #"\b(once a day|once daily|twice a day|twice daily|(?:\d|three|four) times (?:a|per) day|every \d{1,2} hours|every (?:morning|evening|night|other day)|daily|bid|sid|tid|qid|q\d{1,2}h|as needed|at bedtime|with food)\b(?:\s+for\s+(\d{1,3}\s+(?:days?|weeks?|months?)))?"#

    func medications(_ sentences: [String]) -> [Medication] {
        var found: [Medication] = []
        var seen = Set<String>()
        for sentence in sentences {
            let lower = sentence.lowercased()
            var hits: [(name: String, range: Range<String.Index>)] = []
            for entry in lexicon.entries {
                for form in entry.forms {
                    if let r = Self.wordRange(of: form, in: lower) {
                        hits.append((entry.name, r))
                        break
                    }
                }
            }
            hits.sort { $0.range.lowerBound < $1.range.lowerBound }
            for (i, hit) in hits.enumerated() where !seen.contains(hit.name) {
                seen.insert(hit.name)
                // The dose and frequency are read from the words after the name, up to the next drug.
                let end = i + 1 < hits.count ? hits[i + 1].range.lowerBound : lower.endIndex
                let clause = String(lower[hit.range.upperBound..<end])
                var med = Medication(name: hit.name)
                if let m = Self.match(Self.dose, in: clause) { med.dose = "\(m[1]) \(Self.unitAbbreviation(m[2]))" }
                if let m = Self.match(Self.frequency, in: clause) {
                    med.frequency = Self.frequencyText(m[1]) + (m[2].isEmpty ? "" : " for \(m[2])")
                }
                found.append(med)
            }
        }
        return found
    }

    static func unitAbbreviation(_ unit: String) -> String {
        switch unit {
        case "mg/kg", "milligram per kilogram", "milligrams per kilogram": return "mg/kg"
        case "mg", "milligram", "milligrams": return "mg"
        case "mcg", "microgram", "micrograms": return "mcg"
        case "ml", "milliliter", "milliliters", "millilitre", "millilitres", "cc": return "ml"
        case "g", "gram", "grams": return "g"
        case "unit", "units", "iu": return "units"
        case "tablet", "tablets", "tab", "tabs": return "tablet(s)"
        case "capsule", "capsules", "cap", "caps": return "capsule(s)"
        default: return unit
        }
    }

    static func frequencyText(_ spoken: String) -> String {
        switch spoken {
        case "bid": return "twice daily"
        case "sid": return "once daily"
        case "tid": return "three times daily"
        case "qid": return "four times daily"
        case "twice a day": return "twice daily"
        case "once a day": return "once daily"
        default: return spoken
        }
    }

    // MARK: Follow-up

    static let followUpCues = [
        "recheck", "re-check", "follow up", "follow-up", "followup", "come back", "return in", "return for",
        "revisit", "schedule", "see her again", "see him again", "see them again", "next visit", "booster",
    ]

    func followUp(_ sentences: [String]) -> [String] {
        sentences.compactMap { s in
            let lower = s.lowercased()
            guard let cue = Self.followUpCues.first(where: { lower.contains($0) }) else { return nil }
            return Self.clauses(of: s, from: cue, stoppingAtOtherSections: false)
        }
    }

    // MARK: Helpers

    /// The first match's capture groups (index 0 = whole match), lowercased input; "" for groups that did not take part.
    static func match(_ pattern: String, in text: String) -> [String]? {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return nil }
        let lower = text.lowercased()
        let ns = lower as NSString
        guard let m = regex.firstMatch(in: lower, range: NSRange(location: 0, length: ns.length)) else { return nil }
        return (0..<m.numberOfRanges).map { i in
            let r = m.range(at: i)
            return r.location == NSNotFound ? "" : ns.substring(with: r)
        }
    }

    static func wordRange(of word: String, in text: String) -> Range<String.Index>? {
        var searchStart = text.startIndex
        while let r = text.range(of: word, range: searchStart..<text.endIndex) {
            let before = r.lowerBound == text.startIndex ? nil : text[text.index(before: r.lowerBound)]
            let after = r.upperBound == text.endIndex ? nil : text[r.upperBound]
            let isBoundary: (Character?) -> Bool = { c in c.map { !$0.isLetter && !$0.isNumber } ?? true }
            if isBoundary(before) && isBoundary(after) { return r }
            searchStart = r.upperBound
        }
        return nil
    }
}
