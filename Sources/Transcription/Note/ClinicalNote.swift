import Foundation

/// The machine-drafted clinical note of one recording: the template's sections, each sentence with the
/// stretch of audio it came from, the structured findings read alongside, and what a person should look at before
/// approving. Stored as `metadata.clinical_note` (snake_case keys, like the rest of the contract); a draft until a
/// vet approves the visit's summary.
public struct ClinicalNote: Codable, Sendable, Equatable {
    /// Seconds on the recording's clock: a reviewer clicks a sentence and hears exactly this.
    public struct SourceSpan: Codable, Sendable, Equatable, Hashable {
        public var start: Double
        public var end: Double
    }

    public struct Sentence: Codable, Sendable, Equatable {
        public var text: String
        public var sources: [SourceSpan]
    }

    public struct Section: Codable, Sendable, Equatable {
        public var key: String
        public var title: String
        public var sentences: [Sentence]
    }

    /// A number with its unit as spoken ("ten to twelve kilos" is 10…12 kg).
    public struct Measurement: Codable, Sendable, Equatable {
        public var value: Double
        public var valueMax: Double?
        public var unit: String
        public var sources: [SourceSpan]

        enum CodingKeys: String, CodingKey { case value, valueMax = "value_max", unit, sources }
    }

    public struct Vitals: Codable, Sendable, Equatable {
        public var temperature: Measurement?
        public var weight: Measurement?
        public var heartRate: Measurement?
        public var respiratoryRate: Measurement?

        enum CodingKeys: String, CodingKey {
            case temperature, weight, heartRate = "heart_rate", respiratoryRate = "respiratory_rate"
        }
        public var isEmpty: Bool { temperature == nil && weight == nil && heartRate == nil && respiratoryRate == nil }
    }

    public struct Medication: Codable, Sendable, Equatable {
        /// The generic name, whatever was said: "oclacitinib" for "Apoquel".
        public var name: String
        /// The brand name when the vet said one ("Apoquel"), so the note shows both.
        public var brand: String?
        public var dose: Double?
        public var doseMax: Double?
        /// `mg`, `mg/kg`, `ml`, `mcg`, `g`, `units`, `tablet`, `capsule`, `drop`; nil when none was said.
        public var unit: String?
        /// `oral`, `subcutaneous`, `intramuscular`, `intravenous`, `topical`, `otic`, `ophthalmic`.
        public var route: String?
        /// Normalised: `once daily`, `twice daily`, `every 8 hours`, `every other day`, `as needed`…
        public var frequency: String?
        /// As said, normalised to digits: `7 days`, `2 weeks`.
        public var duration: String?
        public var sources: [SourceSpan]
        /// Given once, in the clinic ("gave", "administered", an injection route): no frequency is expected.
        /// Only decides a flag; not part of the note's JSON.
        var givenInClinic = false
        /// The words of an amount that could not be read ("60 to 0.5 mg"): flagged, and no dose is written.
        /// Only decides a flag; not part of the note's JSON.
        var unclearAmount: String?

        enum CodingKeys: String, CodingKey {
            case name, brand, dose, doseMax = "dose_max", unit, route, frequency, duration, sources
        }

        /// "oclacitinib (Apoquel)", or the generic name alone.
        public var displayName: String { brand.map { "\(name) (\($0))" } ?? name }
    }

    public struct FollowUp: Codable, Sendable, Equatable {
        /// Days after the visit (`in two weeks` → 14); nil when only a date was said.
        public var intervalDays: Int?
        /// `YYYY-MM-DD` when a date was said, else the visit day plus the interval (filled in by the server).
        public var date: String?
        /// `friday` when the vet named a day of the week ("see her again on Friday"): the next such day after the
        /// visit, which only the server can date.
        public var weekday: String?
        public var reason: String?
        public var text: String
        public var sources: [SourceSpan]

        enum CodingKeys: String, CodingKey { case intervalDays = "interval_days", date, weekday, reason, text, sources }
    }

    /// Something a person must look at before approving; never a silent correction.
    public struct Flag: Codable, Sendable, Equatable {
        /// `dose_without_unit`, `dose_out_of_range`, `dose_unclear`, `uncertain_number`, `frequency_not_heard`,
        /// `return_without_time`, `medication_negated`, `medication_unclear`, `weight_unclear`, `temperature_unclear`.
        public var kind: String
        public var message: String
        public var sources: [SourceSpan]
    }

    public var template: String
    public var templateVersion: Int
    public var sections: [Section]
    public var vitals: Vitals
    public var medications: [Medication]
    public var followUp: FollowUp?
    public var flags: [Flag]

    enum CodingKeys: String, CodingKey {
        case template, templateVersion = "template_version", sections, vitals, medications, followUp = "follow_up", flags
    }
}
