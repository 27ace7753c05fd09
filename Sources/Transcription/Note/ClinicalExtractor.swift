import Foundation

/// Reads the structured findings out of a visit's sentences: vitals, medications (name, dose, unit, route,
/// frequency, duration) and the follow-up. Deterministic, offline, the same result for the same transcript.
struct ClinicalExtractor: Sendable {
    let lexicon: MedicationLexicon

    static let number = #"(\d{1,4}(?:\.\d{1,3})?)"#
    static let range = #"\#(number)(?:\s*(?:to|-|or)\s*\#(number))?"#

    // MARK: Vitals

    func vitals(_ sentences: [SourcedSentence]) -> ClinicalNote.Vitals {
        var vitals = ClinicalNote.Vitals()
        let n = Self.number
        for sentence in sentences {
            let text = sentence.text.lowercased()
            if vitals.temperature == nil, Self.overPreciseTemperature(text) == nil {
                if let m = ClinicalText.firstMatch(
                    #"\#(n)\s*(?:°\s*|degrees?\s+|deg\s+)?(fahrenheit|celsius|centigrade|f|c)\b"#, in: text),
                    let value = Double(m[1])
                {
                    let fahrenheit = m[2].hasPrefix("f")
                    if fahrenheit ? (85...115).contains(value) : (30...45).contains(value) {
                        vitals.temperature = .init(value: value, unit: fahrenheit ? "°F" : "°C", sources: sentence.sources)
                    }
                } else if let m = ClinicalText.firstMatch(#"\b(?:temperature|temp)\b[^.!?;]{0,30}?\#(n)"#, in: text),
                    let value = Double(m[1])
                {
                    if (85...115).contains(value) {
                        vitals.temperature = .init(value: value, unit: "°F", sources: sentence.sources)
                    } else if (30...45).contains(value) {
                        vitals.temperature = .init(value: value, unit: "°C", sources: sentence.sources)
                    }
                }
            }
            if vitals.weight == nil, let m = Self.weightMatch(in: text), let value = Double(m[1]),
                !Self.fourMayBeInFor(text, before: m[0], value: m[1])
            {
                vitals.weight = .init(
                    value: value, valueMax: Double(m[2]), unit: m[3].hasPrefix("k") ? "kg" : "lb",
                    sources: sentence.sources)
            }
            if vitals.heartRate == nil {
                let m = ClinicalText.firstMatch(#"\b(?:heart rate|pulse|hr)\b[^.!?,;]{0,20}?\#(n)\b(?!\s*(?:mg|ml|kg|kilo|pound|lb|milli|percent|%))"#, in: text)
                    ?? ClinicalText.firstMatch(#"\#(n)\s*(?:bpm|beats per minute|beats a minute)"#, in: text)
                        .flatMap { text.contains("respirat") || text.contains("breath") ? nil : $0 }
                if let m, let value = Double(m[1]), (20...350).contains(value) {
                    vitals.heartRate = .init(value: value, unit: "bpm", sources: sentence.sources)
                }
            }
            if vitals.respiratoryRate == nil {
                let m = ClinicalText.firstMatch(
                    #"\b(?:respiratory rate|respiration rate|respirations|respiration|resp rate|breathing rate|rr)\b[^.!?]{0,30}?\#(n)"#,
                    in: text)
                    ?? ClinicalText.firstMatch(#"\#(n)\s*(?:breaths per minute|breaths a minute|breaths/min)"#, in: text)
                if let m, let value = Double(m[1]), (4...200).contains(value) {
                    vitals.respiratoryRate = .init(value: value, unit: "breaths/min", sources: sentence.sources)
                }
            }
        }
        return vitals
    }

    /// A thermometer shows one decimal; "temperature 103.28" is a word run into the number ("103.2 degrees" heard
    /// as 103.28). Such a temperature is not written (`unsureTemperatureFlags` asks the vet).
    static func overPreciseTemperature(_ text: String) -> [String]? {
        ClinicalText.firstMatch(#"\b(?:temperature|temp)\b[^.!?;]{0,30}?\b(\d{2,3}\.\d{2,})\b"#, in: text)
            ?? ClinicalText.firstMatch(
                #"\b(\d{2,3}\.\d{2,})\s*(?:°\s*|degrees?\s+|deg\s+)?(?:fahrenheit|celsius|centigrade|f|c)\b"#, in: text)
    }

    /// A flag for a temperature left out by `overPreciseTemperature`, when no other temperature was said.
    func unsureTemperatureFlags(_ sentences: [SourcedSentence], vitals: ClinicalNote.Vitals) -> [ClinicalNote.Flag] {
        guard vitals.temperature == nil else { return [] }
        return sentences.compactMap { sentence in
            guard let m = Self.overPreciseTemperature(sentence.text.lowercased()) else { return nil }
            return .init(
                kind: "temperature_unclear",
                message: "Temperature heard as \(m[1]), more decimals than a thermometer shows: not written; "
                    + "listen before approving",
                sources: sentence.sources)
        }
    }

    /// The first "<amount> <kg or lb>" of a sentence that is not part of a dose (groups: 0 whole, 1 value, 2 the
    /// range's top, 3 unit).
    static func weightMatch(in text: String) -> [String]? {
        guard let m = ClinicalText.firstMatch(#"\#(range)\s*(kg|kgs|kilograms?|kilos?|lbs?|pounds?)\b"#, in: text),
            !isDoseContext(text, before: m[0])
        else { return nil }
        return m
    }

    /// "Weight four point nine kilograms" is heard as "wait for 0.9 kg": the four went into "for" and the point stayed.
    /// A weight under one after "for" may be either (a kitten weighs 0.9 kg), so it is not written; the vet is asked.
    static func fourMayBeInFor(_ text: String, before match: String, value: String) -> Bool {
        guard value.hasPrefix("0."), let range = text.range(of: match) else { return false }
        return ClinicalText.firstMatch(#"\bfor (?:a )?$"#, in: String(text[..<range.lowerBound])) != nil
    }

    /// A flag for each weight left out by `fourMayBeInFor`, when no other weight was said.
    func unsureWeightFlags(_ sentences: [SourcedSentence], vitals: ClinicalNote.Vitals) -> [ClinicalNote.Flag] {
        guard vitals.weight == nil else { return [] }
        return sentences.compactMap { sentence in
            let text = sentence.text.lowercased()
            guard let m = Self.weightMatch(in: text), Self.fourMayBeInFor(text, before: m[0], value: m[1]) else {
                return nil
            }
            let heard = m[0].trimmingCharacters(in: .whitespaces)
            return .init(
                kind: "weight_unclear",
                message: "Weight heard as \"for \(heard)\": \(heard) or 4\(m[1].dropFirst()) \(m[3])? Not written; "
                    + "listen before approving",
                sources: sentence.sources)
        }
    }

    /// "5 mg per kg" or "2 mg/kg" is a dose, not the pet's weight.
    static func isDoseContext(_ text: String, before match: String) -> Bool {
        guard let range = text.range(of: match) else { return false }
        let before = text[..<range.lowerBound].suffix(12)
        return before.contains("mg") || before.contains("per") || before.contains("/")
    }

    // MARK: Medications

    static let doseUnit =
        #"(mg/kg|mg per kg|milligrams? per kilogram|mg|milligrams?|mcg|micrograms?|ml|milliliters?|millilitres?|cc|grams?|g|units?|iu|tablets?|tabs?|pills?|capsules?|caps?|drops?)"#
    static let route =
        #"\b(by mouth|orally|oral|po|subcutaneous(?:ly)?|under the skin|sq|sc|subq|intramuscular(?:ly)?|im|intravenous(?:ly)?|iv|topical(?:ly)?|on the skin|in (?:the|each|both) ears?|otic|in (?:the|each|both) eyes?|ophthalmic)\b"#
    static let frequency =
        #"\b(once a day|once daily|twice a day|twice daily|(?:\d|three|four) times (?:a|per) day|every \d{1,2} hours|every other day|every (?:morning|evening|night)|once (?:a|per|every) (?:week|month)|weekly|monthly|every (?:\d{1,2} )?(?:weeks?|months?)|1 daily|daily|bid|sid|tid|qid|q\d{1,2}h|as needed|at bedtime|once)\b"#
    static let duration = #"\bfor (?:(\d{1,3})|a|an|one) (days?|weeks?|months?)\b"#
    /// Words that say a dose was given in the clinic, once, rather than sent home.
    static let givenInClinic = #"\b(gave|given|administered|injected|injection)\b"#
    static let injectionRoutes: Set<String> = ["subcutaneous", "intramuscular", "intravenous"]

    func medications(_ sentences: [SourcedSentence]) -> [ClinicalNote.Medication] {
        mentions(sentences).filter { !$0.negated }.map(\.medication)
    }

    /// A drug named after a negation or a stop ("no carprofen", "we will not start Apoquel", "stop the
    /// meloxicam") is not in the medications, and the vet is asked to look.
    func negatedMedicationFlags(_ sentences: [SourcedSentence]) -> [ClinicalNote.Flag] {
        let kept = Set(medications(sentences).map(\.name))
        return mentions(sentences).filter { $0.negated && !kept.contains($0.medication.name) }.map { mention in
            mention.unclear
                ? .init(
                    kind: "medication_unclear",
                    message: "\(mention.medication.displayName) was heard with no dose, frequency or verb of giving: "
                        + "not listed as a medication; listen before approving",
                    sources: mention.medication.sources)
                : .init(
                kind: "medication_negated",
                message: "\(mention.medication.displayName) was named with \"\(mention.negation)\": not listed as a medication; "
                    + "check before approving",
                sources: mention.medication.sources)
        }
    }

    struct Mention {
        var medication: ClinicalNote.Medication
        /// Not listed: negated, or `unclear`.
        var negated: Bool
        var negation: String
        var unclear = false
    }

    static func isBare(_ med: ClinicalNote.Medication) -> Bool {
        med.dose == nil && med.frequency == nil && med.route == nil && med.duration == nil && !med.givenInClinic
    }

    /// A verb of giving (or "on") among the few words before a drug's name, in its clause.
    static func isGiven(before text: String) -> Bool {
        let clause = text.split(omittingEmptySubsequences: false, whereSeparator: { ",;.!?".contains($0) }).last ?? ""
        let words = clause.split(separator: " ").suffix(4).joined(separator: " ")
        return ClinicalText.firstMatch(
            #"\b(?:give|giving|gave|given|start|started|starting|continue|continuing|send home|sending home|sent home|prescribe|prescribed|dispense|dispensed|apply|applying|administer|administered|on|use|using|try|trying|add|adding|switch to|restart|takes|taking)\b"#,
            in: words) != nil
    }

    /// Each drug named in the sentences, once (its first mention that is not negated, else its first one).
    func mentions(_ sentences: [SourcedSentence]) -> [Mention] {
        var found: [Mention] = []
        for sentence in sentences {
            let lower = sentence.text.lowercased()
            var hits: [(entry: MedicationLexicon.Entry, form: String, range: Range<String.Index>)] = []
            for entry in lexicon.entries {
                if let (form, range) = entry.forms.lazy.compactMap({ form in
                    ClinicalText.wordRange(of: form, in: lower).map { (form, $0) }
                }).first {
                    hits.append((entry, form, range))
                }
            }
            hits.sort { $0.range.lowerBound < $1.range.lowerBound }
            for (index, hit) in hits.enumerated() {
                // The words after the name, up to the next drug, describe this one; the route may come before it
                // ("give orally meloxicam"), so the words before the name count for the route too.
                let end = index + 1 < hits.count ? hits[index + 1].range.lowerBound : lower.endIndex
                let clause = String(lower[hit.range.upperBound..<end])
                let lead = String(lower[..<hit.range.lowerBound].suffix(30))
                var med = medication(hit.entry.name, clause: clause, lead: lead, sources: sentence.sources)
                med.brand = hit.entry.brand(saidAs: hit.form)
                let before = String(lower[..<hit.range.lowerBound])
                let negation = Self.negation(before: before)
                var mention = Mention(medication: med, negated: negation != nil, negation: negation ?? "")
                if negation == nil, Self.isBare(med), !Self.isGiven(before: before),
                    ClinicalText.firstMatch(#"^\W*(?:with|after|before) (?:food|a meal|meals)\b"#, in: clause) == nil
                {
                    // "60 milligrams, Insulin." (espeak-ng's "once daily", rewritten by sound): a drug name with
                    // nothing said about it and no verb of giving is not listed; the vet is asked.
                    mention.negated = true
                    mention.unclear = true
                }
                if let existing = found.firstIndex(where: { $0.medication.name == med.name }) {
                    if found[existing].negated && !mention.negated { found[existing] = mention }
                } else {
                    found.append(mention)
                }
            }
        }
        return found
    }

    /// Words that negate or stop a drug, and the words that may stand between them and the drug's name ("not
    /// start the", "no more", "stop giving her"). Any other word between ("not eating, give…", "no vomiting so
    /// start…") means the negation is about something else.
    static let negations =
        #"no|not|don't|do not|didn't|did not|won't|will not|never|without|stop|stopped|stopping|discontinue|discontinued|hold off on|hold|declined|instead of|allergic to|reaction to|avoid|off"#
    static let wordsBetween =
        #"start|starting|restart|give|giving|use|using|send|sending|home|need|needs|to|be|more|further|any|the|her|his|their|its|on|with|take|taking|continue|continuing|prescribe|going|the|her"#

    /// The negation right before a drug's name, or nil.
    static func negation(before text: String) -> String? {
        ClinicalText.firstMatch(#"\b(\#(negations))((?:\s+(?:\#(wordsBetween)))*)\s*$"#, in: text)?[1]
    }

    func medication(_ name: String, clause: String, lead: String, sources: [ClinicalNote.SourceSpan])
        -> ClinicalNote.Medication
    {
        var med = ClinicalNote.Medication(name: name, sources: sources)
        let clause = Self.ownWords(clause)
        if let m = ClinicalText.firstMatch(#"\#(Self.range),?\s*\#(Self.doseUnit)\b"#, in: clause) {
            med.dose = Double(m[1])
            med.doseMax = Double(m[2])
            med.unit = Self.unit(m[3])
        } else if let m = ClinicalText.firstMatch(#"\#(Self.range)\s*\#(Self.doseUnit)\s+(?:of\s+)?$"#, in: lead) {
            // Vets also say the amount first: "0.5 ml of maropitant".
            med.dose = Double(m[1])
            med.doseMax = Double(m[2])
            med.unit = Self.unit(m[3])
        } else if let m = ClinicalText.firstMatch(#"^\W*(?:\w+\W+){0,2}?\#(Self.number)\b(?!\s*(?:days?|weeks?|months?|hours?|times))"#, in: clause) {
            // A number right after the drug's name with no unit: kept, and flagged for a person to complete.
            med.dose = Double(m[1])
        }
        if let m = ClinicalText.firstMatch(Self.route, in: clause) ?? ClinicalText.firstMatch(Self.route, in: lead) {
            med.route = Self.route(m[1])
        }
        if let m = ClinicalText.firstMatch(Self.frequency, in: clause), Self.isHeardWhole(m[1], in: clause) {
            med.frequency = Self.frequency(m[1])
        }
        if let dose = med.dose, let doseMax = med.doseMax, doseMax <= dose {
            // "60 to 0.5 mg" (Whisper's "sixty-two point five"): a range that runs backwards was misheard; the
            // amount is left to the vet (flagged), not written.
            med.unclearAmount = clause.trimmingCharacters(in: .whitespaces)
            med.dose = nil
            med.doseMax = nil
            med.unit = nil
        }
        med.givenInClinic = med.route.map(Self.injectionRoutes.contains) == true
            || ClinicalText.firstMatch(Self.givenInClinic, in: lead + " " + clause) != nil
        if let m = ClinicalText.firstMatch(Self.duration, in: clause) {
            let count = m[1].isEmpty ? "1" : m[1]
            let unit = m[2].hasSuffix("s") ? String(m[2].dropLast()) : m[2]
            med.duration = "\(count) \(unit)\(count == "1" ? "" : "s")"
        }
        return med
    }

    /// The words after a drug that describe it: up to a second amount, or up to an amount said after its
    /// frequency. When the next drug's name was misheard ("…twice daily, and Oh, mama, sisillin 50 milligrams"),
    /// its dose and frequency would otherwise be read as this drug's.
    static func ownWords(_ clause: String) -> String {
        let amounts = ClinicalText.matchesWithPositions(#"\#(number),?\s*\#(doseUnit)\b"#, in: clause).map(\.position)
        let frequencies = ClinicalText.matchesWithPositions(frequency, in: clause).map(\.position)
        var end = (clause as NSString).length
        if amounts.count > 1 { end = min(end, amounts[1]) }
        if let firstFrequency = frequencies.first, let amountAfter = amounts.first(where: { $0 > firstFrequency }) {
            end = min(end, amountAfter)
        }
        return (clause as NSString).substring(to: end)
    }

    /// A bare "daily" counts only right after a dose, a unit, a route or "given": "wise daily" and "why stay
    /// early" are a misheard "twice daily", and reading them as once daily would put a wrong frequency in the note.
    static func isHeardWhole(_ frequency: String, in clause: String) -> Bool {
        guard frequency == "daily" else { return true }
        guard let before = ClinicalText.firstMatch(#"(\S+)\s+daily\b"#, in: clause)?[1] else { return true }
        let word = before.trimmingCharacters(in: .punctuationCharacters)
        return ClinicalText.firstMatch(#"^(?:\d+(?:\.\d+)?|\#(doseUnit)|by mouth|mouth|orally|given|give|it|them|once)$"#, in: word) != nil
    }

    static func unit(_ spoken: String) -> String {
        switch spoken {
        case "mg/kg", "mg per kg", "milligram per kilogram", "milligrams per kilogram": "mg/kg"
        case "mg", "milligram", "milligrams": "mg"
        case "mcg", "microgram", "micrograms": "mcg"
        case "ml", "milliliter", "milliliters", "millilitre", "millilitres", "cc": "ml"
        case "g", "gram", "grams": "g"
        case "unit", "units", "iu": "units"
        case "tablet", "tablets", "tab", "tabs", "pill", "pills": "tablet"
        case "capsule", "capsules", "cap", "caps": "capsule"
        default: "drop"
        }
    }

    static func route(_ spoken: String) -> String {
        switch spoken {
        case "by mouth", "orally", "oral", "po": "oral"
        case _ where spoken.hasPrefix("subcutaneous") || ["under the skin", "sq", "sc", "subq"].contains(spoken):
            "subcutaneous"
        case _ where spoken.hasPrefix("intramuscular") || spoken == "im": "intramuscular"
        case _ where spoken.hasPrefix("intravenous") || spoken == "iv": "intravenous"
        case _ where spoken.hasPrefix("topical") || spoken == "on the skin": "topical"
        case _ where spoken.contains("ear") || spoken == "otic": "otic"
        default: "ophthalmic"
        }
    }

    /// One spoken phrase for each frequency `frequency(_:)` knows, each with a different meaning: the candidates
    /// the decoder scores in a dose's frequency slot (DoseFrequencySlot), where two phrases of one meaning
    /// ("once daily", "once a day") would only split the audio's vote.
    static let spokenFrequencies = [
        "once daily", "twice daily", "three times a day", "four times a day", "every other day", "every 8 hours",
        "every 12 hours", "once a week", "once a month", "as needed",
    ]

    static func frequency(_ spoken: String) -> String {
        switch spoken {
        case "bid", "twice a day", "twice daily": "twice daily"
        // "one daily" (one a day) is also how "once daily" is often written by the recogniser.
        case "sid", "once a day", "once daily", "daily", "1 daily": "once daily"
        case "tid", "3 times a day", "three times a day", "3 times per day", "three times per day": "three times daily"
        case "qid", "4 times a day", "four times a day", "4 times per day", "four times per day": "four times daily"
        case "once": "once"
        case "once a month", "once per month", "once every month", "monthly", "every month": "once a month"
        case "once a week", "once per week", "once every week", "weekly", "every week": "once a week"
        case _ where spoken.hasPrefix("q") && spoken.hasSuffix("h"): "every \(spoken.dropFirst().dropLast()) hours"
        default: spoken
        }
    }

    // MARK: Follow-up

    /// The first spoken return instruction with a time (ReturnInstruction). Nothing else becomes a follow-up.
    func followUp(_ sentences: [SourcedSentence]) -> ClinicalNote.FollowUp? {
        for sentence in sentences {
            guard let (finding, clause) = ReturnInstruction.find(in: sentence.text),
                case .timed(let days, let date, let weekday) = finding
            else { continue }
            var followUp = ClinicalNote.FollowUp(text: sentence.text, sources: sentence.sources)
            followUp.intervalDays = days
            followUp.date = date
            followUp.weekday = weekday
            followUp.reason = Self.reason(clause)
            return followUp
        }
        return nil
    }

    /// A return asked for without a time, when no timed one was said: the vet dates it or drops it.
    func returnsWithoutTime(_ sentences: [SourcedSentence]) -> [ClinicalNote.Flag] {
        guard followUp(sentences) == nil else { return [] }
        return sentences.filter { ReturnInstruction.find(in: $0.text)?.finding == .untimed }.map { sentence in
            .init(
                kind: "return_without_time",
                message: "\"\(sentence.text)\" asks for a return but says no time; add one or leave the follow-up empty",
                sources: sentence.sources)
        }
    }

    /// What the return is for: "recheck in 2 weeks for her ears" → "her ears" less the article; "schedule the
    /// dental" → "dental".
    static func reason(_ lower: String) -> String? {
        let withoutTime = lower.replacingOccurrences(
            of: #"\b(?:in|within|after)\s+(?:about |around )?(\d{1,3}|a|an|one)\s+(?:days?|weeks?|months?|years?)"#,
            with: "", options: .regularExpression)
        if let m = ClinicalText.firstMatch(
            #"\b(?:for|to check|to recheck|to look at)\s+(?:a |an |the |her |his |its |their )?([a-z][a-z '-]{2,60}?)(?:[.,;!?]|\s+(?:if|next|on|in)\b|$)"#,
            in: withoutTime)
        {
            return m[1].trimmingCharacters(in: .whitespaces)
        }
        if let m = ClinicalText.firstMatch(#"\b(?:schedule|book)\s+(?:a |an |the |her |his |its |their )?([a-z][a-z-]{2,30})\b"#, in: withoutTime),
            !["her", "him", "them", "it", "a", "an", "the"].contains(m[1])
        {
            return m[1]
        }
        return nil
    }
}
