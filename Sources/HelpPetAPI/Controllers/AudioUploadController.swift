import AppCore
import Fluent
import Foundation
import ObjectStorage
import SQLKit
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

    /// The validated initiate body, in the contract's field order.
    struct InitiateRequest: Sendable {
        let petID: UUID
        let filename: String
        let contentType: AudioContentType
        let estimatedDuration: Double?
        let appointmentID: UUID?
        let replaceExisting: Bool
        let practiceID: UUID?
        /// The vet confirmed that the owner agreed to being recorded (optional, additive).
        let ownerConsentConfirmed: Bool?

        init(_ fields: FieldReader) throws {
            petID = try fields.requiredUUID("pet_id", kind: .pet)
            filename = RecordingFilename.sanitized(try fields.requiredString("filename", max: 255))
            switch try fields.optionalString("content_type", trim: false, min: 0, max: 100_000, nullable: false) {
            case .value(let value):
                guard let type = AudioContentType.named(value) else { throw APIError.badRequest(AudioContentType.invalid(value)) }
                contentType = type
            default:
                contentType = .default
            }
            estimatedDuration = try fields.optionalPositiveNumber("estimated_duration_seconds", max: 14_400).valueIfPresent
            appointmentID = try fields.optionalUUID("appointment_id", kind: .appointment).valueIfPresent
            replaceExisting = try fields.optionalBool("replace_existing") ?? false
            practiceID = try fields.optionalUUID("practice_id", kind: .practice).valueIfPresent
            ownerConsentConfirmed = try fields.optionalBool("owner_consent_confirmed")
        }
    }

    /// Everything the slot rules need once the checks have passed.
    struct InitiateContext: Sendable {
        let request: InitiateRequest
        let caller: Caller
        let pet: Pet
        let appointment: Appointment?
        let practice: Practice
        let now: Date
        /// `metadata.recording_consent` to write (nil: leave what is stored).
        let consent: JSONValue?
    }

    struct InitiateResponse: Encodable, Sendable {
        let visit_id: String
        let upload_url: String
        let upload_fields: [String: String]
        let s3_key: String
        let bucket: String
        let expires_in: Int
    }

    @Sendable func initiate(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let request = try InitiateRequest(try req.jsonObject())

        let pet = try await VisibilityStore(db: req.db).pet(request.petID, for: caller)
        var appointment: Appointment?
        if let appointmentID = request.appointmentID {
            let found = try await VisibilityStore(db: req.db).appointment(appointmentID, for: caller)
            try await Self.requirePet(pet, in: found, on: req.db)
            appointment = found
        }
        guard pet.isActive else { throw APIError.badRequest("Pet \(pet.id!.lowercased) is inactive") }
        let practice: Practice
        if let appointment {
            if let requested = request.practiceID, requested != appointment.practiceID {
                throw APIError.badRequest("practice_id does not match the appointment's practice")
            }
            guard let found = try await Practice.find(appointment.practiceID, on: req.db) else {
                throw APIError.practiceNotFound
            }
            practice = found
        } else {
            practice = try await PracticeResolution.forPet(pet, requested: request.practiceID, caller: caller, on: req.db)
        }
        if appointment?.status == .cancelled {
            throw APIError.recordingCancelledAppointment
        }
        let consent = try await RecordingConsent.resolve(
            confirmed: request.ownerConsentConfirmed, caller: caller, practice: practice, appointment: appointment,
            pet: pet, now: req.now, on: req.db)
        let context = InitiateContext(
            request: request, caller: caller, pet: pet, appointment: appointment, practice: practice, now: req.now,
            consent: consent)
        return try JSONResponse.make(try await Self.applySlotRules(context, req: req))
    }

    /// 400 when the pet is not one of the appointment's pets (C11 also guarantees it in the database).
    static func requirePet(_ pet: Pet, in appointment: Appointment, on db: any Database) async throws {
        let link = try await AppointmentPet.query(on: db)
            .filter(\.$id.$appointmentID == appointment.id!).filter(\.$id.$petID == pet.id!).first()
        if link == nil {
            throw APIError.badRequest(
                "Pet \(pet.id!.lowercased) is not associated with appointment \(appointment.id!.lowercased)")
        }
    }
}
