import AppCore
import Foundation

/// The clinical note as the worker stores it in `metadata.clinical_note` (Transcription's `ClinicalNote`, written
/// by the server's transcription plug), read back by the API for approval follow-ups and discharge instructions.
/// HelpPetAPI does not import Transcription (docs/architecture.md), so this is the reading side of that JSON: only the
/// fields the API uses, every one optional, so a note written by an older worker still reads.
package struct ClinicalNoteView: Decodable, Sendable {
    struct Sentence: Decodable, Sendable { var text: String }
    struct Section: Decodable, Sendable {
        var key: String
        var title: String
        var sentences: [Sentence]
    }
    struct Measurement: Decodable, Sendable {
        var value: Double
        var value_max: Double?
        var unit: String
    }
    struct Vitals: Decodable, Sendable {
        var temperature: Measurement?
        var weight: Measurement?
    }
    struct Medication: Decodable, Sendable {
        var name: String
        var dose: Double?
        var dose_max: Double?
        var unit: String?
        var route: String?
        var frequency: String?
        var duration: String?
    }
    struct FollowUp: Decodable, Sendable {
        var interval_days: Int?
        var date: String?
        var reason: String?
        var text: String?
    }

    var template: String?
    var template_version: Int?
    var sections: [Section]?
    var vitals: Vitals?
    var medications: [Medication]?
    var follow_up: FollowUp?

    init?(_ metadata: [String: JSONValue]) {
        guard let note = metadata["clinical_note"], case .object = note,
            let data = try? JSONEncoder().encode(note),
            let view = try? JSONDecoder().decode(ClinicalNoteView.self, from: data)
        else { return nil }
        self = view
    }

    /// The sentences of the sections that collect `roles`' kind of text, by the section keys the shipped templates
    /// use (a practice's renamed sections keep their keys unless an ADMIN changes them too).
    func text(ofSections keys: Set<String>) -> String? {
        let text = (sections ?? []).filter { keys.contains($0.key) }.flatMap(\.sentences).map(\.text)
            .joined(separator: " ")
        return text.isEmpty ? nil : text
    }

    static let assessmentKeys: Set<String> = ["assessment", "findings", "procedure"]
    static let planKeys: Set<String> = ["plan", "home_care", "post_op"]

    /// The calendar day the follow-up falls on: the date said, else the visit's day in the practice's zone plus the
    /// interval.
    func followUpDay(visitDate: Date, zone: TimeZone) -> CalendarDay? {
        guard let followUp = follow_up else { return nil }
        if let date = followUp.date, let day = CalendarDay(date) { return day }
        guard let days = followUp.interval_days, days > 0 else { return nil }
        return LocalDay.day(containing: visitDate, in: zone).adding(days: days)
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// "250 mg", "10–12 kg"-style amount, or nil.
    static func amount(_ value: Double?, _ max: Double?, _ unit: String?) -> String? {
        guard let value else { return nil }
        var text = format(value)
        if let max { text += "–" + format(max) }
        if let unit { text += " " + (unit == "tablet" ? (value == 1 && max == nil ? "tablet" : "tablets") : unit) }
        return text
    }
}
