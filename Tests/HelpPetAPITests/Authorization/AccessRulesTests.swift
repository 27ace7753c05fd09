import AppCore
import Foundation
import Testing
import VaporTesting

@testable import HelpPetAPI

/// The one set of access rules: `Reach` decides how far a caller sees, and every by-id lookup (`VisibilityStore`)
/// applies it inside its statement. Both engines, like every database suite.
@Suite struct AccessRulesTests {
    static let admin = Caller(id: Demo.admin.id, role: .admin, practiceID: nil, petOwnerID: nil)
    static let vet = Caller(id: Demo.vet1.id, role: .vet, practiceID: Demo.practiceID, petOwnerID: nil)
    static let staff = Caller(id: UUID(), role: .vetStaff, practiceID: Demo.practiceID, petOwnerID: nil)
    static let owner1 = Caller(id: Demo.owner1.id, role: .petOwner, practiceID: nil, petOwnerID: Demo.owner(1))
    static let owner2 = Caller(id: UUID(), role: .petOwner, practiceID: nil, petOwnerID: Demo.owner(2))
    static let memberOfAnotherPractice = Caller(id: UUID(), role: .vet, practiceID: UUID(), petOwnerID: nil)
    static let memberWithoutPractice = Caller(id: UUID(), role: .vetStaff, practiceID: nil, petOwnerID: nil)
    static let pending = Caller(id: UUID(), role: .pending, practiceID: Demo.practiceID, petOwnerID: nil)

    @Test func eachRoleReachesWhatTheContractGivesIt() {
        #expect(Reach(Self.admin) == .everything)
        #expect(Reach(Self.vet) == .practice(Demo.practiceID))
        #expect(Reach(Self.staff) == .practice(Demo.practiceID))
        #expect(Reach(Self.owner1) == .owner(Demo.owner(1)))
    }

    @Test func aPendingUserAMemberWithoutAPracticeAndAnOwnerWithoutARecordReachNothing() {
        #expect(Reach(Self.pending) == .nothing)
        #expect(Reach(Self.memberWithoutPractice) == .nothing)
        #expect(Reach(Caller(id: UUID(), role: .petOwner, practiceID: nil, petOwnerID: nil)) == .nothing)
    }

