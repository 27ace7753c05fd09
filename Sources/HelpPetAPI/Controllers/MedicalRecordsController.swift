import AppCore
import Foundation
import Vapor

/// Medical records: versioned and immutable. Reads here, the first version in `+Create`, amendments in `+Amend`.
struct MedicalRecordsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
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
        let currentOnly = latestOnly || !includeHistorical
        // One statement: the pet's visibility, the counts and the page (MedicalRecordStore).
        guard let result = try await req.medicalRecords.listForPet(
            petID, for: caller, currentOnly: currentOnly,
            limit: latestOnly ? 1 : page.limit, offset: latestOnly ? 0 : page.offset)
        else { throw APIError.petNotFound }
        var records = result.records
        var total = result.total, current = result.current
        if latestOnly {
            // At most one record: the newest current version. Pagination still applies to that list of one.
            total = min(total, 1)
            current = total
            if page.offset != 0 { records = [] }
        }
        let now = req.now
        let responses = records.map { record, practice in
            MedicalRecordResponse(record, today: LocalDay.day(containing: now, in: practice.zone), zone: practice.zone)
        }
        return try JSONResponse.make(
            MedicalRecordsEnvelope(
                records: responses, total: total, currentRecordsCount: current,
                historicalRecordsCount: total - current),
            headers: ["X-Total-Count": String(total)])
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
        _ = try await req.visibility.pet(petID, for: caller)

        let counts = try await req.medicalRecords.counts(of: petID, caller: caller, currentOnly: false)
        let records = try await req.medicalRecords.history(of: petID, caller: caller, range: page.range)
        return try await Self.envelope(records, total: counts.total, current: counts.current, req: req)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let caller = try req.caller
        let id = try req.pathID("record_id", .medicalRecord)
        let record = try await req.visibility.medicalRecord(id, for: caller)
        // Both rows are guaranteed by foreign keys.
        guard let (pet, author) = try await req.medicalRecords.petAndAuthor(of: record) else {
            throw APIError.medicalRecordNotFound
        }
        return try JSONResponse.make(
            MedicalRecordDetailResponse(
                record: try await req.medicalRecords.response(for: record, now: req.now),
                pet: .init(id: pet.id!.lowercased, name: pet.name, species: pet.species),
                createdByUser: .init(id: author.id!.lowercased, fullName: author.fullName)))
    }

    static func envelope(_ records: [MedicalRecord], total: Int, current: Int, req: Request) async throws -> Response {
        try JSONResponse.make(
            MedicalRecordsEnvelope(
                records: try await req.medicalRecords.responses(for: records, now: req.now), total: total,
                currentRecordsCount: current, historicalRecordsCount: total - current),
            headers: ["X-Total-Count": String(total)])
    }
}
