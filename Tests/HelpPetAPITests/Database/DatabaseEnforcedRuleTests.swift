import AppCore
import Foundation
import SQLKit
import Testing

/// Contract §3.3: every integrity rule C1–C16 is a real constraint. Each test runs the violating SQL directly against
/// the migrated schema (on whichever engine this run uses: SQLite by default, PostgreSQL with `DATABASE_URL`) and
/// expects the database itself to reject it. Each violation is preceded by a control statement of the same shape
/// that must succeed, so a rejection cannot come from an unrelated mistake in the statement.
@Suite struct DatabaseEnforcedRuleTests {
    @Test("C1 users: unique lower(username)")
    func c1UsernameUniqueIgnoringCase() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            try await sql.run(sql.user(username: "vet1.other", email: "c1-a@example.com"))
            await sql.expectRejected(.unique, sql.user(username: "VET1", email: "c1-b@example.com"))
            await sql.expectRejected(.unique, sql.user(username: "Vet1.Other", email: "c1-c@example.com"))
        }
    }

    @Test("C2 users: unique lower(email)")
    func c2EmailUniqueIgnoringCase() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            try await sql.run(sql.user(username: "c2a", email: "c2@example.com"))
            await sql.expectRejected(.unique, sql.user(username: "c2b", email: "VET1@HelpPet.AI"))
            await sql.expectRejected(.unique, sql.user(username: "c2c", email: "C2@EXAMPLE.COM"))
        }
    }

    @Test("C3 users: role values; practice exactly for VET and VET_STAFF")
    func c3RoleAndPractice() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            try await sql.run(sql.user(username: "c3vet", email: "c3vet@example.com", role: "VET", practice: Demo.practiceID))
            try await sql.run(sql.user(username: "c3staff", email: "c3staff@example.com", role: "VET_STAFF", practice: Demo.practiceID))
            try await sql.run(sql.user(username: "c3admin", email: "c3admin@example.com", role: "ADMIN"))
            try await sql.run(sql.user(username: "c3owner", email: "c3owner@example.com", role: "PET_OWNER"))
            await sql.expectRejected(.check, sql.user(username: "c3x1", email: "c3x1@example.com", role: "DOCTOR"))
            await sql.expectRejected(.check, sql.user(username: "c3x2", email: "c3x2@example.com", role: "admin"))
            await sql.expectRejected(.check, sql.user(username: "c3x3", email: "c3x3@example.com", role: "VET"))
            await sql.expectRejected(.check, sql.user(username: "c3x4", email: "c3x4@example.com", role: "VET_STAFF"))
            await sql.expectRejected(
                .check, sql.user(username: "c3x5", email: "c3x5@example.com", role: "ADMIN", practice: Demo.practiceID))
            await sql.expectRejected(
                .check, sql.user(username: "c3x6", email: "c3x6@example.com", role: "PET_OWNER", practice: Demo.practiceID))
            // The rule also holds for updates.
            await sql.expectRejected(.check, "UPDATE users SET practice_id = NULL WHERE id = \(bind: Demo.vet1.id)")
            await sql.expectRejected(.check, "UPDATE users SET role = 'ADMIN' WHERE id = \(bind: Demo.vet1.id)")
        }
    }

    @Test("C4 pet_owners: unique user_id where not null")
    func c4OneOwnerRecordPerLogin() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            try await sql.run(sql.owner(user: nil))
            try await sql.run(sql.owner(user: nil))
            try await sql.run(sql.owner(user: Demo.vet2.id))
            await sql.expectRejected(.unique, sql.owner(user: Demo.owner1.id))
            await sql.expectRejected(.unique, "UPDATE pet_owners SET user_id = \(bind: Demo.owner1.id) WHERE id = \(bind: Demo.owner(2))")
        }
    }

    @Test("C5 pet_owner_practices: primary key (pet_owner_id, practice_id)")
    func c5OneAssociationPerOwnerAndPractice() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let other = UUID()
            try await sql.run(sql.practice(id: other))
            try await sql.run(sql.ownerPractice(owner: Demo.owner(1), practice: other))
            await sql.expectRejected(.unique, sql.ownerPractice(owner: Demo.owner(1), practice: other))
            await sql.expectRejected(.unique, sql.ownerPractice(owner: Demo.owner(2), practice: Demo.practiceID))
        }
    }

    @Test("C6 pets: unique upper(microchip_number) where not null")
    func c6MicrochipUniqueIgnoringCase() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            try await sql.run(sql.pet(microchip: nil))
            try await sql.run(sql.pet(microchip: nil))
            try await sql.run(sql.pet(microchip: "ab-123"))
            await sql.expectRejected(.unique, sql.pet(microchip: "AB-123"))
            await sql.expectRejected(.unique, sql.pet(owner: Demo.owner(3), microchip: "123456789012345"))
        }
    }

    @Test("C7 appointments: status, type and duration_minutes 5–480")
    func c7AppointmentValues() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            for status in ["scheduled", "confirmed", "in_progress", "completed", "cancelled"] {
                try await sql.run(sql.appointment(status: status))
            }
            for type in ["checkup", "vaccination", "surgery", "emergency", "follow_up", "consultation"] {
                try await sql.run(sql.appointment(type: type))
            }
            try await sql.run(sql.appointment(minutes: 5))
            try await sql.run(sql.appointment(minutes: 480))
            await sql.expectRejected(.check, sql.appointment(status: "pending"))
            await sql.expectRejected(.check, sql.appointment(status: "Scheduled"))
            await sql.expectRejected(.check, sql.appointment(type: "spa"))
            await sql.expectRejected(.check, sql.appointment(minutes: 4))
            await sql.expectRejected(.check, sql.appointment(minutes: 481))
            await sql.expectRejected(.check, sql.appointment(minutes: 0))
            await sql.expectRejected(
                .check, "UPDATE appointments SET status = 'done' WHERE id = \(bind: Demo.appointmentID(1, app))")
        }
    }

    @Test("C8 appointment_pets: primary key (appointment_id, pet_id); unique (appointment_id, position)")
    func c8AppointmentPets() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let appointment = Demo.appointmentID(1, app)
            try await sql.run(sql.appointmentPet(appointment: appointment, pet: Demo.pet(4), position: 3))
            await sql.expectRejected(.unique, sql.appointmentPet(appointment: appointment, pet: Demo.pet(1), position: 9))
            await sql.expectRejected(.unique, sql.appointmentPet(appointment: appointment, pet: Demo.pet(5), position: 0))
        }
    }

    @Test("C9 visits: state, source, upload_method values; manual visits have no appointment and no storage key")
    func c9VisitValuesAndManualShape() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let appointment = Demo.appointmentID(1, app)
            try await sql.run(sql.visit(pet: Demo.pet(1), appointment: appointment, state: "new", uploadMethod: "presigned_post"))
            try await sql.run(sql.visit(pet: Demo.pet(2), appointment: appointment, state: "processing", uploadMethod: "multipart"))
            try await sql.run(sql.visit(pet: Demo.pet(3), appointment: appointment, state: "failed", uploadMethod: nil))
            try await sql.run(sql.visit(pet: Demo.pet(4), appointment: nil, source: "manual", state: "processed", uploadMethod: nil))
            let appointment2 = Demo.appointmentID(2, app)
            await sql.expectRejected(.check, sql.visit(pet: Demo.pet(4), appointment: appointment2, state: "done"))
            await sql.expectRejected(.check, sql.visit(pet: Demo.pet(4), appointment: appointment2, source: "upload"))
            await sql.expectRejected(.check, sql.visit(pet: Demo.pet(4), appointment: appointment2, uploadMethod: "ftp"))
            await sql.expectRejected(
                .check, sql.visit(pet: Demo.pet(4), appointment: appointment2, source: "manual", state: "processed", uploadMethod: nil))
            await sql.expectRejected(
                .check, sql.visit(pet: Demo.pet(5), appointment: nil, source: "manual", state: "processed",
                                  storageKey: "visit-recordings/manual.m4a", uploadMethod: nil))
            await sql.expectRejected(.check, "UPDATE visits SET state = 'archived' WHERE id = \(bind: Demo.visitID)")
        }
    }

    @Test("C10 visits: unique (appointment_id, pet_id) where appointment_id is not null")
    func c10OneVisitPerPetPerAppointment() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let appointment = Demo.appointmentID(1, app)
            try await sql.run(sql.visit(pet: Demo.pet(1), appointment: appointment))
            try await sql.run(sql.visit(pet: Demo.pet(2), appointment: appointment))
            await sql.expectRejected(.unique, sql.visit(pet: Demo.pet(1), appointment: appointment, state: "processing"))
        }
    }

    @Test("C11 visits: (appointment_id, pet_id) references appointment_pets")
    func c11VisitPetMustBeInItsAppointment() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let appointment = Demo.appointmentID(1, app)
            try await sql.run(sql.visit(pet: Demo.pet(3), appointment: appointment))
            await sql.expectRejected(.foreignKey, sql.visit(pet: Demo.pet(4), appointment: appointment))
            await sql.expectRejected(.foreignKey, sql.visit(pet: Demo.pet(1), appointment: UUID()))
            // ON DELETE RESTRICT: the pet cannot leave the appointment while its visit exists.
            await sql.expectRejected(
                .foreignKey,
                "DELETE FROM appointment_pets WHERE appointment_id = \(bind: appointment) AND pet_id = \(bind: Demo.pet(3))")
        }
    }

    @Test("C12 visits: one appointment-less recording per (pet, practice, recording_day); recording_day required")
    func c12OneRecordingPerPetPerDay() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            try await sql.run(sql.visit(pet: Demo.pet(1), appointment: nil, recordingDay: "2025-01-15", storageKey: "k/1.m4a"))
            try await sql.run(sql.visit(pet: Demo.pet(1), appointment: nil, recordingDay: "2025-01-16", storageKey: "k/2.m4a"))
            try await sql.run(sql.visit(pet: Demo.pet(2), appointment: nil, recordingDay: "2025-01-15", storageKey: "k/3.m4a"))
            // Manual visits and appointment visits of the same pet that day are other rules.
            try await sql.run(sql.visit(pet: Demo.pet(1), appointment: nil, source: "manual", state: "processed", uploadMethod: nil))
            try await sql.run(sql.visit(pet: Demo.pet(1), appointment: Demo.appointmentID(1, app), recordingDay: "2025-01-15"))
            await sql.expectRejected(
                .unique, sql.visit(pet: Demo.pet(1), appointment: nil, state: "processing", recordingDay: "2025-01-15"))
            await sql.expectRejected(.check, sql.visit(pet: Demo.pet(3), appointment: nil, recordingDay: nil))
        }
    }

    @Test("C13 visits: unique storage_key where not null")
    func c13UniqueStorageKey() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let appointment = Demo.appointmentID(1, app)
            try await sql.run(sql.visit(pet: Demo.pet(1), appointment: appointment, storageKey: "visit-recordings/a.m4a"))
            try await sql.run(sql.visit(pet: Demo.pet(2), appointment: appointment, storageKey: nil))
            await sql.expectRejected(
                .unique, sql.visit(pet: Demo.pet(3), appointment: appointment, storageKey: "visit-recordings/a.m4a"))
        }
    }

    @Test("C14 medical_records: unique (original_id, version); version >= 1; (version = 1) = (original_id = id)")
    func c14VersionNumbering() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let lineage = Demo.record(1)
            try await sql.run(sql.record(original: lineage, version: 3, current: false))
            let first = UUID()
            try await sql.run(sql.record(id: first, original: first, version: 1, current: true))
            await sql.expectRejected(.unique, sql.record(original: lineage, version: 2, current: false))
            let zero = UUID()
            await sql.expectRejected(.check, sql.record(id: zero, original: zero, version: 0, current: false))
            await sql.expectRejected(.check, sql.record(original: lineage, version: -1, current: false))
            // Version 1 of a lineage whose original is another row (record 2 has no version 1 of its own).
            await sql.expectRejected(.check, sql.record(original: Demo.record(2), version: 1, current: false))
            let selfReferencing = UUID()
            await sql.expectRejected(.check, sql.record(id: selfReferencing, original: selfReferencing, version: 2, current: true))
        }
    }

    @Test("C15 medical_records: unique original_id where is_current")
    func c15OneCurrentVersionPerLineage() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let lineage = Demo.record(1)  // version 2 (record 2) is current
            try await sql.run(sql.record(original: lineage, version: 3, current: false))
            await sql.expectRejected(.unique, sql.record(original: lineage, version: 4, current: true))
            await sql.expectRejected(.unique, "UPDATE medical_records SET is_current = \(bind: true) WHERE id = \(bind: Demo.record(1))")
        }
    }

    @Test("C16 transcription_jobs: unique (visit_id, storage_key); status values")
    func c16OneJobPerVisitAndKey() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            let visit = UUID()
            try await sql.run(sql.visit(id: visit, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app), storageKey: "k/v1.m4a"))
            for status in ["queued", "running", "done", "failed", "discarded"] {
                try await sql.run(sql.job(visit: visit, storageKey: "k/\(status).m4a", status: status))
            }
            await sql.expectRejected(.unique, sql.job(visit: visit, storageKey: "k/queued.m4a", status: "done"))
            await sql.expectRejected(.check, sql.job(visit: visit, storageKey: "k/other.m4a", status: "pending"))
            await sql.expectRejected(.check, sql.job(visit: visit, storageKey: "k/other2.m4a", status: "QUEUED"))
        }
    }

    @Test("Foreign keys restrict deletes; transcription jobs cascade with their visit")
    func foreignKeysRestrictAndJobsCascade() async throws {
        try await withTestApp { app in
            let sql = RawSQL(app.db)
            await sql.expectRejected(.foreignKey, "DELETE FROM pets WHERE id = \(bind: Demo.pet(7))")
            await sql.expectRejected(.foreignKey, "DELETE FROM practices WHERE id = \(bind: Demo.practiceID)")
            await sql.expectRejected(.foreignKey, "DELETE FROM users WHERE id = \(bind: Demo.owner1.id)")
            await sql.expectRejected(.foreignKey, sql.pet(owner: UUID()))

            let visit = UUID()
            try await sql.run(sql.visit(id: visit, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app), storageKey: "k/x.m4a"))
            try await sql.run(sql.job(visit: visit, storageKey: "k/x.m4a"))
            try await sql.run("DELETE FROM visits WHERE id = \(bind: visit)")
            let remaining = try await app.db.sql.raw("SELECT COUNT(*) AS n FROM transcription_jobs WHERE visit_id = \(bind: visit)").first()
            #expect(try remaining?.decode(column: "n", as: Int.self) == 0)
        }
    }
}