    /// Every kind of row, looked up by id: who sees it, and who gets the same not-found as for a missing row.
    @Test func aRowOutsideTheCallersReachIsAnsweredLikeAMissingOne() async throws {
        try await withTestApp { app in
            let store = VisibilityStore(db: app.db)
            // Owner 2 is also a client of the demo practice: she sees the practice, not owner 1's rows.
            let lookups: [(String, Bool, @Sendable (Caller) async throws -> UUID?)] = [
                ("Practice not found", true, { try await store.practice(Demo.practiceID, for: $0).id }),
                ("Pet owner not found", false, { try await store.petOwner(Demo.owner(1), for: $0).id }),
                ("Pet not found", false, { try await store.pet(Demo.pet(1), for: $0).id }),
                ("Appointment not found", false, { try await store.appointment(Demo.appointmentID(1, app), for: $0).id }),
                ("Medical record not found", false, { try await store.medicalRecord(Demo.record(2), for: $0).id }),
                ("Visit not found", false, { try await store.visit(Demo.visitID, for: $0).id }),
            ]
            for (notFound, otherClientSees, lookup) in lookups {
                let seers = [Self.admin, Self.vet, Self.staff, Self.owner1] + (otherClientSees ? [Self.owner2] : [])
                for caller in seers {
                    let seen = try await lookup(caller)
                    #expect(seen != nil, "\(notFound): \(caller.role) must see it")
                }
                let outsiders = (otherClientSees ? [] : [Self.owner2])
                    + [Self.memberOfAnotherPractice, Self.memberWithoutPractice, Self.pending]
                for caller in outsiders {
                    let error = await #expect(throws: APIError.self, "\(notFound): \(caller.role)") {
                        try await lookup(caller)
                    }
                    #expect(error?.reason == notFound)
                    #expect(error?.status == .notFound)
                }
            }
        }
    }

    /// The hot reads write the rules into their own statement (prepared on PostgreSQL, with the reach bound as
    /// values): each sees exactly what the by-id lookups see, for every kind of caller, in both forms: with
    /// `DATABASE_PREPARED_STATEMENTS` off PostgreSQL runs the SQLKit statements that SQLite always runs.
    @Test(arguments: [true, false])
    func theHotReadsSeeExactlyWhatTheLookupsSee(preparedStatements: Bool) async throws {
        try await withTestApp(env: ["DATABASE_PREPARED_STATEMENTS": "\(preparedStatements)"]) { app in
            #expect(app.db.runsPreparedReads == (preparedStatements && app.db.engine == .postgres))
            if app.db.engine == .postgres {
                // Prepared, the reads keep one generic plan per connection instead of planning every execution.
                let mode = try await app.db.sql.raw("SHOW plan_cache_mode").first()?.decode(column: "plan_cache_mode", as: String.self)
                #expect(mode == (preparedStatements ? "force_generic_plan" : "auto"))
            }
            let lookups = VisibilityStore(db: app.db)
            let appointment = Demo.appointmentID(1, app)
            let callers = [
                Self.admin, Self.vet, Self.staff, Self.owner1, Self.owner2, Self.memberOfAnotherPractice,
                Self.memberWithoutPractice, Self.pending,
            ]
            for caller in callers {
                let role = "\(caller.role) \(caller.practiceID == nil ? "without" : "with") a practice"
                let petSeen = (try? await lookups.pet(Demo.pet(1), for: caller)) != nil
                let appointmentSeen = (try? await lookups.appointment(appointment, for: caller)) != nil
                let visitSeen = (try? await lookups.visit(Demo.visitID, for: caller)) != nil
                let pet = try await PetStore(db: app.db).pet(Demo.pet(1), for: caller)
                #expect((pet != nil) == petSeen, "pet: \(role)")
                let appointmentRead = try await AppointmentStore(db: app.db).appointment(appointment, for: caller)
                #expect((appointmentRead != nil) == appointmentSeen, "appointment: \(role)")
                let playback = try await VisitStore(db: app.db).playback(Demo.visitID, for: caller)
                #expect((playback != nil) == visitSeen, "playback: \(role)")
                let transcripts = try await TranscriptStore(db: app.db).listForPet(
                    Demo.pet(1), for: caller, state: nil, includePending: true, limit: 50, offset: 0)
                #expect((transcripts != nil) == petSeen, "transcripts: \(role)")
                #expect(transcripts.map { $0.visits.contains { $0.id == Demo.visitID } } ?? false == visitSeen,
                        "transcripts list the visit: \(role)")
                let records = try await MedicalRecordStore(db: app.db).listForPet(
                    Demo.pet(1), for: caller, currentOnly: false, limit: 50, offset: 0)
                #expect((records != nil) == petSeen, "records: \(role)")
            }
        }
    }

    /// The filters a prepared read takes as values narrow it exactly as the SQL they replace.
    @Test func theHotReadsFiltersNarrowTheirLists() async throws {
        try await withTestApp { app in
            let transcripts = TranscriptStore(db: app.db)
            let processed = try await transcripts.listForPet(
                Demo.pet(1), for: Self.vet, state: .processed, includePending: false, limit: 50, offset: 0)
            #expect(processed?.visits.map(\.id) == [Demo.visitID])
            let failed = try await transcripts.listForPet(
                Demo.pet(1), for: Self.vet, state: .failed, includePending: false, limit: 50, offset: 0)
            #expect(failed?.total == 0 && failed?.visits.isEmpty == true)
            let records = MedicalRecordStore(db: app.db)
            let all = try #require(try await records.listForPet(
                Demo.pet(1), for: Self.vet, currentOnly: false, limit: 50, offset: 0))
            let current = try #require(try await records.listForPet(
                Demo.pet(1), for: Self.vet, currentOnly: true, limit: 50, offset: 0))
            #expect(all.total > 0)
            #expect(current.total == all.current)
            #expect(current.records.allSatisfy { $0.0.isCurrent })
            let secondPage = try #require(try await records.listForPet(
                Demo.pet(1), for: Self.vet, currentOnly: false, limit: 1, offset: 1))
            #expect(secondPage.records.count == min(1, all.total - 1))
        }
    }

    @Test func aMissingRowIsNotFoundEvenForTheAdministrator() async throws {
        try await withTestApp { app in
            let error = await #expect(throws: APIError.self) {
                try await VisibilityStore(db: app.db).visit(UUID(), for: Self.admin)
            }
            #expect(error?.reason == "Visit not found")
        }
    }

    @Test func anOwnerIsAClientOnlyOfAPracticeTheyAreLinkedTo() async throws {
        try await withTestApp { app in
            let store = VisibilityStore(db: app.db)
            let linked = try await store.isClient(owner: Demo.owner(1), of: Demo.practiceID)
            let otherPractice = try await store.isClient(owner: Demo.owner(1), of: UUID())
            let unknownOwner = try await store.isClient(owner: UUID(), of: Demo.practiceID)
            #expect(linked)
            #expect(!otherPractice)
            #expect(!unknownOwner)
        }
    }
}
