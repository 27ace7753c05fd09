import AppCore
import Foundation

/// The clinical note as the worker stores it in `metadata.clinical_note` (Transcription's `ClinicalNote`, written
/// by the server's transcription plug), read back by the API for approval follow-ups and discharge instructions.
/// HelpPetAPI does not import Transcription (docs/architecture.md), so this is the reading side of that JSON: only the
/// fields the API uses, every one optional, so a note written by an older worker still reads.
package struct StoredClinicalNote: Decodable, Sendable {
    /// A stretch of the recording, in seconds from its start.
    package struct SourceSpan: Decodable, Sendable {
        package var start: Double
        package var end: Double
    }
    package struct Sentence: Decodable, Sendable {
        package var text: String
        package var sources: [SourceSpan]?
    }
    package struct Section: Decodable, Sendable {
        package var key: String
        package var title: String
        package var sentences: [Sentence]
    }
    package struct Measurement: Decodable, Sendable {
        package var value: Double
        package var valueMax: Double?
        package var unit: String

        enum CodingKeys: String, CodingKey {
            case value
            case valueMax = "value_max"
            case unit
        }
    }
    package struct Vitals: Decodable, Sendable {
        package var temperature: Measurement?
        package var weight: Measurement?
        package var heartRate: Measurement?
        package var respiratoryRate: Measurement?

        enum CodingKeys: String, CodingKey {
            case temperature, weight
            case heartRate = "heart_rate"
            case respiratoryRate = "respiratory_rate"
        }
    }
    package struct Medication: Decodable, Sendable {
        package var name: String
        /// The brand said ("Apoquel" for oclacitinib), when one was.
        package var brand: String?
        package var dose: Double?
        package var doseMax: Double?
        package var unit: String?
        package var route: String?
        package var frequency: String?
        package var duration: String?
        package var sources: [SourceSpan]?

        enum CodingKeys: String, CodingKey {
            case name, brand, dose
            case doseMax = "dose_max"
            case unit, route, frequency, duration, sources
        }

        /// "Oclacitinib (Apoquel)": the generic name, and the brand the vet said beside it.
        package var displayName: String {
            let generic = name.prefix(1).uppercased() + name.dropFirst()
            return brand.map { "\(generic) (\($0))" } ?? generic
        }
    }
    package struct FollowUp: Decodable, Sendable {
        package var intervalDays: Int?
        package var date: String?
        /// "friday": the next such day after the visit.
        package var weekday: String?
        package var reason: String?
        package var text: String?

        enum CodingKeys: String, CodingKey {
            case intervalDays = "interval_days"
            case date, weekday, reason, text
        }
    }
    /// Something a person should look at before approving (a dose without a unit, far outside the usual range, or
    /// a number the recogniser was unsure of).
    package struct Flag: Decodable, Sendable {
        package var kind: String
        package var message: String
        package var sources: [SourceSpan]?
    }

    package var template: String?
    package var templateVersion: Int?
    package var sections: [Section]?
    package var vitals: Vitals?
    package var medications: [Medication]?
    package var followUp: FollowUp?
    package var flags: [Flag]?

    enum CodingKeys: String, CodingKey {
        case template
        case templateVersion = "template_version"
        case sections, vitals, medications
        case followUp = "follow_up"
        case flags
    }

    package init?(_ metadata: [String: JSONValue]) {
        guard let note = metadata["clinical_note"], case .object = note,
            let data = try? JSONEncoder().encode(note),
            let view = try? JSONDecoder().decode(StoredClinicalNote.self, from: data)
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
    static let examinationKeys: Set<String> = ["objective", "oral_exam", "anaesthesia_exam"]

    /// The calendar day the follow-up falls on: the date said, else the visit's day in the practice's zone plus the
    /// interval.
    func followUpDay(visitDate: Date, zone: TimeZone) -> CalendarDay? {
        guard let followUp = followUp else { return nil }
        if let date = followUp.date, let day = CalendarDay(date) { return day }
        let visitDay = LocalDay.day(containing: visitDate, in: zone)
        if let weekday = followUp.weekday, let target = Self.weekdays.firstIndex(of: weekday) {
            // Calendar weekdays count from Sunday = 1; the day named is the next one after the visit's day.
            let today = LocalDay.calendar(in: zone).component(.weekday, from: LocalDay.start(of: visitDay, in: zone)) - 1
            let ahead = (target - today + 7) % 7
            return visitDay.adding(days: ahead == 0 ? 7 : ahead)
        }
        guard let days = followUp.intervalDays, days > 0 else { return nil }
        return visitDay.adding(days: days)
    }

    static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    package static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// "250 mg", "10–12 kg"-style amount, or nil.
    package static func amount(_ value: Double?, _ max: Double?, _ unit: String?) -> String? {
        guard let value else { return nil }
        var text = format(value)
        if let max { text += "–" + format(max) }
        if let unit { text += " " + (unit == "tablet" ? (value == 1 && max == nil ? "tablet" : "tablets") : unit) }
        return text
    }
}
