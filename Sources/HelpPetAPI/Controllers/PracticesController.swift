import AppCore
import Fluent
import Foundation
import Vapor

/// Practices: listed and read by every role within its visibility; created and changed by ADMIN. The list is routed
/// by PracticeDirectoryController, which answers it without a token with the public directory; the create by
/// PracticeCreationController, which also lets a pending user create a self-service practice.
struct PracticesController: HelpPetRouteCollection {
    func boot(routes: any RoutesBuilder) {
        let practices = routes.grouped("practices")
        practices.get(":practice_id", use: show)
        practices.put(":practice_id", use: update)
    }

    @Sendable func list(req: Request) async throws -> Response {
        let caller = try req.caller
        let query = req.queryParameters
        let isActive = try query.optionalBool("is_active")
        let page = try query.pagination()

        let builder = Practice.query(on: req.db)
        switch caller.role {
        case .admin: break
        case .vet, .vetStaff: builder.filter(\.$id == (caller.practiceID ?? UUID()))
        case .petOwner:
            builder.join(PetOwnerPractice.self, on: \Practice.$id == \PetOwnerPractice.$id.$practiceID)
                .filter(PetOwnerPractice.self, \.$id.$petOwnerID == (caller.petOwnerID ?? UUID()))
        case .pending: return try JSONResponse.page([PracticeResponse](), total: 0)
        }
        if let isActive { builder.filter(\.$isActive == isActive) }
        let total = try await builder.count()
        let items = try await builder.sort(\.$name).sort(\.$id).range(page.range).all()
        return try JSONResponse.page(items.map(PracticeResponse.init), total: total)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let caller = try req.caller
        let id = try req.pathID("practice_id", .practice)
        let practice = try await Visibility.practice(id, for: caller, on: req.db)
        return try JSONResponse.make(PracticeResponse(practice))
    }

    @Sendable func create(req: Request) async throws -> Response {
        try req.caller.requireAdmin()
        let fields = try req.jsonObject()
        let input = try PracticeInput(fields, creating: true)
        let now = req.now
        let practice = Practice()
        practice.id = UUID()
        // A new model's fields must be assigned before `apply` compares against them.
        practice.name = input.name ?? ""
        practice.timezone = input.timezone ?? ""
        input.apply(to: practice)
        practice.isActive = input.isActive ?? true
        practice.createdAt = now
        practice.updatedAt = now
        try await practice.create(on: req.db)
        return try JSONResponse.make(PracticeResponse(practice), status: .created)
    }

    @Sendable func update(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireAdmin()
        let id = try req.pathID("practice_id", .practice)
        let fields = try req.jsonObject()
        try fields.requireUnchanged("id", current: id.lowercased)
        let input = try PracticeInput(fields, creating: false)
        guard fields.containsAny(of: PracticeInput.updatableKeys) else {
            throw APIError.badRequest("At least one updatable field is required")
        }
        guard let practice = try await Practice.find(id, on: req.db) else {
            throw APIError.notFound("Practice not found")
        }
        input.apply(to: practice)
        if let isActive = input.isActive { practice.setIfChanged(\.isActive, isActive) }
        if practice.hasChanges {
            practice.updatedAt = req.now
            try await practice.update(on: req.db)
            // After the commit: this process's day windows use the new zone at once, other nodes within a second.
            req.readPathCaches.practiceZones.invalidate(id)
        }
        return try JSONResponse.make(PracticeResponse(practice))
    }
}

/// The validated body of a practice create or update, in the contract's field order.
struct PracticeInput {
    static let updatableKeys = [
        "name", "timezone", "phone", "email", "address", "is_active",
        "specialties", "accepts_new_patients", "description", "website", "license_number",
        "recording_consent_required",
    ]

    var name: String?
    var timezone: String?
    var phone: FieldPatch<String>
    var email: FieldPatch<String>
    var address: FieldPatch<String>
    var isActive: Bool?
    var specialties: [String]?
    var acceptsNewPatients: Bool?
    var description: FieldPatch<String>
    var website: FieldPatch<String>
    var licenseNumber: FieldPatch<String>
    var recordingConsentRequired: Bool?

    init(_ fields: FieldReader, creating: Bool) throws {
        name = creating
            ? try fields.requiredString("name", max: 200)
            : try fields.optionalString("name", min: 1, max: 200, nullable: false).valueIfPresent
        let zone = creating
            ? try fields.requiredString("timezone", max: 100)
            : try fields.optionalString("timezone", min: 1, max: 100, nullable: false).valueIfPresent
        if let zone, !LocalDay.isAcceptedZoneIdentifier(zone) {
            throw APIError.badRequest("Invalid timezone: '\(zone)'")
        }
        timezone = zone
        phone = try fields.phone("phone")
        email = try fields.email("email", required: false, nullable: true)
        address = try fields.optionalString("address", trim: true, max: 500)
        isActive = try fields.optionalBool("is_active")
        specialties = try fields.optionalStringArray("specialties", maxCount: 50, itemMax: 100)
        acceptsNewPatients = try fields.optionalBool("accepts_new_patients")
        description = try fields.optionalString("description", trim: false, max: 5000).emptyAsNull
        website = try fields.optionalString("website", max: 500).emptyAsNull
        licenseNumber = try fields.optionalString("license_number", max: 100).emptyAsNull
        recordingConsentRequired = try fields.optionalBool("recording_consent_required")
    }

    func apply(to practice: Practice) {
        if let name { practice.setIfChanged(\.name, name) }
        if let timezone { practice.setIfChanged(\.timezone, timezone) }
        practice.setIfChanged(\.phone, phone.applied(to: practice.phone))
        practice.setIfChanged(\.email, email.applied(to: practice.email))
        practice.setIfChanged(\.address, address.applied(to: practice.address))
        if let specialties { practice.setIfChanged(\.specialties, specialties) }
        if let acceptsNewPatients { practice.setIfChanged(\.acceptsNewPatients, acceptsNewPatients) }
        practice.setIfChanged(\.description, description.applied(to: practice.description))
        practice.setIfChanged(\.website, website.applied(to: practice.website))
        practice.setIfChanged(\.licenseNumber, licenseNumber.applied(to: practice.licenseNumber))
        if let recordingConsentRequired { practice.setIfChanged(\.recordingConsentRequired, recordingConsentRequired) }
    }
}
