import AppCore
import Fluent
import Foundation
import PostgresNIO
import SQLKit

/// The clinic console's schedule reads: a practice's appointments in a window with owners, vets, pets and each
/// pet's recording, in one statement.
struct BoardStore: Sendable {
    let db: any Database

    struct Row: Decodable, Sendable {
        let id: UUID
        let appointmentDate: Date
        let durationMinutes: Int
        let status: String
        let title: String
        let appointmentType: String
        let assignedVetUserID: UUID?
        let ownerID: UUID
        let ownerFirstName: String
        let ownerLastName: String
        let vetName: String?
        let petID: UUID?
        let petName: String?
        let petSpecies: String?
        let visitID: UUID?
        let visitState: String?
        let visitSource: String?

        enum CodingKeys: String, CodingKey {
            case id
            case appointmentDate = "appointment_date"
            case durationMinutes = "duration_minutes"
            case status, title
            case appointmentType = "appointment_type"
            case assignedVetUserID = "assigned_vet_user_id"
            case ownerID = "owner_id"
            case ownerFirstName = "owner_first_name"
            case ownerLastName = "owner_last_name"
            case vetName = "vet_name"
            case petID = "pet_id"
            case petName = "pet_name"
            case petSpecies = "pet_species"
            case visitID = "visit_id"
            case visitState = "visit_state"
            case visitSource = "visit_source"
        }
    }

    func appointments(practice practiceID: UUID, window: Range<Date>) async throws -> [Row] {
        try await db.sql.raw("""
            SELECT a.id, a.appointment_date, a.duration_minutes, a.status, a.title, a.appointment_type,
                a.assigned_vet_user_id, o.id AS owner_id, o.first_name AS owner_first_name,
                o.last_name AS owner_last_name, u.full_name AS vet_name,
                p.id AS pet_id, p.name AS pet_name, p.species AS pet_species,
                v.id AS visit_id, v.state AS visit_state, v.source AS visit_source
            FROM appointments a
            JOIN pet_owners o ON o.id = a.pet_owner_id
            LEFT JOIN users u ON u.id = a.assigned_vet_user_id
            LEFT JOIN appointment_pets ap ON ap.appointment_id = a.id
            LEFT JOIN pets p ON p.id = ap.pet_id
            LEFT JOIN visits v ON v.appointment_id = a.id AND v.pet_id = ap.pet_id
            WHERE a.practice_id = \(bind: practiceID)
                AND a.appointment_date >= \(bind: window.lowerBound) AND a.appointment_date < \(bind: window.upperBound)
            ORDER BY a.appointment_date, a.id, ap.position
            """).all(decoding: Row.self)
    }

    struct VersionRow: Decodable, Sendable {
        let appointments: Int
        let appointmentsChanged: Date?
        let visits: Int
        let visitsChanged: Date?
        let ownersChanged: Date?
        let vets: Int
        let vetsChanged: Date?

        enum CodingKeys: String, CodingKey {
            case appointments
            case appointmentsChanged = "appointments_changed"
            case visits
            case visitsChanged = "visits_changed"
            case ownersChanged = "owners_changed"
            case vets
            case vetsChanged = "vets_changed"
        }
    }

    /// A stamp of everything the board of `window` shows, in one small statement: it changes whenever an
    /// appointment, a pet link (which touches its appointment), a recording, an owner or a vet of the board changes
    /// (or one is added or removed), so an unchanged board can answer a poll with 304 without reading its rows.
    /// Timestamps are whole seconds, so two changes within one second could share a stamp: while anything changed
    /// in the last two seconds (`now`), the stamp also carries the current second and so changes at every poll.
    func version(
        practice practiceID: UUID, window: Range<Date>, now: Date
    ) async throws -> String {
        let prepared = try await db.prepared(
            BoardVersion(practiceID: practiceID, from: window.lowerBound, until: window.upperBound),
            decoding: VersionRow.self)
        var row = prepared?.first
        if prepared == nil {
            row = try await db.sql.raw("""
                WITH day AS (SELECT a.id, a.updated_at, a.pet_owner_id FROM appointments a
                        WHERE \(Self.day(practiceID, window))),
                    staff AS (SELECT updated_at FROM users WHERE practice_id = \(bind: practiceID))
                \(unsafeRaw: Self.versionAggregates)
                """).first(decoding: VersionRow.self)
        }
        guard let row else { return "" }
        func stamp(_ date: Date?) -> String { date.map { String($0.timeIntervalSince1970) } ?? "-" }
        let changes = [row.appointmentsChanged, row.visitsChanged, row.ownersChanged, row.vetsChanged]
        // A stamp in the future (another node's clock, imported data) does not keep the board busy for ever.
        let recent = changes.contains { change in
            guard let change else { return false }
            return abs(change.timeIntervalSince(now)) <= 2
        }
        return [String(row.appointments), stamp(row.appointmentsChanged), String(row.visits), stamp(row.visitsChanged),
                stamp(row.ownersChanged), String(row.vets), stamp(row.vetsChanged),
                recent ? String(Int(now.timeIntervalSince1970)) : "settled"].joined(separator: "|")
    }

