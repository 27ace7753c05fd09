import AppCore
import Fluent
import Foundation
import Vapor

/// `POST/GET /visit-transcripts/{visit_id}/addenda`: corrections of an approved note, append-only. Staff
/// of the visit's practice (and ADMIN) write them; everyone who may read the visit reads them (a pet owner only
/// once the note is approved, which is the only time addenda exist).
struct VisitAddendaController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let addenda = routes.grouped("visit-transcripts", ":visit_id", "addenda")
        addenda.post(use: create)
        addenda.get(use: list)
    }

    @Sendable func create(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("visit_id", .visit)
        let fields = try req.jsonObject()
        guard let text = try fields.optionalString("text", trim: true, min: 1, max: 5_000, nullable: false).valueIfPresent
        else { throw APIError.badRequest("text is required") }
        let visit = try await req.visibility.visit(id, for: caller)
        guard NoteApproval.isApproved(visit.metadata) else {
            throw APIError.conflict("Only an approved note takes addenda. Approve the draft first (PUT with summary).")
        }
        let addendumID = try await req.visitAddenda.insert(
            visit: id, author: caller.id, text: text, now: req.now)
        guard let row = try await req.visitAddenda.list(visit: id).first(where: { $0.id == addendumID })
        else { throw APIError.visitNotFound }
        return try JSONResponse.make(VisitAddendumResponse(row), status: .created)
    }

    @Sendable func list(req: Request) async throws -> Response {
        let caller = try req.caller
        let id = try req.pathID("visit_id", .visit)
        let visit = try await req.visibility.visit(id, for: caller)
        if caller.isOwner && !NoteApproval.isApproved(visit.metadata) { return try JSONResponse.make([VisitAddendumResponse]()) }
        return try JSONResponse.make(try await req.visitAddenda.list(visit: id).map(VisitAddendumResponse.init))
    }
}
