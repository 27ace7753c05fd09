import AppCore
import Fluent
import Foundation

/// Builds medical-record representations: `is_follow_up_due` and `days_since_visit` count days in the zone of the
/// record's practice, so the zones of all practices involved are loaded in one query.
enum MedicalRecordPresenter {
    static func responses(for records: [MedicalRecord], now: Date, on db: any Database) async throws
        -> [MedicalRecordResponse]
    {
        let practiceIDs = Array(Set(records.map(\.practiceID)))
        guard !practiceIDs.isEmpty else { return [] }
        let practices = try await Practice.query(on: db).filter(\.$id ~~ practiceIDs).all()
        let zones = Dictionary(uniqueKeysWithValues: practices.map { ($0.id!, $0.timeZone) })
        return records.map { record in
            let zone = zones[record.practiceID] ?? TimeZone.utc
            return MedicalRecordResponse(record, today: LocalDay.day(containing: now, in: zone), zone: zone)
        }
    }

    static func response(for record: MedicalRecord, now: Date, on db: any Database) async throws
        -> MedicalRecordResponse
    {
        try await responses(for: [record], now: now, on: db)[0]
    }

    static func response(for record: MedicalRecord, in practice: Practice, now: Date) -> MedicalRecordResponse {
        MedicalRecordResponse(record, today: LocalDay.day(containing: now, in: practice.timeZone), zone: practice.timeZone)
    }
}
