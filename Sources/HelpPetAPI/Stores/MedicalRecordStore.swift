import AppCore
import Fluent
import Foundation
import PostgresNIO
import SQLKit

/// The SQL of the medical records aggregate that the read path needs.
struct MedicalRecordStore: Sendable {
    let db: any Database

    private static let recordColumns = """
        r.id, r.original_id, r.version, r.is_current, r.pet_id, r.practice_id, r.record_type, r.title,
        r.description, r.diagnosis, r.treatment_plan, r.medications, r.notes, r.follow_up_date, r.visit_date,
        r.follow_up_required, r.veterinarian_name, r.clinic_name, r.weight, r.temperature, r.cost, r.medical_data,
        r.created_by, r.created_at, r.updated_at
        """

    /// `GET /medical-records/pet/{id}` in one statement: the pet's visibility (CallerScope), the envelope's counts
    /// and one page of records (newest first, then id) with each record's practice zone. The pet is the anchor row,
    /// so an invisible pet gives no row (nil: 404) and a visible pet without records one row without a record.
    /// Members see their practice's records only; `currentOnly` keeps current versions.
    func listForPet(
        _ petID: UUID, for caller: Caller, currentOnly: Bool, limit: Int, offset: Int
    ) async throws -> MedicalRecordPage? {
        let prepared = RecordsOfPet(
            petID: petID, reach: BoundReach(caller), currentOnly: currentOnly, limit: limit, offset: offset)
        if let rows = try await db.prepared(prepared, decoding: MedicalRecordPageRow.self) {
            return Self.page(rows)
        }
        let filter: SQLQueryString = """
            pet_id = \(bind: petID) AND \(CallerScope.practiceRows("medical_records", caller: caller))
            \(unsafeRaw: currentOnly ? "AND is_current = \(db.engine == .postgres ? "TRUE" : "1")" : "")
            """
        let rows = try await db.sql.raw("""
            SELECT counts.total, counts.current_count, \(unsafeRaw: Self.recordColumns), zp.timezone AS record_timezone
            FROM pets p
            CROSS JOIN (SELECT COUNT(*) AS total, COALESCE(SUM(CASE WHEN is_current THEN 1 ELSE 0 END), 0) AS current_count
                FROM medical_records WHERE \(filter)) counts
            LEFT JOIN (SELECT * FROM medical_records WHERE \(filter)
                ORDER BY created_at DESC, id LIMIT \(bind: limit) OFFSET \(bind: offset)) r ON 1 = 1
            LEFT JOIN practices zp ON zp.id = r.practice_id
            WHERE p.id = \(bind: petID) AND \(CallerScope.pet("p", caller: caller))
            ORDER BY r.created_at DESC, r.id
            """).all(decoding: MedicalRecordPageRow.self)
        return Self.page(rows)
    }

    /// The page of `listForPet`'s rows; nil without a row (the pet is not visible).
    private static func page(_ rows: [MedicalRecordPageRow]) -> MedicalRecordPage? {
        guard let first = rows.first else { return nil }
        return MedicalRecordPage(
            total: first.total, current: first.currentCount,
            records: rows.compactMap { row in
                row.record.map { ($0, PracticeZone(identifier: row.recordTimezone ?? "UTC")) }
            })
    }

    /// `listForPet` prepared on PostgreSQL: "current versions only" is a bound value.
    private struct RecordsOfPet: PageOfPet {
        private static let filter = """
            pet_id = $1 AND \(BoundReach.practiceRows("medical_records", kind: 2)) AND (NOT $4 OR is_current)
            """
        static let sql = """
            SELECT counts.total, counts.current_count, \(MedicalRecordStore.recordColumns),
                zp.timezone AS record_timezone
            FROM pets p
            CROSS JOIN (SELECT COUNT(*) AS total, COALESCE(SUM(CASE WHEN is_current THEN 1 ELSE 0 END), 0) AS current_count
                FROM medical_records WHERE \(filter)) counts
            LEFT JOIN (SELECT * FROM medical_records WHERE \(filter)
                ORDER BY created_at DESC, id LIMIT $5 OFFSET $6) r ON 1 = 1
            LEFT JOIN practices zp ON zp.id = r.practice_id
            WHERE p.id = $1 AND \(BoundReach.pet("p", kind: 2))
            ORDER BY r.created_at DESC, r.id
            """
        static let bindingDataTypes: [PostgresDataType] = [.uuid] + BoundReach.dataTypes + [.bool, .int8, .int8]
        let petID: UUID
        let reach: BoundReach
        let currentOnly: Bool
        let limit: Int
        let offset: Int

