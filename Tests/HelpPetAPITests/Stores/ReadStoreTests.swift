import AppCore
import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import HelpPetAPI

/// The one-statement reads (docs/read-path.md), called directly: their edge cases and the caller scoping inside the SQL
/// (an invisible row is simply not returned). Both engines, like every database suite.
@Suite struct ReadStoreTests {
    static let admin = Caller(id: Demo.admin.id, role: .admin, practiceID: nil, petOwnerID: nil)
    static let vet = Caller(id: Demo.vet1.id, role: .vet, practiceID: Demo.practiceID, petOwnerID: nil)
    static let owner1 = Caller(id: Demo.owner1.id, role: .petOwner, practiceID: nil, petOwnerID: Demo.owner(1))
    static let owner2 = Caller(id: UUID(), role: .petOwner, practiceID: nil, petOwnerID: Demo.owner(2))
    /// A member of a practice that is not the demo practice.
    static let stranger = Caller(id: UUID(), role: .vet, practiceID: UUID(), petOwnerID: nil)

    /// A pet of owner 1 without records or visits.
    static func newPet(_ app: Application) async throws -> UUID {
        let pet = Pet()
        pet.id = UUID()
        pet.ownerID = Demo.owner(1)
        pet.name = "Pepper"
        pet.species = "dog"
        pet.isActive = true
        pet.registrationDate = "2024-01-01"
        pet.createdAt = app.testSeedTime
        pet.updatedAt = app.testSeedTime
        try await pet.create(on: app.db)
        return pet.id!
    }

    @Test func anAppointmentIsScopedToTheCallerInsideTheStatement() async throws {
        try await withTestApp { app in
            let id = Demo.appointmentID(1, app)
            for caller in [Self.admin, Self.vet, Self.owner1] {
                let found = try await AppointmentStore(db: app.db).appointment(id, for: caller)
                #expect(found?.pets.map(\.name) == ["Bella", "Max", "Mittens"], "\(caller.role)")
            }
            for caller in [Self.owner2, Self.stranger] {
                #expect(try await AppointmentStore(db: app.db).appointment(id, for: caller) == nil, "\(caller.role)")
            }
            #expect(try await AppointmentStore(db: app.db).appointment(UUID(), for: Self.admin) == nil)
        }
    }

    @Test func anAppointmentWhosePetLinksWereDeletedIsReadWithNoPets() async throws {
        try await withTestApp { app in
            let id = Demo.appointmentID(1, app)
            try await app.db.sql.raw("DELETE FROM appointment_pets WHERE appointment_id = \(bind: id)").run()
            let found = try #require(try await AppointmentStore(db: app.db).appointment(id, for: Self.vet))
            #expect(found.id == id.lowercased && found.pets.isEmpty)
            let listed = try await AppointmentStore(db: app.db).responses(for: [id, Demo.appointmentID(2, app)])
            #expect(listed.map(\.pets.count) == [0, 1])
        }
    }

    @Test func aPendingReservationIsNoRecordingOfTheAppointmentsPet() async throws {
        try await RecordingFixtures.withApp { app in
            let id = Demo.appointmentID(1, app)
            let token = try await app.token(for: Demo.vet1)
            let started = try await RecordingFixtures.initiated(app, token, pet: Demo.pet(1), appointment: id)
            var read = try #require(try await AppointmentStore(db: app.db).appointment(id, for: Self.vet))
            #expect(read.pets.allSatisfy { $0.recording == nil })
            try await RecordingFixtures.upload(app, started, bytes: RecordingFixtures.bytes(1000))
            #expect(try await RecordingFixtures.complete(app, token, started.visitID).status == .ok)
            read = try #require(try await AppointmentStore(db: app.db).appointment(id, for: Self.vet))
            #expect(read.pets[0].recording?.visitID == started.visitID)
            #expect(read.pets[0].recording?.state == "processing")
            #expect(read.pets[1].recording == nil)
        }
    }

    @Test func aVetsDayHoldsTheirAppointmentsAndOnlyActiveOverlappingWindows() async throws {
        try await withTestApp { app in
            let day = app.seedDay
            let window = LocalDay.window(of: day, in: Demo.zone)
            func availability(_ start: Date, hours: Double, active: Bool = true) async throws -> UUID {
                let w = VetAvailability()
                w.id = UUID()
                w.vetUserID = Demo.vet1.id
                w.practiceID = Demo.practiceID
                w.startAt = start
                w.endAt = start.addingTimeInterval(hours * 3600)
                w.availabilityType = "AVAILABLE"
                w.isActive = active
                w.createdAt = app.testSeedTime
                w.updatedAt = app.testSeedTime
                try await w.create(on: app.db)
                return w.id!
            }
            let morning = try await availability(window.lowerBound.addingTimeInterval(8 * 3600), hours: 4)
            let overnight = try await availability(window.lowerBound.addingTimeInterval(-2 * 3600), hours: 3)
            _ = try await availability(window.lowerBound.addingTimeInterval(14 * 3600), hours: 2, active: false)
            _ = try await availability(window.upperBound, hours: 2)  // touches the day's end: not in it

            let rows = try await AppointmentStore(db: app.db).vetDay(
                vet: Demo.vet1.id, practice: Demo.practiceID, window: window)
            #expect(rows.appointments.map(\.id) == [1, 2, 3].map { Demo.appointmentID($0, app).lowercased })
            #expect(rows.appointments[0].pets.count == 3)
            #expect(rows.windows.map(\.availabilityID) == [overnight, morning])

            // Another practice's day of the same vet, and an empty day: nothing, and no error.
            let other = try await AppointmentStore(db: app.db).vetDay(
                vet: Demo.vet1.id, practice: UUID(), window: window)
            #expect(other.appointments.isEmpty && other.windows.isEmpty)
            let empty = LocalDay.window(of: day.adding(days: 40), in: Demo.zone)
            let none = try await AppointmentStore(db: app.db).vetDay(vet: Demo.vet1.id, practice: Demo.practiceID, window: empty)
            #expect(none.appointments.isEmpty && none.windows.isEmpty)
        }
    }

