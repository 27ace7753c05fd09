import AppCore
import Crypto
import Fluent
import Foundation
import Vapor

/// The body of `POST /api/client/appointments` (§4.4.1) and `POST /api/admin/appointments` (§4.7.4), validated in
/// the contract's order: missing fields, each field in table order, the `Idempotency-Key` header, then the service.
struct BookingRequest: Sendable {
    let start: ParsedInstant
    let clientName: String
    let phone: String?
    let carMake: String?
    let carPlate: String?
    let serviceName: String?
    let serviceID: UUID?
    let notes: String?
    let telegram: String?
    let status: AppointmentStatus
    let idempotencyKey: String?

    static func parse(_ body: FieldReader, admin: Bool, req: Request) throws -> BookingRequest {
        var missing = (admin ? ["startIso", "clientName"] : ["startIso", "clientName", "phone", "carMake", "carPlate"])
            .filter { FieldReader.isMissing(body.object[$0]) }
        if FieldReader.isMissing(body.object["serviceName"]) && FieldReader.isMissing(body.object["serviceId"]) {
            missing.append("serviceName")
        }
        if !missing.isEmpty { throw APIError.missingFields(missing) }

        guard case .string(let startText)? = body.object["startIso"] else {
            throw APIError.invalidField("startIso", "must be a string")
        }
        guard let start = ParsedInstant(startText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw APIError.invalidField("startIso", "must be an ISO-8601 date-time with Z or an offset")
        }
        let clientName = try body.string("clientName", min: 2, max: 100)!
        let phone = try body.normalized("phone", ContactNormalization.phone)
        let carMake = try body.string("carMake", min: 2, max: 50)
        let carPlate = try body.normalized("carPlate", ContactNormalization.plate, length: 2...20)
        let serviceName = try body.string("serviceName", max: 100)
        let serviceID = try body.uuid("serviceId")
        let notes = try body.string("notes", max: 500, lines: .multi)
        let telegram = try body.normalized("telegram", ContactNormalization.telegram)
        var status = AppointmentStatus.new
        if admin, let raw = try body.oneOf("status", ["new", "confirmed"]) { status = AppointmentStatus(rawValue: raw)! }
        return BookingRequest(
            start: start, clientName: clientName, phone: phone, carMake: carMake, carPlate: carPlate,
            serviceName: serviceName, serviceID: serviceID, notes: notes, telegram: telegram, status: status,
            idempotencyKey: try Self.idempotencyKey(req))
    }

    /// `Idempotency-Key`: 1–100 characters of `[A-Za-z0-9._:-]`.
    static func idempotencyKey(_ req: Request) throws -> String? {
        guard let raw = req.headers.first(name: "Idempotency-Key") else { return nil }
        let valid = (1...100).contains(raw.utf8.count) && raw.utf8.allSatisfy {
            ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || [46, 95, 58, 45].contains($0)
        }
        guard valid else { throw APIError.badRequest("Invalid header: Idempotency-Key") }
        return raw
    }

    /// Step 9: the active service named by `serviceId` and/or `serviceName` (matched trimmed, case-insensitively),
    /// read in one statement.
    func resolveService(_ services: ServiceStore) async throws -> ServiceRow {
        let unknown = APIError.badRequest("Unknown or inactive service")
        let found = try await services.activeMatching(id: serviceID, name: serviceName)
        if serviceID != nil && found.byID == nil { throw unknown }
        if serviceName != nil && found.byName == nil { throw unknown }
        if let byID = found.byID, let byName = found.byName, byID.id != byName.id {
            throw APIError.badRequest("serviceId and serviceName do not match")
        }
        guard let service = found.byID ?? found.byName else { throw unknown }
        return service
    }

    func draft(
        service: ServiceRow, source: AppointmentSource, installID: UUID?, createdByKeyID: UUID?,
        credentialID: UUID, rawBody: Data
    ) -> BookingDraft {
        let claim = idempotencyKey.map {
            IdempotencyClaim(
                credentialID: credentialID, key: $0,
                requestHash: SHA256.hash(data: rawBody).map { String(format: "%02x", $0) }.joined())
        }
        return BookingDraft(
            start: start, clientName: clientName, phone: phone, telegram: telegram, carMake: carMake, carPlate: carPlate,
            notes: notes, serviceID: service.id, serviceName: service.name, priceRub: service.priceRub,
            durationMinutes: service.durationMinutes, source: source, status: status, installID: installID,
            createdByKeyID: createdByKeyID, idempotency: claim)
    }
}
