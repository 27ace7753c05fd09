import AppCore
import FluentKit
import FluentSQL
import Foundation
import SQLKit

/// The slot's visit and what its scope already stores (`VisitStore.reading`).
struct SlotReading: Sendable {
    let visit: Visit?
    let stored: JSONValue?
}

/// The statements of a recording slot. Its filter is written here once, for the slot's visit and for the owner's
/// consent already given in it.
extension VisitStore {
    /// The visit of the slot, if one was created.
    func visit(in slot: RecordingSlot) async throws -> Visit? {
        try await db.sql.raw("SELECT * FROM visits WHERE \(Self.condition(slot, wholeAppointment: false)) LIMIT 1")
            .first()?.decode(fluentModel: Visit.self)
    }

    /// What an initiate reads of its slot, in one statement: the slot's visit, and the first object stored under
    /// `metadataKey` in the slot's scope: any visit of the appointment (the owner's consent is asked once per
    /// appointment, whichever pet is recorded first), or the pet's day slot.
    func reading(_ slot: RecordingSlot, metadataKey: String) async throws -> SlotReading {
        let visits = try await db.sql.raw("""
            SELECT * FROM visits WHERE \(Self.condition(slot, wholeAppointment: true)) ORDER BY created_at, id
            """).all().map { try $0.decode(fluentModel: Visit.self) }
        let stored = visits.lazy.compactMap { visit -> JSONValue? in
            guard let value = visit.metadata[metadataKey], case .object = value else { return nil }
            return value
        }.first
        return SlotReading(visit: visits.first { $0.petID == slot.petID }, stored: stored)
    }

    private static func condition(_ slot: RecordingSlot, wholeAppointment: Bool) -> SQLQueryString {
        switch slot {
        case .appointment(let appointmentID, let petID):
            wholeAppointment
                ? "appointment_id = \(bind: appointmentID)"
                : "appointment_id = \(bind: appointmentID) AND pet_id = \(bind: petID)"
        case .day(let petID, let practiceID, let day):
            """
            pet_id = \(bind: petID) AND appointment_id IS NULL AND source = \(bind: VisitSource.recording.rawValue)
            AND practice_id = \(bind: practiceID) AND recording_day = \(bind: day.description)
            """
        }
    }
}

/// The writes of a recording slot: a new visit under the slot's unique index, a fresh URL for its upload.
extension VisitStore {
    /// A new recording slot: one `INSERT … ON CONFLICT DO NOTHING RETURNING id` under the slot's unique index;
    /// false when a concurrent request inserted the slot first.
    func insertRecordingSlot(
        id: UUID, petID: UUID, practiceID: UUID, appointmentID: UUID?, visitDate: Date, recordingDay: String?,
        key: String, metadata: [String: JSONValue], createdBy: UUID, now: Date
    ) async throws -> Bool {
        let rows = try await db.sql.raw("""
            INSERT INTO visits (id, pet_id, practice_id, appointment_id, source, state, visit_date, recording_day,
                full_text, storage_key, attempt, upload_method, upload_url_issued_at, metadata, created_by,
                created_at, updated_at)
            VALUES (\(bind: id), \(bind: petID), \(bind: practiceID), \(bind: appointmentID),
                'recording', 'new', \(bind: visitDate), \(bind: recordingDay), '', \(bind: key), 1, 'presigned_post',
                \(bind: now), \(try jsonValue(metadata)), \(bind: createdBy),
                \(bind: now), \(bind: now))
            ON CONFLICT DO NOTHING RETURNING id
            """).all()
        return !rows.isEmpty
    }

    /// A fresh upload URL for a pending slot (reissue), or for the next attempt of a replaced recording (`replace`
    /// also resets the transcript, the state and the attempt).
    func issueUpload(
        _ id: UUID, key: String, metadata: SQLQueryString, replacingAttempt attempt: Int?, now: Date
    ) async throws {
        if let attempt {
            try await db.sql.raw("""
                UPDATE visits SET state = 'new', attempt = \(bind: attempt), storage_key = \(bind: key),
                    audio_transcript_url = NULL, full_text = '', summary = NULL, upload_method = 'presigned_post',
                    upload_url_issued_at = \(bind: now), reserved_at = NULL, reconcile_after = NULL,
                    metadata = \(metadata), updated_at = \(bind: now)
                WHERE id = \(bind: id)
                """).run()
        } else {
            try await db.sql.raw("""
                UPDATE visits SET storage_key = \(bind: key), upload_method = 'presigned_post',
                    upload_url_issued_at = \(bind: now), reserved_at = NULL, reconcile_after = NULL,
                    metadata = \(metadata), updated_at = \(bind: now)
                WHERE id = \(bind: id)
                """).run()
        }
    }
}

/// Reads of visit rows inside write transactions.
extension VisitStore {
    /// The row as it is under the transaction's lock: `FOR UPDATE` on PostgreSQL; on SQLite the caller's
    /// `BEGIN IMMEDIATE` already holds the database's write lock.
    func lockedRow(_ id: UUID) async throws -> Visit? {
        let lock = db.engine == .postgres ? " FOR UPDATE" : ""
        guard let row = try await db.sql.raw("SELECT * FROM visits WHERE id = \(bind: id)\(unsafeRaw: lock)").first()
        else { return nil }
        return try row.decode(fluentModel: Visit.self)
    }

    /// The row as it is now: a plain read without a lock (inside a transaction, what that transaction sees).
    func currentRow(_ id: UUID) async throws -> Visit? {
        try await db.sql.raw("SELECT * FROM visits WHERE id = \(bind: id)").first()?.decode(fluentModel: Visit.self)
    }
}

extension VisitStore {
    /// A JSON object as an SQL value for the `metadata` column (`jsonb` on PostgreSQL, text on SQLite).
    func jsonValue(_ object: [String: JSONValue]) throws -> SQLQueryString {
        let text = String(decoding: try JSONCoding.encoder.encode(JSONValue.object(object)), as: UTF8.self)
        return db.engine == .postgres ? "\(bind: text)::jsonb" : "\(bind: text)"
    }
}
