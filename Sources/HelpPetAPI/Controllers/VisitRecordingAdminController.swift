import AppCore
import Fluent
import Foundation
import Vapor

/// `POST /visit-transcripts/{id}/transcribe` (transcribe again) and `DELETE /visit-transcripts/{id}` (ADMIN):
/// the visit endpoints that touch stored audio.
struct VisitRecordingAdminController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let visits = routes.grouped("visit-transcripts")
        visits.post(":visit_id", "transcribe", use: transcribe)
        visits.delete(":visit_id", use: delete)
    }

    @Sendable func transcribe(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("visit_id", .visit)
        let visit = try await req.visibility.visit(id, for: caller)
        let current = try await req.visitRecordingAdmin.transcribeAgain(visit, actor: caller.id, now: req.now)
        return try JSONResponse.make(
            VisitTranscriptsController.response(current, caller: caller, req: req), status: .accepted)
    }

    /// Removes the visit and its recordings (`VisitRecordingAdmin.delete`).
    @Sendable func delete(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireAdmin()
        let id = try req.pathID("visit_id", .visit)
        guard let visit = try await req.visits.currentRow(id) else { throw APIError.visitNotFound }
        try await req.visitRecordingAdmin.delete(visit, logger: req.logger)
        return try JSONResponse.make(VisitDeletedResponse(message: "Visit transcript deleted", visitID: id.lowercased))
    }
}
