import AppCore
import Fluent
import Foundation
import Vapor

/// The demo data of contract §8. Rows are identified by fixed ids and never overwritten, so `seed` is idempotent;
/// re-running it on a later day adds that day's appointments.
public enum HelpPetDemoData {
    static let practiceID = UUID(uuidString: "d0000000-0000-4000-8000-000000000001")!
    static let adminID = UUID(uuidString: "d1000000-0000-4000-8000-000000000001")!
    static let vet1ID = UUID(uuidString: "d1000000-0000-4000-8000-000000000002")!
    static let vet2ID = UUID(uuidString: "d1000000-0000-4000-8000-000000000003")!
    static let owner1UserID = UUID(uuidString: "d1000000-0000-4000-8000-000000000004")!

    /// Precomputed bcrypt hashes (cost 12) of `admin123` and `password123`, so the first start is fast.
    static let adminHash = "$2b$12$3BZb/ZEwR565esz/UsfEcuYK7mZuunImQaxbRb1Xse/SgDC2/3cKm"
    package static let passwordHash = "$2b$12$djRlWld8lXN1eDh4vnX23euJ/1NIZc5F1QWqWn05qJ7M72Sg4yBCO"

    public static let credentials = """
        HelpPet demo logins (development only):
          admin  / admin123     (ADMIN)
          vet1   / password123  (VET_STAFF, Dr. Sarah Johnson)
          vet2   / password123  (VET_STAFF, Dr. Michael Chen)
          owner1 / password123  (PET_OWNER, John Smith)
        """

    static func owner(_ n: Int) -> UUID { UUID(uuidString: "d2000000-0000-4000-8000-00000000000\(n)")! }
    static func pet(_ n: Int) -> UUID { UUID(uuidString: "d3000000-0000-4000-8000-00000000000\(n)")! }
    static func record(_ n: Int) -> UUID { UUID(uuidString: "d4000000-0000-4000-8000-00000000000\(n)")! }
    static let visitID = UUID(uuidString: "d5000000-0000-4000-8000-000000000001")!

    /// The id of demo appointment `n` for a practice-local day.
    public static func appointmentID(_ n: Int, day: CalendarDay) -> UUID {
        NameBasedUUID.v5(namespace: practiceID, name: "demo-appointment:\(n):\(day)")
    }