        func bindFilters(into bindings: inout PostgresBindings) {
            bindings.append(currentOnly)
        }
    }

    /// The records of a pet the caller may see: members only their practice's, ADMIN and the owner all.
    func visibleRecords(of petID: UUID, caller: Caller) -> QueryBuilder<MedicalRecord> {
        let builder = MedicalRecord.query(on: db).filter(\.$petID == petID)
        if caller.isMember { builder.filter(\.$practiceID == (caller.practiceID ?? UUID())) }
        return builder
    }

    /// Every visible version of a pet's records for the history: newest lineage first (by its version 1), newest
    /// version first.
    func history(of petID: UUID, caller: Caller, range: Range<Int>) async throws
        -> [MedicalRecord]
    {
        try await visibleRecords(of: petID, caller: caller)
            .sort(.sql(unsafeRaw: """
                (SELECT first_version.created_at FROM medical_records first_version
                 WHERE first_version.id = medical_records.original_id)
                """), .descending)
            .sort(\.$originalID).sort(\.$version, .descending)
            .range(range).all()
    }

    /// The envelope's counts in one statement.
    func counts(of petID: UUID, caller: Caller, currentOnly: Bool) async throws
        -> (total: Int, current: Int)
    {
        struct Counts: Decodable {
            let total: Int
            let currentCount: Int

            enum CodingKeys: String, CodingKey {
                case total
                case currentCount = "current_count"
            }
        }
        var sql: SQLQueryString = """
            SELECT COUNT(*) AS total, COALESCE(SUM(CASE WHEN is_current THEN 1 ELSE 0 END), 0) AS current_count
            FROM medical_records WHERE pet_id = \(bind: petID)
            """
        if caller.isMember { sql += " AND practice_id = \(bind: caller.practiceID ?? UUID())" }
        if currentOnly { sql += " AND is_current = \(bind: true)" }
        guard let row = try await db.sql.raw(sql).first(decoding: Counts.self) else { return (0, 0) }
        return (row.total, row.currentCount)
    }
}

extension MedicalRecordStore {
    /// Marks a version superseded if it still is the current one: what decides between concurrent amendments.
    func supersede(_ id: UUID, now: Date) async throws -> Bool {
        let superseded = try await db.sql.raw("""
            UPDATE medical_records SET is_current = \(bind: false), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND is_current = \(bind: true)
            RETURNING id
            """).all()
        return !superseded.isEmpty
    }

    /// The current version of a lineage (the records sharing `original_id`), if any.
    func currentVersion(ofLineage lineage: UUID) async throws -> MedicalRecord? {
        try await MedicalRecord.query(on: db).filter(\.$originalID == lineage).filter(\.$isCurrent == true).first()
    }

    /// A new version: version 1 of a new record, or the next version of a lineage whose current one the caller
    /// superseded in the same transaction.
    func insert(_ record: MedicalRecord) async throws {
        try await record.create(on: db)
    }

    /// Supersedes version `id` and inserts `next` in one write transaction; false (nothing written) when `id` is no
    /// longer the current version. Versions are immutable, so what the caller read of `id` is still that version;
    /// only `is_current` can have changed, and the conditional update decides between concurrent amendments. A
    /// unique violation (one current version per lineage) is thrown as it is: the caller maps it to the same 409.
    func amend(_ id: UUID, with next: MedicalRecord, now: Date) async throws -> Bool {
        try await db.writeTransaction { tx in
            guard try await Self(db: tx).supersede(id, now: now) else { return false }
            try await next.create(on: tx)
            return true
        }
    }

    /// The pet and the author a record's detail names; nil only if either row is gone (foreign keys prevent it).
    func petAndAuthor(of record: MedicalRecord) async throws -> (pet: Pet, author: User)? {
        guard let pet = try await Pet.find(record.petID, on: db),
            let author = try await User.find(record.createdBy, on: db)
        else { return nil }
        return (pet, author)
    }
}
