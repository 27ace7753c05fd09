import AppCore
import Foundation

/// The sections a visit's note is drafted into: SOAP by default; dental, surgery and recheck shipped;
/// each practice may keep its own versions (ADMIN, `PUT /practices/{id}/note-templates/{key}`). A note records the
/// key and version it was written with, and carries its section titles, so editing a template never changes an old
/// note.
public struct ClinicalNoteTemplate: Codable, Sendable, Equatable {
    /// What kinds of sentence a section collects; the drafter knows only these four.
    public static let roles = ["subjective", "objective", "assessment", "plan"]

    public struct Section: Codable, Sendable, Equatable {
        public var key: String
        public var title: String
        public var hint: String
        public var collects: [String]
    }

    public var key: String
    public var version: Int
    public var title: String
    public var sections: [Section]
}

public enum NoteTemplates {
    public static let keys = ["soap", "dental", "surgery", "recheck"]

    private static func section(_ key: String, _ title: String, _ hint: String, _ collects: [String])
        -> ClinicalNoteTemplate.Section
    {
        .init(key: key, title: title, hint: hint, collects: collects)
    }

    /// Version 1 of each key, what a practice has until an ADMIN edits it.
    public static let builtIn: [String: ClinicalNoteTemplate] = [
        "soap": .init(key: "soap", version: 1, title: "SOAP", sections: [
            section("subjective", "Subjective", "Why the pet came in, history, what the owner reports.", ["subjective"]),
            section("objective", "Objective", "Vitals and examination findings.", ["objective"]),
            section("assessment", "Assessment", "Diagnosis and differentials.", ["assessment"]),
            section("plan", "Plan", "Treatment, medications with dose and duration, follow-up.", ["plan"]),
        ]),
        "dental": .init(key: "dental", version: 1, title: "Dental", sections: [
            section("history", "History", "Eating, breath, pain, previous dental work.", ["subjective"]),
            section("oral_exam", "Oral examination", "Teeth charted, gingivitis, calculus grade, vitals.", ["objective"]),
            section("findings", "Findings", "Periodontal stage, teeth to extract.", ["assessment"]),
            section("home_care", "Procedure and home care", "Cleaning, extractions, pain relief, diet.", ["plan"]),
        ]),
        "surgery": .init(key: "surgery", version: 1, title: "Surgery", sections: [
            section("pre_op", "Pre-operative", "Indication, history, fasting, consent.", ["subjective"]),
            section("anaesthesia_exam", "Examination and anaesthesia", "Vitals, ASA status, drugs given.", ["objective"]),
            section("procedure", "Procedure", "What was done and found.", ["assessment"]),
            section("post_op", "Post-operative plan", "Pain relief, wound care, suture removal date.", ["plan"]),
        ]),
        "recheck": .init(key: "recheck", version: 1, title: "Recheck", sections: [
            section("progress", "Progress since last visit", "What the owner saw, doses given.", ["subjective"]),
            section("findings", "Findings today", "Vitals and examination compared with last time.",
                    ["objective", "assessment"]),
            section("plan", "Plan", "Continue, change or stop treatment; next recheck.", ["plan"]),
        ]),
    ]

    /// The template key for an appointment: by its type (`surgery`, `follow_up`), and dental by its title, because
    /// the contract's appointment types have no dental one ("Dental cleaning" is booked as a checkup). SOAP
    /// otherwise, and for a recording without an appointment.
    public static func key(forAppointmentType type: String?, title: String?) -> String {
        let title = title?.lowercased() ?? ""
        if title.contains("dental") || title.contains("teeth") || title.contains("dentistry") { return "dental" }
        switch type {
        case "surgery": return "surgery"
        case "follow_up": return "recheck"
        default: return "soap"
        }
    }
}
