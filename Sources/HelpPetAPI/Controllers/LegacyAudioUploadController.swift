import AppCore
import Fluent
import Foundation
import ObjectStorage
import SQLKit
import Vapor

/// `POST /api/v1/upload/audio` (seed 000): one multipart upload per pet of an appointment, stored by the server.
/// Every check, the duplicate check included, happens before anything reaches object storage (R13), and of N
/// parallel uploads for one (appointment, pet) exactly one is stored (R21).
struct LegacyAudioUploadController: RouteCollection {
    let spoolDirectory: URL
    let io: StorageFileIO

    func boot(routes: any RoutesBuilder) throws {
        routes.on(.POST, "upload", "audio", body: .stream, use: upload)
    }

    /// The validated upload: ids, the spooled file and its audio type.
    struct Upload {
        let appointmentID: UUID
        let petID: UUID
        let contentType: AudioContentType
        let filename: String
        let audio: LegacyUploadSpool.AudioPart
    }

    @Sendable func upload(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        guard let boundary = MultipartScanner.boundary(contentType: req.headers.contentType) else {
            throw APIError.badRequest("Content-Type must be multipart/form-data")
        }
        if let declared = req.headers.first(name: .contentLength).flatMap(Int64.init),
            declared > LegacyUploadSpool.maxRequestBytes
        {
            throw LegacyUploadSpool.tooLarge
        }
        let spooled = try await LegacyUploadSpool.receive(req.body, boundary: boundary, directory: spoolDirectory, io: io)
        // The spool file is private to this request and removed whatever happens next.
        defer { if let audio = spooled.audio { Task { await audio.file.discard() } } }

        let upload = try Self.validate(spooled)
        let pet = try await req.visibility.pet(upload.petID, for: caller)
        let appointment = try await req.visibility.appointment(upload.appointmentID, for: caller)
        try await req.recordingSlots.requirePet(pet, in: appointment)
        guard pet.isActive else { throw APIError.badRequest("Pet \(pet.id!.lowercased) is inactive") }
        if appointment.status == .cancelled {
            throw APIError.recordingCancelledAppointment
        }

        let reservation = try await LegacyReservation.reserve(
            pet: pet, appointment: appointment, upload: upload, caller: caller, now: req.now, slots: req.recordingSlots)
        let storage = req.recordingStorage
        let object: ObjectInfo
        do {
            object = try await storage.store.put(
                bucket: storage.bucket, key: reservation.key, file: URL(fileURLWithPath: upload.audio.file.path),
                size: upload.audio.size, contentType: upload.contentType.value)
        } catch {
            try? await reservation.release(on: req.db)
            req.logger.error("legacy upload could not be stored: \(String(reflecting: error))")
            throw APIError(.internalServerError, "Internal server error", extraFields: ["request_id": .string(req.requestID)])
        }
        // If a client's complete or the reconciler got there first at this key, the upload still counts. The
        // reservation's intent carries this upload's type, file name and method into the visit.
        if let intent = try await req.uploadIntents.find(key: reservation.key) {
            try await RecordingCompletion.settle(
                visitID: reservation.visitID, landed: [SlotLanding.Landed(intent: intent, object: object)],
                source: .multipart, details: .none, actor: caller.id, now: req.now, on: req.db,
                metrics: req.core.metrics)
        }
        return try JSONResponse.make(
            LegacyUploadResponse(
                message: "File uploaded successfully", fileURL: storage.objectURL(key: reservation.key, baseURL: req.recordingBaseURL),
                fileKey: reservation.key, visitID: reservation.visitID.lowercased, petID: pet.id!.lowercased,
                appointmentID: appointment.id!.lowercased),
            status: .created)
    }

    /// The form checks of §4.11, in the contract's order.
    static func validate(_ spooled: LegacyUploadSpool.Result) throws -> Upload {
        if let part = spooled.oversizedTextPart {
            throw APIError.badRequest("\(part) must be at most \(LegacyUploadSpool.maxTextPartBytes) characters")
        }
        let appointmentText = spooled.textParts["appointment_id"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let petText = spooled.textParts["pet_id"]?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !appointmentText.isEmpty, !petText.isEmpty else {
            throw APIError.badRequest("Both appointment_id and pet_id are required for visit recording")
        }
        guard let appointmentID = UUID(canonical: appointmentText) else {
            throw APIError.badRequest("Invalid appointment ID format")
        }
        guard let petID = UUID(canonical: petText) else { throw APIError.badRequest("Invalid pet ID format") }
        guard let audio = spooled.audio else { throw APIError.badRequest("audio file is required") }
        guard spooled.audioPartCount == 1 else { throw APIError.badRequest("Exactly one audio file is required") }

        var declared = audio.contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if declared == nil || declared == "application/octet-stream" {
            declared = AudioContentType.inferred(fromFilename: audio.filename)
        }
        guard let typeName = declared, typeName.hasPrefix("audio/") else {
            throw APIError.badRequest("File must be an audio file")
        }
        guard let type = AudioContentType.named(typeName) else { throw APIError.badRequest(AudioContentType.invalid(typeName)) }
        guard audio.size > 0 else { throw APIError.badRequest("Audio file is empty") }

        var filename = "recording.\(type.fileExtension)"
        if let sent = audio.filename, !sent.isEmpty {
            filename = String(String.UnicodeScalarView(RecordingFilename.sanitized(sent).unicodeScalars.prefix(255)))
        }
        return Upload(appointmentID: appointmentID, petID: petID, contentType: type, filename: filename, audio: audio)
    }
}