    public static func seed(on db: any Database, now: Date) async throws {
        let zone = TimeZone(identifier: "America/Los_Angeles")!
        let today = LocalDay.day(containing: now, in: zone)

        let practice = Practice()
        practice.id = practiceID
        practice.name = "HelpPet Demo Clinic"
        practice.timezone = zone.identifier
        practice.phone = "+1-555-010-0100"
        practice.email = "frontdesk@helppet.ai"
        practice.address = "100 Market Street, San Francisco, CA 94105"
        practice.isActive = true
        practice.createdAt = now
        practice.updatedAt = now
        try await createIfMissing(practice, on: db)

        let users: [(UUID, String, String, String, String, UserRole, UUID?)] = [
            (adminID, "admin", adminHash, "System Administrator", "admin@helppet.ai", .admin, nil),
            (vet1ID, "vet1", passwordHash, "Dr. Sarah Johnson", "vet1@helppet.ai", .vetStaff, practiceID),
            (vet2ID, "vet2", passwordHash, "Dr. Michael Chen", "vet2@helppet.ai", .vetStaff, practiceID),
            (owner1UserID, "owner1", passwordHash, "John Smith", "john.smith@email.com", .petOwner, nil),
        ]
        for (id, username, hash, fullName, email, role, practice) in users {
            let user = User()
            user.id = id
            user.username = username
            user.passwordHash = hash
            user.fullName = fullName
            user.email = email
            user.roleValue = role.rawValue
            user.practiceID = practice
            user.isActive = true
            user.credentialsChangedAt = Date(timeIntervalSince1970: 0)
            user.tokenVersion = 0
            user.createdAt = now
            user.updatedAt = now
            try await createIfMissing(user, on: db)
        }

        let owners: [(Int, String, String, String, String, String, UUID?)] = [
            (1, "John", "Smith", "john.smith@email.com", "+1-555-123-4567", "742 Evergreen Terrace, San Mateo, CA 94401", owner1UserID),
            (2, "Emily", "Davis", "emily.davis@email.com", "+1-555-234-5678", "18 Oak Street, Daly City, CA 94014", nil),
            (3, "Carlos", "Rivera", "carlos.rivera@email.com", "+1-555-345-6789", "9 Bay Road, Redwood City, CA 94063", nil),
            (4, "Priya", "Patel", "priya.patel@email.com", "+1-555-456-7890", "55 Hill Avenue, Burlingame, CA 94010", nil),
        ]
        for (n, first, last, email, phone, address, userID) in owners {
            let owner = PetOwner()
            owner.id = Self.owner(n)
            owner.firstName = first
            owner.lastName = last
            owner.email = email
            owner.phone = phone
            owner.address = address
            owner.userID = userID
            owner.createdAt = now
            owner.updatedAt = now
            try await createIfMissing(owner, on: db)
            let link = PetOwnerPractice()
            link.id = .init(petOwnerID: Self.owner(n), practiceID: practiceID)
            link.createdAt = now
            if try await PetOwnerPractice.find(link.id, on: db) == nil { try await link.create(on: db) }
        }

        let pets: [(Int, Int, String, String, String, String, String, String, Double, String?, String)] = [
            (1, 1, "Bella", "dog", "Golden Retriever", "golden", "female", "2020-03-15", 65.5, "123456789012345", "2020-04-01"),
            (2, 1, "Max", "dog", "Labrador Retriever", "black", "male", "2018-07-04", 72.0, "985112003456789", "2018-08-10"),
            (3, 1, "Mittens", "cat", "Siamese", "cream", "female", "2021-05-20", 9.2, nil, "2021-06-01"),
            (4, 2, "Fluffy", "cat", "Persian", "white", "female", "2019-11-02", 10.4, nil, "2019-12-01"),
            (5, 3, "Rocky", "dog", "German Shepherd", "black and tan", "male", "2017-09-12", 80.0, "900164000123456", "2017-10-15"),
            (6, 4, "Luna", "cat", "Maine Coon", "grey", "female", "2022-02-14", 12.5, nil, "2022-03-01"),
            (7, 4, "Charlie", "dog", "Beagle", "tricolor", "male", "2016-06-30", 24.0, nil, "2016-08-01"),
        ]
        for (n, ownerN, name, species, breed, color, gender, born, weight, chip, registered) in pets {
            let pet = Pet()
            pet.id = Self.pet(n)
            pet.ownerID = owner(ownerN)
            pet.name = name
            pet.species = species
            pet.breed = breed
            pet.color = color
            pet.gender = gender
            pet.dateOfBirth = born
            pet.weight = weight
            pet.microchipNumber = chip
            pet.isActive = true
            pet.registrationDate = registered
            pet.createdAt = now
            pet.updatedAt = now
            try await createIfMissing(pet, on: db)
        }

        try await seedAppointments(day: today, zone: zone, now: now, on: db)
        try await seedRecords(today: today, now: now, on: db)
        try await seedVisit(today: today, zone: zone, now: now, on: db)
    }

    static func seedAppointments(day: CalendarDay, zone: TimeZone, now: Date, on db: any Database) async throws {
        let rows: [(Int, Int, Int, UUID, Int, [Int], AppointmentType, Int, AppointmentStatus, String, String?)] = [
            (1, 9, 0, vet1ID, 1, [1, 2, 3], .checkup, 60, .scheduled, "Multi-pet Wellness Exam - Smith Family",
             "Annual wellness exams for all three pets"),
            (2, 10, 30, vet1ID, 2, [4], .vaccination, 30, .confirmed, "Annual Vaccinations - Fluffy", nil),
            (3, 14, 0, vet1ID, 3, [5], .followUp, 30, .scheduled, "Follow-up - Rocky", "Recheck after ear infection treatment"),
            (4, 9, 30, vet2ID, 4, [6], .checkup, 30, .scheduled, "Routine Checkup - Luna", nil),
            (5, 13, 0, vet2ID, 4, [7], .surgery, 90, .scheduled, "Dental Surgery - Charlie",
             "Scaling and two extractions under anesthesia"),
        ]
        for (n, hour, minute, vet, ownerN, petNs, type, minutes, status, title, description) in rows {
            let id = appointmentID(n, day: day)
            guard try await Appointment.find(id, on: db) == nil else { continue }
            let a = Appointment()
            a.id = id
            a.practiceID = practiceID
            a.petOwnerID = owner(ownerN)
            a.assignedVetUserID = vet
            a.createdByUserID = adminID
            a.appointmentDate = LocalDay.instant(on: day, hour: hour, minute: minute, in: zone)
            a.durationMinutes = minutes
            a.appointmentType = type.rawValue
            a.statusValue = status.rawValue
            a.title = title
            a.description = description
            a.notes = nil
            a.createdAt = now
            a.updatedAt = now
            try await a.create(on: db)
            for (position, petN) in petNs.enumerated() {
                let link = AppointmentPet()
                link.id = .init(appointmentID: id, petID: pet(petN))
                link.position = position
                try await link.create(on: db)
            }
        }
    }

