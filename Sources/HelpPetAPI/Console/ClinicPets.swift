import AppCore
import Fluent
import Foundation
import Vapor

package struct ConsolePet: Sendable {
    package let id: UUID
    package let ownerID: UUID
    package let ownerName: String
    package let ownerEmail: String
    package let ownerPhone: String?
    package let name: String
    package let species: String
    package let breed: String?
    package let color: String?
    package let gender: String?
    package let dateOfBirth: String?
    package let weight: Double?
    package let microchipNumber: String?
    package let allergies: String?
    package let isActive: Bool
    package let registrationDate: String
    package let updatedAt: Date
}

/// One version of a medical record.
package struct ConsoleRecord: Sendable {
    package let id: UUID
    package let originalID: UUID
    package let version: Int
    package let isCurrent: Bool
    package let recordType: String
    package let title: String
    package let description: String?
    package let diagnosis: String?
    package let treatmentPlan: String?
    package let medications: [String]
    package let notes: String?
    package let followUpDate: String?
    package let visitDate: Date?
    package let weight: Double?
    package let createdAt: Date

    /// The fields a version can change, with the labels the console shows, in the form's order.
    package var comparableFields: [(label: String, value: String)] {
        [("Type", recordType), ("Title", title), ("Description", description ?? ""), ("Diagnosis", diagnosis ?? ""),
         ("Treatment plan", treatmentPlan ?? ""), ("Medications", medications.joined(separator: ", ")),
         ("Notes", notes ?? ""), ("Follow-up", followUpDate ?? ""),
         ("Weight (kg)", weight.map { String($0) } ?? "")]
    }
}

package struct ConsoleVisitSummary: Sendable {
    package let id: UUID
    package let appointmentID: UUID?
    package let source: String
    package let state: String
    package let visitDate: Date
    package let summary: String?
    package let excerpt: String
    package let hasAudio: Bool
    /// `draft`, `approved` or nil (owners read approved notes only).
    package let summaryStatus: String?
}

/// The pet reads of the clinic console, with the API's visibility (a pet the caller may not see is a 404).
package enum ClinicPets {
    package static func pet(request: Request, id: UUID) async throws -> ConsolePet {
        let caller = try request.caller
        guard let row = try await PetStore(db: request.db).pet(id, for: caller) else {
            throw APIError.petNotFound
        }
        let p = row.pet, o = row.owner
        return ConsolePet(
            id: p.id, ownerID: p.ownerID, ownerName: "\(o.ownerFirstName) \(o.ownerLastName)",
            ownerEmail: o.ownerEmail, ownerPhone: o.ownerPhone, name: p.name, species: p.species, breed: p.breed,
            color: p.color, gender: p.gender, dateOfBirth: p.dateOfBirth, weight: p.weight,
            microchipNumber: p.microchipNumber, allergies: p.allergies, isActive: p.isActive,
            registrationDate: p.registrationDate, updatedAt: p.updatedAt)
    }

    /// Every visible version of the pet's records, newest lineage first, newest version first (the API's history).
    package static func recordHistory(request: Request, petID: UUID) async throws -> [ConsoleRecord] {
        let caller = try request.caller
        return try await MedicalRecordStore(db: request.db).history(of: petID, caller: caller, range: 0..<500).map {
            ConsoleRecord(
                id: $0.id!, originalID: $0.originalID, version: $0.version, isCurrent: $0.isCurrent,
                recordType: $0.recordType, title: $0.title, description: $0.description, diagnosis: $0.diagnosis,
                treatmentPlan: $0.treatmentPlan, medications: $0.medications, notes: $0.notes,
                followUpDate: $0.followUpDate, visitDate: $0.visitDate, weight: $0.weight, createdAt: $0.createdAt)
        }
    }

    /// The pet's visits, newest first (pending reservations left out, as in the API's lists).
    package static func visits(request: Request, petID: UUID) async throws -> [ConsoleVisitSummary] {
        let caller = try request.caller
        guard let page = try await TranscriptStore(db: request.db).listForPet(
            petID, for: caller, state: nil, includePending: false, limit: 100, offset: 0)
        else { throw APIError.petNotFound }
        return page.visits.map { (visit: VisitRow) -> ConsoleVisitSummary in
            var status: String?
            if case .string(let value)? = visit.metadata["summary_status"] { status = value }
            return ConsoleVisitSummary(
                id: visit.id, appointmentID: visit.appointmentID, source: visit.source, state: visit.state,
                visitDate: visit.visitDate, summary: visit.summary, excerpt: String(visit.fullText.prefix(240)),
                hasAudio: visit.storageKey != nil, summaryStatus: status)
        }
    }

    /// A pet owner's own pets (their read-only console).
    package static func ownPets(request: Request) async throws -> [ConsolePetBrief] {
        let caller = try request.caller
        guard caller.isOwner, let ownerID = caller.petOwnerID else { return [] }
        return try await ClinicOwners.owner(request: request, id: ownerID).pets
    }

    /// The practice a new pet's owner belongs to is not needed by the form; the zone of "today" for the form's
    /// date limits is the caller's practice zone (UTC for an ADMIN).
    package static func practiceZone(request: Request) async throws -> TimeZone {
        let caller = try request.caller
        guard let practiceID = caller.practiceID,
            let zone = try await request.readPathCaches.zone(of: practiceID, on: request.db)
        else { return .gmt }
        return zone.zone
    }
}

extension ClinicPets {
    /// The pet of a record version the caller may see (nil otherwise).
    package static func petOfRecord(request: Request, recordID: UUID) async throws -> UUID? {
        let caller = try request.caller
        guard let record = try await MedicalRecord.find(recordID, on: request.db) else { return nil }
        let visible = try await MedicalRecordStore(db: request.db).visibleRecords(of: record.petID, caller: caller)
            .filter(\.$id == recordID).count()
        guard visible == 1, try await PetStore(db: request.db).pet(record.petID, for: caller) != nil else { return nil }
        return record.petID
    }
}
