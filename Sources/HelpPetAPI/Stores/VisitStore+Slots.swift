import AppCore
import FluentKit
import FluentSQL
import Foundation
import SQLKit

/// The reads of a recording slot: the slot's filter is written here once, for the slot's visit and for the owner's
/// consent already given in it.
extension VisitStore {
    /// The visit of the slot, if one was created.
    func visit(in slot: RecordingSlot) async throws -> Visit? {
        try await db.sql.raw("SELECT * FROM visits WHERE \(Self.condition(slot, wholeAppointment: false)) LIMIT 1")
            .first()?.decode(fluentModel: Visit.self)
    }

    /// The first `metadata.recording_consent` stored in the slot's scope: any visit of the appointment (the owner is
    /// asked once per appointment, whichever pet is recorded first), or the pet's day slot.
    func storedConsent(in slot: RecordingSlot) async throws -> JSONValue? {
        let visits = try await db.sql.raw("""
            SELECT * FROM visits WHERE \(Self.condition(slot, wholeAppointment: true)) ORDER BY created_at, id
            """).all().map { try $0.decode(fluentModel: Visit.self) }
        for visit in visits {
            if let consent = visit.metadata[RecordingConsent.metadataKey], case .object = consent { return consent }
        }
        return nil
    }

    private static func condition(_ slot: RecordingSlot, wholeAppointment: Bool) -> SQLQueryString {
        switch slot {
        case .appointment(let appointmentID, let petID):
            wholeAppointment
                ? "appointment_id = \(bind: appointmentID)"
                : "appointment_id = \(bind: appointmentID) AND pet_id = \(bind: petID)"
        case .day(let petID, let practiceID, let day):
            """
            pet_id = \(bind: petID) AND appointment_id IS NULL AND source = \(bind: VisitSource.recording.rawValue)
            AND practice_id = \(bind: practiceID) AND recording_day = \(bind: day.description)
            """
        }
    }
}

extension AppointmentStore {
    /// Whether the pet is one of the appointment's pets.
    func hasPet(_ petID: UUID, appointment id: UUID) async throws -> Bool {
        try await db.sql.raw("""
            SELECT 1 AS linked FROM appointment_pets WHERE appointment_id = \(bind: id) AND pet_id = \(bind: petID)
            """).first() != nil
    }
}

extension PracticeStore {
    /// The practice row as the recording rules read it (its zone and consent setting); nil when it is gone.
    func practice(_ id: UUID) async throws -> Practice? {
        try await db.sql.raw("SELECT * FROM practices WHERE id = \(bind: id)").first()?.decode(fluentModel: Practice.self)
    }
}