    static func seedRecords(today: CalendarDay, now: Date, on db: any Database) async throws {
        func make(_ n: Int, original: Int, version: Int, current: Bool, pet petN: Int, type: MedicalRecordType,
                  title: String, description: String?, diagnosis: String? = nil, plan: String? = nil,
                  medications: [String], notes: String? = nil, followUp: String? = nil, by: UUID,
                  created: Date, updated: Date) -> MedicalRecord {
            let r = MedicalRecord()
            r.id = record(n)
            r.originalID = record(original)
            r.version = version
            r.isCurrent = current
            r.petID = pet(petN)
            r.practiceID = practiceID
            r.recordType = type.rawValue
            r.title = title
            r.description = description
            r.diagnosis = diagnosis
            r.treatmentPlan = plan
            r.medications = medications
            r.notes = notes
            r.followUpDate = followUp
            r.followUpRequired = followUp != nil
            r.createdBy = by
            r.createdAt = created
            r.updatedAt = updated
            r.visitDate = created
            return r
        }
        let earlier = now.addingTimeInterval(-1)
        let records = [
            make(1, original: 1, version: 1, current: false, pet: 1, type: .vaccination, title: "Annual Vaccinations",
                 description: "DHPP vaccine administered", medications: ["DHPP Vaccine"], by: vet1ID,
                 created: earlier, updated: now),
            make(2, original: 1, version: 2, current: true, pet: 1, type: .vaccination, title: "Annual Vaccinations",
                 description: "DHPP and Rabies vaccines administered", plan: "Follow up in 1 year",
                 medications: ["DHPP Vaccine", "Rabies Vaccine"], notes: "No adverse reactions observed",
                 followUp: today.adding(years: 1).description, by: vet1ID, created: now, updated: now),
            make(3, original: 3, version: 1, current: true, pet: 2, type: .checkup, title: "Wellness Exam",
                 description: "Full physical examination", diagnosis: "Healthy", medications: [], by: vet1ID,
                 created: now, updated: now),
            make(4, original: 4, version: 1, current: true, pet: 4, type: .dental, title: "Dental Cleaning",
                 description: "Routine scaling and polishing", medications: ["Chlorhexidine oral rinse"], by: vet2ID,
                 created: now, updated: now),
        ]
        for r in records { try await createIfMissing(r, on: db) }
    }

    static func seedVisit(today: CalendarDay, zone: TimeZone, now: Date, on db: any Database) async throws {
        let v = Visit()
        v.id = visitID
        v.petID = pet(1)
        v.practiceID = practiceID
        v.appointmentID = nil
        v.source = VisitSource.manual.rawValue
        v.stateValue = VisitState.processed.rawValue
        v.visitDate = LocalDay.instant(on: today.adding(days: -30), hour: 10, minute: 0, in: zone)
        v.fullText = "Patient presented for routine wellness exam. Weight stable at 65.5 pounds. Heart and lungs normal. Owner reports good appetite and normal activity."
        v.summary = "Routine wellness exam completed. No issues found."
        v.metadata = ["chief_complaint": .string("Annual wellness exam"), "duration_minutes": .integer(25)]
        v.createdBy = vet1ID
        v.createdAt = now
        v.updatedAt = now
        try await createIfMissing(v, on: db)
    }

    static func createIfMissing<M: Model>(_ model: M, on db: any Database) async throws where M.IDValue == UUID {
        if try await M.find(model.id, on: db) == nil { try await model.create(on: db) }
    }
}
