import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Medical records: versioned and immutable. Reads here, the first version in `+Create`, amendments in `+Amend`.
struct MedicalRecordsController: HelpPetRouteCollection {
    func boot(routes: any RoutesBuilder) {
        let records = routes.grouped("medical-records")
        records.post(use: create)
        records.get("pet", ":pet_id", use: listForPet)
        records.get("pet", ":pet_id", "history", use: history)
        records.get(":record_id", use: show)
        records.put(":record_id", use: amend)
    }

    @Sendable func listForPet(req: Request) async throws -> Response {
        let caller = try req.caller
        let petID = try req.pathID("pet_id", .pet)
        let query = req.queryParameters
        let includeHistorical = try query.bool("include_historical", default: true)
        let latestOnly = try query.bool("latest_only", default: false)
        let page = try query.pagination()
        _ = try await Visibility.pet(petID, for: caller, on: req.db)

        let builder = Self.visibleRecords(of: petID, caller: caller, on: req.db)
        if latestOnly || !includeHistorical { builder.filter(\.$isCurrent == true) }
        builder.sort(\.$createdAt, .descending).sort(\.$id)

        if latestOnly {
            // At most one record: the newest current version. Pagination still applies to that list of one.
            let latest = try await builder.first()
            let total = latest == nil ? 0 : 1
            let records = page.offset == 0 ? [latest].compactMap { $0 } : []
            return try await Self.envelope(records, total: total, current: total, req: req)
        }
        let counts = try await Self.counts(of: petID, caller: caller, currentOnly: !includeHistorical, on: req.db)
        let records = try await builder.range(page.range).all()
        return try await Self.envelope(records, total: counts.total, current: counts.current, req: req)
    }

    /// Every visible version, grouped by lineage: newest lineage first (by its version 1), newest version first.
    @Sendable func history(req: Request) async throws -> Response {
        let caller = try req.caller
        let petID = try req.pathID("pet_id", .pet)
        let query = req.queryParameters
        // Same errors as the list (§4.8), though neither flag changes a history.
        _ = try query.bool("include_historical", default: true)
        _ = try query.bool("latest_only", default: false)
        let page = try query.pagination()
        _ = try await Visibility.pet(petID, for: caller, on: req.db)

        let counts = try await Self.counts(of: petID, caller: caller, currentOnly: false, on: req.db)
        let records = try await Self.visibleRecords(of: petID, caller: caller, on: req.db)
            .sort(.sql(unsafeRaw: """
                (SELECT first_version.created_at FROM medical_records first_version
                 WHERE first_version.id = medical_records.original_id)
                """), .descending)
            .sort(\.$originalID).sort(\.$version, .descending)
            .range(page.range).all()
        return try await Self.envelope(records, total: counts.total, current: counts.current, req: req)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let caller = try req.caller
        let id = try req.pathID("record_id", .medicalRecord)
        let record = try await Visibility.medicalRecord(id, for: caller, on: req.db)
        // Both rows are guaranteed by foreign keys.
        guard let pet = try await Pet.find(record.petID, on: req.db),
            let author = try await User.find(record.createdBy, on: req.db)
        else { throw APIError.notFound("Medical record not found") }
        return try JSONResponse.make(
            MedicalRecordDetailResponse(
                record: try await MedicalRecordPresenter.response(for: record, now: req.now, on: req.db),
                pet: .init(id: pet.id!.lowercased, name: pet.name, species: pet.species),
                created_by_user: .init(id: author.id!.lowercased, full_name: author.fullName)))
    }

    /// The records of a pet the caller may see: members only their practice's, ADMIN and the owner all.
    static func visibleRecords(of petID: UUID, caller: Caller, on db: any Database) -> QueryBuilder<MedicalRecord> {
        let builder = MedicalRecord.query(on: db).filter(\.$petID == petID)
        if caller.isMember { builder.filter(\.$practiceID == (caller.practiceID ?? UUID())) }
        return builder
    }

    /// The envelope's counts in one statement.
    static func counts(of petID: UUID, caller: Caller, currentOnly: Bool, on db: any Database) async throws
        -> (total: Int, current: Int)
    {
        var sql: SQLQueryString = """
            SELECT COUNT(*) AS total, COALESCE(SUM(CASE WHEN is_current THEN 1 ELSE 0 END), 0) AS current_count
            FROM medical_records WHERE pet_id = \(bind: petID)
            """
        if caller.isMember { sql += " AND practice_id = \(bind: caller.practiceID ?? UUID())" }
        if currentOnly { sql += " AND is_current = \(bind: true)" }
        guard let row = try await db.sql.raw(sql).first() else { return (0, 0) }
        return (try row.decode(column: "total", as: Int.self), try row.decode(column: "current_count", as: Int.self))
    }

    static func envelope(_ records: [MedicalRecord], total: Int, current: Int, req: Request) async throws -> Response {
        try JSONResponse.make(
            MedicalRecordsEnvelope(
                records: try await MedicalRecordPresenter.responses(for: records, now: req.now, on: req.db), total: total,
                current_records_count: current, historical_records_count: total - current),
            headers: ["X-Total-Count": String(total)])
    }
}