    @Test func aPetIsScopedInsideTheStatementAndCarriesTheZoneOfItsAge() async throws {
        try await withTestApp { app in
            let bella = Demo.pet(1)
            for caller in [Self.admin, Self.vet, Self.owner1] {
                let row = try #require(try await PetStore(db: app.db).pet(bella, for: caller), "\(caller.role)")
                #expect(row.pet.name == "Bella" && row.owner.ownerFirstName == "John")
                // Owner 1 is a client of the demo practice only: every caller counts in its zone.
                #expect(row.ageZone == Demo.zone.identifier)
            }
            for caller in [Self.owner2, Self.stranger] {
                #expect(try await PetStore(db: app.db).pet(bella, for: caller) == nil, "\(caller.role)")
            }
        }
    }

    @Test func aPetsRecordsPageKeepsItsCountsAndIsScoped() async throws {
        try await withTestApp { app in
            let pepper = try await Self.newPet(app)
            let none = try #require(try await MedicalRecordStore(db: app.db).listForPet(
                pepper, for: Self.vet, currentOnly: false, limit: 50, offset: 0))
            #expect(none.total == 0 && none.current == 0 && none.records.isEmpty)

            let bella = try #require(try await MedicalRecordStore(db: app.db).listForPet(
                Demo.pet(1), for: Self.owner1, currentOnly: false, limit: 50, offset: 0))
            #expect(bella.total >= 2 && bella.current < bella.total)
            #expect(bella.records.count == bella.total)
            #expect(bella.records.allSatisfy { $0.1.identifier == Demo.zone.identifier })
            let dates = bella.records.map(\.0.createdAt)
            #expect(dates == dates.sorted(by: >))
            let pastTheEnd = try #require(try await MedicalRecordStore(db: app.db).listForPet(
                Demo.pet(1), for: Self.vet, currentOnly: false, limit: 10, offset: 1000))
            #expect(pastTheEnd.total == bella.total && pastTheEnd.records.isEmpty)
            let current = try #require(try await MedicalRecordStore(db: app.db).listForPet(
                Demo.pet(1), for: Self.vet, currentOnly: true, limit: 50, offset: 0))
            #expect(current.total == bella.current && current.records.allSatisfy(\.0.isCurrent))

            for caller in [Self.owner2, Self.stranger] {
                #expect(try await MedicalRecordStore(db: app.db).listForPet(
                    Demo.pet(1), for: caller, currentOnly: false, limit: 50, offset: 0) == nil)
            }
        }
    }

    @Test func aPetsTranscriptsHidePendingReservationsAndAreScoped() async throws {
        try await RecordingFixtures.withApp { app in
            let pepper = try await Self.newPet(app)
            let none = try #require(try await TranscriptStore(db: app.db).listForPet(
                pepper, for: Self.vet, state: nil, includePending: true, limit: 50, offset: 0))
            #expect(none.total == 0 && none.visits.isEmpty)

            let token = try await app.token(for: Demo.vet1)
            let started = try await RecordingFixtures.initiated(app, token, pet: pepper)
            let hidden = try #require(try await TranscriptStore(db: app.db).listForPet(
                pepper, for: Self.vet, state: nil, includePending: false, limit: 50, offset: 0))
            #expect(hidden.total == 0 && hidden.visits.isEmpty)
            let shown = try #require(try await TranscriptStore(db: app.db).listForPet(
                pepper, for: Self.vet, state: nil, includePending: true, limit: 50, offset: 0))
            #expect(shown.total == 1 && shown.visits.map(\.id.lowercased) == [started.visitID])

            for caller in [Self.owner2, Self.stranger] {
                #expect(try await TranscriptStore(db: app.db).listForPet(
                    pepper, for: caller, state: nil, includePending: true, limit: 50, offset: 0) == nil)
            }
            #expect(try await VisitStore(db: app.db).playback(UUID(uuidString: started.visitID)!, for: Self.stranger) == nil)
            #expect(try await VisitStore(db: app.db).playback(UUID(uuidString: started.visitID)!, for: Self.owner2) == nil)
            let own = try await VisitStore(db: app.db).playback(UUID(uuidString: started.visitID)!, for: Self.owner1)
            #expect(own?.source == "recording" && own?.storageKey == started.key)
        }
    }
}
