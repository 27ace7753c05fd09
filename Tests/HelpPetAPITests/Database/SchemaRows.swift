import AppCore
import Foundation
import SQLKit

/// Raw INSERT statements for the constraint tests, one per table, with every NOT NULL column filled so a statement
/// fails only for the rule under test. Defaults produce a valid row next to the demo data.
extension RawSQL {
    static let now = WireTime.truncated(Date())

    func user(
        id: UUID = UUID(), username: String, email: String, role: String = "ADMIN", practice: UUID? = nil
    ) -> SQLQueryString {
        """
        INSERT INTO users (id, username, email, full_name, role, practice_id, password_hash, is_active,
                           credentials_changed_at, created_at, updated_at)
        VALUES (\(bind: id), \(bind: username), \(bind: email), 'Test User', \(bind: role), \(bind: practice), 'x',
                \(bind: true), \(bind: Self.now), \(bind: Self.now), \(bind: Self.now))
        """
    }

    func practice(id: UUID = UUID(), name: String = "Other Clinic") -> SQLQueryString {
        """
        INSERT INTO practices (id, name, timezone, phone, email, address, is_active, created_at, updated_at)
        VALUES (\(bind: id), \(bind: name), 'UTC', NULL, NULL, NULL, \(bind: true), \(bind: Self.now), \(bind: Self.now))
        """
    }

    func owner(id: UUID = UUID(), user: UUID? = nil) -> SQLQueryString {
        """
        INSERT INTO pet_owners (id, first_name, last_name, email, phone, address, user_id, created_at, updated_at)
        VALUES (\(bind: id), 'Test', 'Owner', 'test.owner@example.com', NULL, NULL, \(bind: user), \(bind: Self.now),
                \(bind: Self.now))
        """
    }

    func ownerPractice(owner: UUID, practice: UUID) -> SQLQueryString {
        """
        INSERT INTO pet_owner_practices (pet_owner_id, practice_id, created_at)
        VALUES (\(bind: owner), \(bind: practice), \(bind: Self.now))
        """
    }

    func pet(id: UUID = UUID(), owner: UUID = Demo.owner(2), microchip: String? = nil) -> SQLQueryString {
        """
        INSERT INTO pets (id, owner_id, name, species, breed, color, gender, date_of_birth, weight, microchip_number,
                          allergies, is_active, registration_date, created_at, updated_at)
        VALUES (\(bind: id), \(bind: owner), 'Test Pet', 'dog', NULL, NULL, NULL, NULL, NULL, \(bind: microchip), NULL,
                \(bind: true), '2025-01-01', \(bind: Self.now), \(bind: Self.now))
        """
    }

    func appointment(
        id: UUID = UUID(), status: String = "scheduled", type: String = "checkup", minutes: Int = 30
    ) -> SQLQueryString {
        """
        INSERT INTO appointments (id, practice_id, pet_owner_id, assigned_vet_user_id, created_by_user_id,
                                  appointment_date, duration_minutes, appointment_type, status, title, description,
                                  notes, created_at, updated_at)
        VALUES (\(bind: id), \(bind: Demo.practiceID), \(bind: Demo.owner(1)), NULL, \(bind: Demo.admin.id),
                \(bind: Self.now), \(bind: minutes), \(bind: type), \(bind: status), 'Test', NULL, NULL, \(bind: Self.now),
                \(bind: Self.now))
        """
    }

    func appointmentPet(appointment: UUID, pet: UUID, position: Int) -> SQLQueryString {
        """
        INSERT INTO appointment_pets (appointment_id, pet_id, position)
        VALUES (\(bind: appointment), \(bind: pet), \(bind: position))
        """
    }

    func visit(
        id: UUID = UUID(), pet: UUID, appointment: UUID?, source: String = "recording", state: String = "new",
        recordingDay: String? = nil, storageKey: String? = nil, uploadMethod: String? = "presigned_post"
    ) -> SQLQueryString {
        """
        INSERT INTO visits (id, pet_id, practice_id, appointment_id, source, state, visit_date, recording_day, full_text,
                            summary, audio_transcript_url, storage_key, attempt, upload_method, upload_url_issued_at,
                            reserved_at, reconcile_after, metadata, created_by, created_at, updated_at)
        VALUES (\(bind: id), \(bind: pet), \(bind: Demo.practiceID), \(bind: appointment), \(bind: source),
                \(bind: state), \(bind: Self.now), \(bind: recordingDay), '', NULL, NULL, \(bind: storageKey), NULL,
                \(bind: uploadMethod), NULL, NULL, NULL, \(unsafeRaw: emptyObject), \(bind: Demo.vet1.id), \(bind: Self.now),
                \(bind: Self.now))
        """
    }

    func record(
        id: UUID = UUID(), original: UUID, version: Int, current: Bool, pet: UUID = Demo.pet(1)
    ) -> SQLQueryString {
        """
        INSERT INTO medical_records (id, original_id, version, is_current, pet_id, practice_id, record_type, title,
                                     description, diagnosis, treatment_plan, medications, notes, follow_up_date,
                                     created_by, created_at, updated_at)
        VALUES (\(bind: id), \(bind: original), \(bind: version), \(bind: current), \(bind: pet), \(bind: Demo.practiceID),
                'checkup', 'Test', NULL, NULL, NULL, \(unsafeRaw: emptyList), NULL, NULL, \(bind: Demo.vet1.id), \(bind: Self.now),
                \(bind: Self.now))
        """
    }

    func job(id: UUID = UUID(), visit: UUID, storageKey: String, status: String = "queued") -> SQLQueryString {
        """
        INSERT INTO transcription_jobs (id, visit_id, storage_key, status, attempts, available_at, lease_owner,
                                        lease_expires_at, last_error, created_at, updated_at)
        VALUES (\(bind: id), \(bind: visit), \(bind: storageKey), \(bind: status), 0, \(bind: Self.now), NULL, NULL, NULL,
                \(bind: Self.now), \(bind: Self.now))
        """
    }
}
