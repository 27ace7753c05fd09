import AppCore
import Foundation
import Vapor

/// `GET /visit-transcripts/{visit_id}/discharge-instructions`: the owner's take-home instructions of an
/// approved note. Everyone who may read the visit may read them (its practice's staff, ADMIN, the pet's owner); the
/// printable page is the clinic console's `/clinic/visits/{id}/discharge`.
struct DischargeInstructionsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("visit-transcripts", ":visit_id", "discharge-instructions", use: show)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let id = try req.pathID("visit_id", .visit)
        let (visit, instructions) = try await req.visits.dischargeInstructions(id, caller: try req.caller)
        return try JSONResponse.make(DischargeInstructionsResponse(visitID: id, petID: visit.petID, instructions))
    }
}
