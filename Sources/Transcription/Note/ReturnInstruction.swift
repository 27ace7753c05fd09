import Foundation

/// The follow-up of a note: only a spoken instruction to come back that says when ("recheck in two weeks", "come back
/// in five days if…", "schedule the dental next month", "see her again on Friday"). Why the pet came ("here for a
/// recheck"), what was done today ("the booster today") and a return with no time never become a follow-up: the
/// owner's discharge page would tell them to come back when nobody said so. A return the vet asked for without a
/// time goes to the flags instead, for the vet to date or drop.
///
/// Works on normalised sentences (numbers already digits: "in ten days" is "in 10 days").
enum ReturnInstruction {
    enum Finding: Equatable {
        case timed(intervalDays: Int?, date: String?, weekday: String?)
        /// A return was asked for, but no time was said ("recheck if it gets worse").
        case untimed
    }

    /// Words that ask the pet to come back. "booster", "schedule", "appointment", "check" only count with a time:
    /// alone they as often tell what was done today.
    static let returnCue =
        #"\b(?:re-?check|follow[- ]?up|followup|come back|comes back|coming back|back in|return|revisit|\w+ (?:her|him|them|it) again|see \w+ again|bring (?:her|him|them|it|\w+) (?:back|in)|schedule|book|next (?:visit|appointment|booster|vaccines?|dental|exam)|booster|due (?:for|in|back)|appointment|check(?: back| in)?)\b|\bre-?checkin'"#
    /// The return verbs that ask for a return even without a time (flagged, not guessed).
    static let strongReturnCue =
        #"\b(?:re-?check|follow[- ]?up|followup|come back|comes back|coming back|return|see (?:her|him|them|it|\w+) again|bring (?:her|him|them|it|\w+) back)\b|\bre-?checkin'"#
    /// Why the pet is here today: a clause that starts with it is the reason for the visit, not an instruction.
    static let reasonForVisit =
        #"(?:\b(?:here for|here today for|in today for|is in for|presents? for|presented for|presenting for|came in for|comes in for|brought in for|today for|last (?:visit|recheck|time))|(?:\bis|\bare|\bwas|'s) back for)\b[^,;]*"#
    /// Past returns ("rechecked", "came back last week") say what happened, not what is asked.
    static let pastReturn = #"\b(?:rechecked|followed up|came back|returned|was seen|ago)\b"#

    static let count = #"(\d{1,3}|a|an|one|a couple of|a couple|couple of|a few|few|several)"#
    static let unit = #"(day|week|month|year)s?"#

    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Clauses end at punctuation and at words that start a condition or a reason: "recheck if she vomits
    /// tomorrow" asks for no return tomorrow, and a time is only read in the clause of its return word.
    static let clauseBreak = #"[,;:]|\b(?:if|unless|but|because|since|when|although)\b"#

    /// The return said in a sentence, and the clause that says it (the follow-up's reason is read there only:
    /// Whisper joins sentences with commas, and "for milliliters under the skin" is no reason to come back).
    static func find(in sentence: String) -> (finding: Finding, clause: String)? {
        let lower = ClinicalText.replace(reasonForVisit, in: sentence.lowercased()) { _ in "" }
        var untimed: String?
        for clause in ClinicalText.split(lower, at: clauseBreak) {
            guard ClinicalText.firstMatch(returnCue, in: clause) != nil else { continue }
            if let time = time(in: clause) { return (time, clause) }
            if untimed == nil, ClinicalText.firstMatch(strongReturnCue, in: clause) != nil,
                ClinicalText.firstMatch(pastReturn, in: clause) == nil
            {
                untimed = clause
            }
        }
        return untimed.map { (.untimed, $0) }
    }

    /// The first time said in the clause: an interval ("in 2 weeks", "next month", "tomorrow", "2 weeks from now",
    /// "recheck 2 weeks"), a day of the week, or a date. A vague time ("in a few days", "soon") is no time.
    static func time(in lower: String) -> Finding? {
        let units = #"\#(count)\s*(?:(?:to|or|-)\s*(\d{1,3})\s*)?\#(unit)\b(?!\s+ago)"#
        let intervals = [
            // "in'": Whisper wrote "recheck in two weeks" as "recheckin' two weeks" once.
            #"(?:\b(?:in|within|after)|in')\s+(?:about |around |roughly |approximately |another |the next |just )?\#(units)"#,
            #"\b\#(units)\s+(?:from now|from today)"#,
            // Dictation shorthand: "recheck 2 weeks", "follow up 10 days".
            #"\b(?:re-?check|follow[- ]?up|come back|return)'?\s+\#(units)"#,
        ]
        var best: (position: Int, finding: Finding)?
        func consider(_ position: Int, _ finding: Finding) {
            if best == nil || position < best!.position { best = (position, finding) }
        }
        for pattern in intervals {
            for match in ClinicalText.matchesWithPositions(pattern, in: lower) {
                guard let days = days(count: match.groups[1], unit: match.groups[3]) else { continue }
                consider(match.position, .timed(intervalDays: days, date: nil, weekday: nil))
            }
        }
        for match in ClinicalText.matchesWithPositions(#"\bnext (week|month|year)s?\b"#, in: lower) {
            consider(match.position, .timed(intervalDays: days(count: "1", unit: match.groups[1]), date: nil, weekday: nil))
        }
        for match in ClinicalText.matchesWithPositions(#"\b(?:a fortnight|tomorrow)\b"#, in: lower) {
            let days = match.groups[0] == "tomorrow" ? 1 : 14
            consider(match.position, .timed(intervalDays: days, date: nil, weekday: nil))
        }
        for match in ClinicalText.matchesWithPositions(
            #"\b(?:on|next|this|by|until|before|coming)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"#, in: lower) {
            consider(match.position, .timed(intervalDays: nil, date: nil, weekday: match.groups[1]))
        }
        for match in ClinicalText.matchesWithPositions(#"\b(\d{4}-\d{2}-\d{2})\b"#, in: lower) {
            consider(match.position, .timed(intervalDays: nil, date: match.groups[1], weekday: nil))
        }
        return best?.finding
    }

    /// Days in "2 weeks" (the lower end of "2 to 3 weeks"); nil for a vague count ("a few").
    static func days(count: String, unit: String) -> Int? {
        let n: Int
        switch count {
        case "a", "an", "one": n = 1
        case "a couple of", "a couple", "couple of": n = 2
        default:
            guard let value = Int(count), value > 0 else { return nil }
            n = value
        }
        switch unit {
        case "week": return n * 7
        case "month": return n * 30
        case "year": return n * 365
        default: return n
        }
    }
}
