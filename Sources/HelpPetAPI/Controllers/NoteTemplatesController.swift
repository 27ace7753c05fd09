import AppCore
import Foundation
import Vapor

/// A practice's note templates: the practice's staff and ADMIN read them; only ADMIN edits one, which
/// stores a new version (append-only) that new notes are drafted with. `?version=N` reads an older version, the one
/// an old note names in `metadata.clinical_note.template_version`.
struct NoteTemplatesController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let templates = routes.grouped("practices", ":practice_id", "note-templates")
        templates.get(use: list)
        templates.get(":template_key", use: show)
        templates.put(":template_key", use: replace)
    }

    @Sendable func list(req: Request) async throws -> Response {
        let practiceID = try await PracticeVocabularyController.practice(of: req)
        let templates = try await req.noteTemplates.current(practiceID: practiceID)
        return try JSONResponse.make(templates.map { NoteTemplateResponse(practiceID: practiceID, $0) })
    }

    @Sendable func show(req: Request) async throws -> Response {
        let practiceID = try await PracticeVocabularyController.practice(of: req)
        let key = try Self.key(req)
        let stored: NoteTemplateStore.Stored?
        let query = QueryParameters(req)
        if let raw = query["version"] {
            guard let version = Int(raw), version >= 1 else { throw query.invalid("version", "must be a positive integer") }
            stored = try await req.noteTemplates.version(version, practiceID: practiceID, key: key)
        } else {
            stored = try await req.noteTemplates.current(practiceID: practiceID).first { $0.template.key == key }
        }
        guard let stored else { throw APIError.notFound("Template version not found") }
        return try JSONResponse.make(NoteTemplateResponse(practiceID: practiceID, stored))
    }

    @Sendable func replace(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireAdmin()
        let practiceID = try await PracticeVocabularyController.practice(of: req)
        let key = try Self.key(req)
        let request = try NoteTemplateRequest(try req.jsonObject(), defaultTitle: NoteTemplates.builtIn[key]!.title)
        let stored = try await req.noteTemplates.append(
            practiceID: practiceID, key: key, title: request.title, sections: request.sections, by: caller.id,
            at: req.now)
        return try JSONResponse.make(NoteTemplateResponse(practiceID: practiceID, stored))
    }

    static func key(_ req: Request) throws -> String {
        let key = req.parameters.get("template_key") ?? ""
        guard NoteTemplates.keys.contains(key) else {
            throw APIError.notFound("Template not found (one of: \(NoteTemplates.keys.joined(separator: ", ")))")
        }
        return key
    }
}