    /// The stamp's counts and latest changes over `day` (the board's appointments) and `staff` (the practice's
    /// users), one pass over each: the day's appointments are read once, their visits and owners by index.
    private static let versionAggregates = """
        SELECT d.appointments, d.appointments_changed, d.owners_changed, vv.visits, vv.visits_changed,
            s.vets, s.vets_changed
        FROM (SELECT COUNT(*) AS appointments, MAX(updated_at) AS appointments_changed,
                MAX((SELECT o.updated_at FROM pet_owners o WHERE o.id = day.pet_owner_id)) AS owners_changed
            FROM day) d
        CROSS JOIN (SELECT COUNT(*) AS visits, MAX(v.updated_at) AS visits_changed
            FROM visits v JOIN day ON day.id = v.appointment_id) vv
        CROSS JOIN (SELECT COUNT(*) AS vets, MAX(updated_at) AS vets_changed FROM staff) s
        """

    /// `version` prepared on PostgreSQL: `$1` the practice, `$2` and `$3` the window. Every poll of every open board
    /// runs it, most of them answered 304.
    private struct BoardVersion: PreparedRead {
        static let sql = """
            WITH day AS (SELECT a.id, a.updated_at, a.pet_owner_id FROM appointments a
                    WHERE a.practice_id = $1 AND a.appointment_date >= $2 AND a.appointment_date < $3),
                staff AS (SELECT updated_at FROM users WHERE practice_id = $1)
            \(BoardStore.versionAggregates)
            """
        static let bindingDataTypes: [PostgresDataType] = [.uuid, .timestamptz, .timestamptz]
        let practiceID: UUID
        let from: Date
        let until: Date

        func makeBindings() -> PostgresBindings { PostgresBindings(values: practiceID, from, until) }
    }

    private static func day(_ practiceID: UUID, _ window: Range<Date>) -> SQLQueryString {
        """
        a.practice_id = \(bind: practiceID) AND a.appointment_date >= \(bind: window.lowerBound)
            AND a.appointment_date < \(bind: window.upperBound)
        """
    }

    struct VetRow: Decodable, Sendable {
        let id: UUID
        let fullName: String

        enum CodingKeys: String, CodingKey {
            case id
            case fullName = "full_name"
        }
    }

    /// The practice's active vets (lanes of the board and columns' owners on the week calendar).
    func vets(practice practiceID: UUID) async throws -> [VetRow] {
        try await db.sql.raw("""
            SELECT id, full_name FROM users
            WHERE practice_id = \(bind: practiceID) AND is_active = \(bind: true)
            AND role IN (\(bind: UserRole.vet.rawValue), \(bind: UserRole.vetStaff.rawValue))
            ORDER BY full_name, id
            """).all(decoding: VetRow.self)
    }

    struct PracticeRow: Decodable, Sendable {
        let id: UUID
        let name: String
        let timezone: String
    }

    func practices() async throws -> [PracticeRow] {
        try await db.sql.raw("SELECT id, name, timezone FROM practices ORDER BY name, id").all(decoding: PracticeRow.self)
    }

    func practice(_ id: UUID) async throws -> PracticeRow? {
        try await db.sql.raw("SELECT id, name, timezone FROM practices WHERE id = \(bind: id)").first(decoding: PracticeRow.self)
    }
}
