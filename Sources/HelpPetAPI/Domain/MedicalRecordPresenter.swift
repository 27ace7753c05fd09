import AppCore
import Foundation

/// Builds a medical record's representation: `is_follow_up_due` and `days_since_visit` count days in the zone of the
/// record's practice (MedicalRecordStore loads the zones of many records at once).
enum MedicalRecordPresenter {
    static func response(for record: MedicalRecord, zone: TimeZone, now: Date) -> MedicalRecordResponse {
        MedicalRecordResponse(record, today: LocalDay.day(containing: now, in: zone), zone: zone)
    }

    static func response(for record: MedicalRecord, in practice: Practice, now: Date) -> MedicalRecordResponse {
        response(for: record, zone: practice.timeZone, now: now)
    }
}
