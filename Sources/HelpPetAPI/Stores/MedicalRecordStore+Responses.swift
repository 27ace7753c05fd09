import AppCore
import Fluent
import Foundation

extension MedicalRecordStore {
    /// Medical-record representations: `is_follow_up_due` and `days_since_visit` count days in the zone of the
    /// record's practice, so the zones of all practices involved are loaded in one query.
    func responses(for records: [MedicalRecord], now: Date) async throws
        -> [MedicalRecordResponse]
    {
        let practiceIDs = Array(Set(records.map(\.practiceID)))
        guard !practiceIDs.isEmpty else { return [] }
        let practices = try await Practice.query(on: db).filter(\.$id ~~ practiceIDs).all()
        let zones = Dictionary(uniqueKeysWithValues: practices.map { ($0.id!, $0.timeZone) })
        return records.map { record in
            MedicalRecordPresenter.response(for: record, zone: zones[record.practiceID] ?? TimeZone.utc, now: now)
        }
    }

    func response(for record: MedicalRecord, now: Date) async throws
        -> MedicalRecordResponse
    {
        try await responses(for: [record], now: now)[0]
    }
}
