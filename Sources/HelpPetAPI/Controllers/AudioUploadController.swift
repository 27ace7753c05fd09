import AppCore
import Foundation
import Vapor

/// The v2 recording flow of seed 002 (contract §4.10): initiate for one pet, upload straight to storage with the
/// presigned POST, complete, play back. One recording, one upload, one visit per pet.
struct AudioUploadController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let audio = routes.grouped("visit-transcripts", "audio")
        audio.post("upload", "initiate", use: initiate)
        audio.post("upload", "complete", ":visit_id", use: complete)
        audio.get("playback", ":visit_id", use: playback)
    }

    @Sendable func initiate(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let request = try InitiateRecordingRequest(try req.jsonObject())
        return try JSONResponse.make(try await req.recordingSlots.initiate(request, caller: caller, now: req.now))
    }
}
