import AppCore
import Foundation
import Vapor

/// A practice's own clinic terms for the transcription engine: read and replaced by ADMIN and by the
/// practice's staff (VET, VET_STAFF); another practice is a 404 as everywhere, a pet owner 403. The worker adds the
/// terms to the decoder's hotwords and to the corrector's lexicon for that practice's recordings.
struct PracticeVocabularyController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let vocabulary = routes.grouped("practices", ":practice_id", "vocabulary")
        vocabulary.get(use: show)
        vocabulary.put(use: replace)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let practiceID = try await Self.practice(of: req)
        let row = try await req.practiceVocabulary.find(practiceID: practiceID)
        return try JSONResponse.make(Self.response(practiceID, row))
    }

    @Sendable func replace(req: Request) async throws -> Response {
        let practiceID = try await Self.practice(of: req)
        let input = try PracticeVocabularyRequest(try req.jsonObject())
        try await req.practiceVocabulary.replace(
            practiceID: practiceID, terms: input.terms, by: try req.caller.id, at: req.now)
        let row = try await req.practiceVocabulary.find(practiceID: practiceID)
        return try JSONResponse.make(Self.response(practiceID, row))
    }

    /// The practice, checked for this caller: staff role first (403), then visibility (404).
    static func practice(of req: Request) async throws -> UUID {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("practice_id", .practice)
        return try await req.visibility.practice(id, for: caller).id!
    }

    static func response(_ practiceID: UUID, _ row: PracticeVocabularyStore.Row?) -> PracticeVocabularyResponse {
        PracticeVocabularyResponse(
            practiceID: practiceID.lowercased, terms: row?.termList ?? [], updatedAt: row?.updatedAt,
            updatedBy: row?.updatedBy?.lowercased)
    }
}
