import Foundation

/// Which part of a note a sentence belongs to, read from the words vets use. The first matching rule wins: history
/// (what the owner saw, and why the pet came in) unless a plan verb is in it, then plan, assessment, objective; a sentence with no cue
/// continues the part before it, and the first sentence defaults to subjective.
enum SentenceRoles {
    /// Words that make a sentence today's plan, even in the middle of history ("the owner will give…").
    static let planVerbs = [
        "we will", "we'll", "start ", "starting ", "give ", "giving ", "prescrib", "continue", "recheck", "re-check",
        "follow up", "follow-up", "come back", "return in", "return for", "recommend", "schedule", "plan",
        "send home", "sent home", "go home", "discharged", "booster", "stop the", "stop giving", "apply ",
        "administer", "take home", "cone", "restrict",
    ]
    /// Why the pet came in: history, even when it names a plan word ("here for a recheck of her ears").
    static let reasonForVisit = [
        "here for", "here today for", "in today for", "presents for", "presented for", "came in for", "comes in for",
        "brought in for",
    ]
    static let planWords = ["twice daily", "once daily", " bid", " sid", " tid", "every "]
    static let assessment = [
        "assessment", "diagnos", "likely", "consistent with", "suspect", "probably", "rule out", "differential",
        "i think", "looks like", "appears to be", "my impression", "most likely", "secondary to", "due to",
        "prognosis", "resolved", "improving", "worse",
    ]
    static let history = [
        "owner", "history", "has been", "have been", "for the past", "reports", "noticed", "presents", "presented",
        "came in", "comes in", "brought in", "here for", "here today", "complaint", "concerned", "since yesterday",
        "since last", "at home",
    ]
    static let objective = [
        "temperature", "temp ", "weight", "weighs", "heart rate", "pulse", "respiratory", "respiration",
        "on exam", "exam ", "examination", "auscultat", "palpat", "mucous membrane", "lymph node", "body condition",
        "capillary refill", "heart sounds", "lungs", "abdomen", "murmur", "bpm", "°f", "°c", " kg", "dehydrat",
        "unremarkable", "within normal limits", "otoscop", "swab", "cytology", "blood work", "bloodwork",
        " ear", " eye", "skin", "teeth", "tooth", "gums", "coat", "canal", "swollen", "inflamed", "red ", "redness",
        "discharge", "lesion", "mass", "wound", "look ", "looks ", "normal",
    ]

    static func roles(of sentences: [String], medicationNames: (String) -> Bool) -> [NoteTemplate.Role] {
        var roles: [NoteTemplate.Role] = []
        for sentence in sentences {
            let lower = " " + sentence.lowercased()
            let plans = planVerbs.contains(where: lower.contains)
            let role: NoteTemplate.Role
            if reasonForVisit.contains(where: lower.contains) || history.contains(where: lower.contains) && !plans {
                // What the owner saw, even of the ears or the weight, is history.
                role = .subjective
            } else if plans || planWords.contains(where: lower.contains) || medicationNames(lower) {
                role = .plan
            } else if assessment.contains(where: lower.contains) {
                role = .assessment
            } else if objective.contains(where: lower.contains) {
                role = .objective
            } else {
                // A vet dictates one part at a time: a sentence without a cue continues the part before it.
                role = roles.last ?? .subjective
            }
            roles.append(role)
        }
        return roles
    }
}
