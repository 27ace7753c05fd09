import AppCore
import Foundation

/// What the owner takes home after a visit: from the APPROVED note only (`note` is nil when the vet approved a text
/// of their own instead of the drafted note), in plain language: what was
/// found, each medication with how and how long to give it, when to come back, what to watch for, and the vet's later
/// addenda. Deterministic: the same note gives the same words, so what a vet approved is what the owner reads.
package struct DischargeInstructions: Sendable, Equatable {
    package struct Medication: Sendable, Equatable {
        package var name: String
        /// "Give 250 mg by mouth twice a day for 10 days."
        package var instructions: String
    }

    package var petName: String
    package var practiceName: String
    package var visitDay: String
    package var approvedAt: String?
    package var found: [String]
    package var medications: [Medication]
    package var comeBack: String?
    package var watchFor: [String]
    package var addenda: [String]

    /// The whole text, as it prints.
    package var text: String {
        var lines = ["Discharge instructions for \(petName) — \(practiceName), \(visitDay)", ""]
        if !found.isEmpty { lines += ["What we found:"] + found.map { "  " + $0 } + [""] }
        if !medications.isEmpty {
            lines += ["Medications:"] + medications.map { "  \($0.name): \($0.instructions)" } + [""]
        }
        if let comeBack { lines += ["When to come back: " + comeBack, ""] }
        lines += ["What to watch for:"] + watchFor.map { "  " + $0 }
        if !addenda.isEmpty { lines += ["", "Later notes from your vet:"] + addenda.map { "  " + $0 } }
        return lines.joined(separator: "\n")
    }

    package init(note: StoredClinicalNote?, summary: String?, petName: String, practiceName: String, visitDate: Date,
         zone: TimeZone, approvedAt: String?, addenda: [String])
    {
        self.petName = petName
        self.practiceName = practiceName
        visitDay = LocalDay.day(containing: visitDate, in: zone).description
        self.approvedAt = approvedAt
        // From the approved note: its assessment, else its examination. A note approved as the vet's own text
        // (no structured note behind it) is that text, word for word.
        if let note {
            let assessment = note.text(ofSections: StoredClinicalNote.assessmentKeys)
                ?? note.text(ofSections: StoredClinicalNote.examinationKeys)
            found = assessment.map { [$0] } ?? []
        } else {
            found = summary.map { [$0] } ?? []
        }
        let meds = note?.medications ?? []
        medications = meds.map { Medication(name: $0.displayName, instructions: Self.instructions(for: $0)) }
        comeBack = note.flatMap { note in
            guard let followUp = note.followUp else { return nil }
            var text: String
            if let days = followUp.intervalDays {
                text = "in " + Self.interval(days)
            } else if let weekday = followUp.weekday {
                text = "on " + Self.capitalized(weekday)
            } else if followUp.date != nil {
                text = "on the date below"
            } else {
                text = "as your vet said"
            }
            if let day = note.followUpDay(visitDate: visitDate, zone: zone) { text += " (on or around \(day))" }
            if let reason = followUp.reason { text += " for \(reason)" }
            return text + "."
        }
        var watch = meds.compactMap { Self.watchFor[Self.drugClass($0.name) ?? ""] }
        watch.append("Call us if \(petName) stops eating for more than a day, seems in pain, has trouble breathing, "
            + "or gets worse instead of better.")
        var seen = Set<String>()
        watchFor = watch.filter { seen.insert($0).inserted }
        self.addenda = addenda
    }

    static func capitalized(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }

    static func instructions(for med: StoredClinicalNote.Medication) -> String {
        var words = ["Give"]
        words.append(StoredClinicalNote.amount(med.dose, med.doseMax, med.unit) ?? "the amount on the label")
        if let route = med.route, let phrase = routePhrase[route] { words.append(phrase) }
        if let frequency = med.frequency { words.append(frequencyPhrase[frequency] ?? frequency) }
        if let duration = med.duration { words.append("for \(duration)") }
        var sentence = words.joined(separator: " ") + "."
        if drugClass(med.name) == "antibiotic" { sentence += " Finish the whole course, even if your pet seems better." }
        return sentence
    }

    static func interval(_ days: Int) -> String {
        if days % 30 == 0 { return days == 30 ? "1 month" : "\(days / 30) months" }
        if days % 7 == 0 { return days == 7 ? "1 week" : "\(days / 7) weeks" }
        return days == 1 ? "1 day" : "\(days) days"
    }

    static let routePhrase = [
        "oral": "by mouth", "subcutaneous": "as an injection under the skin", "intramuscular": "as an injection",
        "intravenous": "into a vein", "topical": "on the skin", "otic": "in the ear", "ophthalmic": "in the eye",
    ]
    static let frequencyPhrase = [
        "once daily": "once a day", "twice daily": "twice a day (every 12 hours)",
        "three times daily": "three times a day (every 8 hours)", "four times daily": "four times a day",
        "once": "once",
    ]

    static func drugClass(_ name: String) -> String? {
        switch name {
        case "meloxicam", "carprofen", "robenacoxib", "grapiprant", "firocoxib", "deracoxib": "nsaid"
        case "amoxicillin", "amoxicillin-clavulanate", "cephalexin", "cefpodoxime", "clindamycin", "doxycycline",
            "enrofloxacin", "metronidazole", "marbofloxacin", "azithromycin", "cefovecin":
            "antibiotic"
        case "prednisolone", "prednisone", "dexamethasone": "steroid"
        case "gabapentin", "trazodone", "tramadol", "buprenorphine", "acepromazine": "sedating"
        default: nil
        }
    }

    static let watchFor = [
        "nsaid": "Pain relievers like these can upset the stomach: stop and call us if you see vomiting, diarrhoea, "
            + "black or tarry stools, or loss of appetite. Never give human pain medicine.",
        "antibiotic": "Antibiotics can cause soft stools or vomiting; call us if it lasts more than a day.",
        "steroid": "Steroids make pets drink, urinate and eat more; do not stop them suddenly unless we say so.",
        "sedating": "This medicine can make your pet sleepy or wobbly; keep them away from stairs until it wears off.",
    ]
}
