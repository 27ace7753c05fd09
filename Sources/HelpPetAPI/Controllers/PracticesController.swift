import AppCore
import Foundation
import Vapor

/// Practices: listed and read by every role within its visibility; created and changed by ADMIN. The list is routed
/// by PracticeDirectoryController, which answers it without a token with the public directory; the create by
/// PracticeCreationController, which also lets a pending user create a self-service practice.
struct PracticesController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let practices = routes.grouped("practices")
        practices.get(":practice_id", use: show)
        practices.put(":practice_id", use: update)
    }

    @Sendable func list(req: Request) async throws -> Response {
        let caller = try req.caller
        let query = req.queryParameters
        let isActive = try query.optionalBool("is_active")
        let page = try query.pagination()

        let (items, total) = try await req.practices.list(for: caller, isActive: isActive, page: page)
        return try JSONResponse.page(items.map(PracticeResponse.init), total: total)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let caller = try req.caller
        let id = try req.pathID("practice_id", .practice)
        let practice = try await req.visibility.practice(id, for: caller)
        return try JSONResponse.make(PracticeResponse(practice))
    }

    @Sendable func create(req: Request) async throws -> Response {
        try req.caller.requireAdmin()
        let fields = try req.jsonObject()
        let input = try PracticeRequest(fields, creating: true)
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
        try await req.practices.insert(practice)
        return try JSONResponse.make(PracticeResponse(practice), status: .created)
    }

    @Sendable func update(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireAdmin()
        let id = try req.pathID("practice_id", .practice)
        let fields = try req.jsonObject()
        try fields.requireUnchanged("id", current: id.lowercased)
        let input = try PracticeRequest(fields, creating: false)
        guard fields.containsAny(of: PracticeRequest.updatableKeys) else {
            throw APIError.nothingToUpdate
        }
        guard let practice = try await req.practices.forUpdate(id) else {
            throw APIError.practiceNotFound
        }
        input.apply(to: practice)
        if let isActive = input.isActive { practice.setIfChanged(\.isActive, isActive) }
        if practice.hasChanges {
            practice.updatedAt = req.now
            try await req.practices.save(practice)
            // After the commit: this process's day windows use the new zone at once, other nodes within a second.
            req.readPathCaches.practiceZones.invalidate(id)
        }
        return try JSONResponse.make(PracticeResponse(practice))
    }
}
