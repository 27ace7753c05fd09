import AppCore
import Foundation
import Vapor

/// The service catalogue in the console (contract §4.7.3): active and inactive services, soft delete, names unique
/// among active services (enforced by a partial unique index; a clash answers 409).
struct AdminServicesController: RouteCollection {
    static let nameClash = APIError.conflict("A service with this name already exists")

    func boot(routes: any RoutesBuilder) throws {
        routes.get("services", use: list)
        routes.jsonRoute(.POST, "services", use: create)
        routes.get("services", ":serviceId", use: show)
        routes.jsonRoute(.PUT, "services", ":serviceId", use: update)
        routes.on(.DELETE, "services", ":serviceId", use: softDelete)
    }

    @Sendable func list(req: Request) async throws -> Response {
        let active = try req.autodetailQuery.optionalBool("active")
        return try JSONResponse.make(try await req.services.all(active: active).map(ServiceResponse.init))
    }

    @Sendable func show(req: Request) async throws -> Response {
        try JSONResponse.make(ServiceResponse(try await Self.service(req)))
    }

    @Sendable func create(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        try body.requireAll(["name", "priceRub", "durationMinutes"])
        let name = try body.string("name", min: 2, max: 100)!
        let description = try body.string("description", max: 2000, lines: .multi) ?? ""
        let price = try body.integer("priceRub", range: 0...10_000_000)!
        let duration = try Self.duration(body)!
        let imageURL = try body.normalized("imageUrl", { ContactNormalization.absoluteURL($0) })
        let active = try body.bool("active") ?? true
        guard let service = try await req.services.insert(
            name: name, description: description, priceRub: price, durationMinutes: duration, imageURL: imageURL,
            active: active, now: req.now)
        else { throw Self.nameClash }
        return try JSONResponse.make(
            ServiceResponse(service), status: .created, headers: ["Location": "/api/admin/services/\(service.id.lowercased)"])
    }

    /// Partial update of any of the six fields; `description: null` stores `""`, `imageUrl: null` clears.
    @Sendable func update(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        let original = try await Self.service(req)
        var service = original
        let fields = ["name", "description", "priceRub", "durationMinutes", "imageUrl", "active"]
        guard body.containsAny(of: fields) else { throw APIError.nothingToUpdate }
        try body.rejectNull("name")
        if let name = try body.string("name", min: 2, max: 100) {
            service.name = name
            service.nameNormalized = ServiceRow.normalizedName(name)
        } else if body.contains("name") {
            throw APIError.invalidField("name", "must be 2-100 characters")
        }
        if body.contains("description") { service.description = try body.string("description", max: 2000, lines: .multi) ?? "" }
        try body.rejectNull("priceRub")
        if let price = try body.integer("priceRub", range: 0...10_000_000) { service.priceRub = price }
        try body.rejectNull("durationMinutes")
        if let duration = try Self.duration(body) { service.durationMinutes = duration }
        if body.contains("imageUrl") { service.imageUrl = try body.normalized("imageUrl", { ContactNormalization.absoluteURL($0) }) }
        try body.rejectNull("active")
        if let active = try body.bool("active") { service.active = active }
        if service != original {
            service.updatedAt = req.now
            do {
                try await req.services.save(service)
            } catch where DatabaseFailure.isUniqueViolation(error) {
                throw Self.nameClash
            }
        }
        return try JSONResponse.make(ServiceResponse(service))
    }

    /// Soft delete: `active = false`; `204` also when already inactive.
    @Sendable func softDelete(req: Request) async throws -> Response {
        var service = try await Self.service(req)
        if service.active {
            service.active = false
            service.updatedAt = req.now
            try await req.services.save(service)
        }
        return Response(status: .noContent)
    }

    /// `durationMinutes`: 15–720 and a multiple of 5.
    static func duration(_ body: FieldReader) throws -> Int? {
        guard let value = try body.integer("durationMinutes", range: 15...720) else { return nil }
        guard value % 5 == 0 else { throw APIError.invalidField("durationMinutes", "must be a multiple of 5") }
        return value
    }

    static func service(_ req: Request) async throws -> ServiceRow {
        let id = try req.pathID("serviceId", malformed: .serviceNotFound)
        guard let service = try await req.services.find(id) else { throw APIError.serviceNotFound }
        return service
    }
}
