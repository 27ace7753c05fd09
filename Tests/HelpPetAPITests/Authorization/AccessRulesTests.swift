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
