import AppCore
import Foundation
import Vapor

/// Visit transcripts (one pet's visit each): reads and lists here, the manual create in `+Create`, the staff edit
/// in `+Update`. The audio flows live elsewhere.
struct VisitTranscriptsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let visits = routes.grouped("visit-transcripts")
        visits.post(use: create)
        visits.get("pet", ":pet_id", use: listForPet)
        visits.get("appointments", ":appointment_id", "visits", use: listForAppointment)
        visits.get(":visit_id", use: show)
        visits.put(":visit_id", use: update)
        visits.put(":visit_id", "note", use: correctNote)
    }

    @Sendable func listForPet(req: Request) async throws -> Response {
        let caller = try req.caller
        let petID = try req.pathID("pet_id", .pet)
        let query = req.queryParameters
        let state = try query.enumValue("state", VisitState.self)
        let includePending = try query.bool("include_pending", default: false)
        let page = try query.pagination()
        // One statement: the pet's visibility, the total and the page (TranscriptStore).
        guard let result = try await req.transcripts.listForPet(
            petID, for: caller, state: state, includePending: includePending, limit: page.limit, offset: page.offset)
        else { throw APIError.petNotFound }
        return try JSONResponse.page(result.visits.map {
            VisitTranscriptListItemResponse($0, objectURL: Self.objectURL(of: $0, req: req), hideDraftSummary: caller.isOwner)
        }, total: result.total)
    }

    @Sendable func listForAppointment(req: Request) async throws -> Response {
        let caller = try req.caller
        let appointmentID = try req.pathID("appointment_id", .appointment)
        let query = req.queryParameters
        let petID = try query.uuid("pet_id", kind: .pet)
        let includePending = try query.bool("include_pending", default: false)
        let page = try query.pagination()
        _ = try await req.visibility.appointment(appointmentID, for: caller)
        if let petID, try await !req.appointments.hasPet(petID, appointment: appointmentID) {
            throw APIError.badRequest(
                "Pet \(petID.lowercased) is not associated with appointment \(appointmentID.lowercased)")
        }
        let result = try await req.transcripts.listForAppointment(
            appointmentID, petID: petID, includePending: includePending, page: page)
        return try JSONResponse.page(result.visits.map { Self.response($0, caller: caller, req: req) }, total: result.total)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let caller = try req.caller
        let id = try req.pathID("visit_id", .visit)
        let visit = try await req.visibility.visit(id, for: caller)
        return try JSONResponse.make(Self.response(visit, caller: caller, req: req))
    }

    static func response(_ visit: Visit, caller: Caller, req: Request) -> VisitTranscriptResponse {
        VisitTranscriptResponse(visit, objectURL: objectURL(of: visit, req: req), hideDraftSummary: caller.isOwner)
    }

    /// The URL of a recording's stored object (§7.6), built from its key for this response and only once the
    /// recording is completed; a manual visit's URL is its stored one instead (VisitTranscriptResponse).
    static func objectURL(of visit: Visit, req: Request) -> String? {
        guard visit.state != .new, let key = visit.storageKey else { return nil }
        return req.recordingStorage.objectURL(key: key, baseURL: req.recordingBaseURL)
    }

    static func objectURL(of visit: VisitRow, req: Request) -> String? {
        guard visit.visitState != .new, let key = visit.storageKey else { return nil }
        return req.recordingStorage.objectURL(key: key, baseURL: req.recordingBaseURL)
    }
}
