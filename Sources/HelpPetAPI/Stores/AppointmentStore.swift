import AppCore
import Fluent
import Foundation
import PostgresNIO
import SQLKit

/// Every SQL statement of the appointments aggregate (appointments and their pets). Each read is one statement
///: the appointment joined to its pets and their recordings, scoped to the caller inside the SQL.
struct AppointmentStore: Sendable {
    let db: any Database

    /// The columns of `AppointmentPetRow`: `a` appointments, `ap` its pet links, `p` the pets, `v` their visits.
    private static let columns: SQLQueryString = "\(unsafeRaw: columnsText)"

    private static let columnsText = """
        a.id, a.practice_id, a.pet_owner_id, a.assigned_vet_user_id, a.appointment_date, a.duration_minutes,
        a.appointment_type, a.status, a.title, a.description, a.notes, a.created_at, a.updated_at,
        p.id AS pet_id, p.name AS pet_name, p.species AS pet_species, p.breed AS pet_breed,
        v.id AS visit_id, v.state AS visit_state
        """

    /// The joins behind `columns`. A pending reservation is not a recording yet (contract §4.10); at most one visit
    /// exists per (appointment, pet) (`visits_one_per_appointment_pet`).
    private func joins() -> SQLQueryString { "\(unsafeRaw: Self.joins(engine: db.engine))" }

    private static func joins(engine: DatabaseEngine) -> String {
        """
        LEFT JOIN appointment_pets ap ON ap.appointment_id = a.id
        LEFT JOIN pets p ON p.id = ap.pet_id
        LEFT JOIN visits v ON v.appointment_id = ap.appointment_id AND v.pet_id = ap.pet_id
            AND \(VisitFilters.notPendingSQL(engine: engine, table: "v"))
        """
    }

    /// `GET /appointments/{id}`: nil when it does not exist or the caller may not see it.
    func appointment(_ id: UUID, for caller: Caller) async throws -> AppointmentResponse? {
        if let rows = try await db.prepared(
            AppointmentByID(id: id, reach: BoundReach(caller)), decoding: AppointmentPetRow.self)
        {
            return AppointmentResponse.grouping(rows).first
        }
        let rows = try await db.sql.raw("""
            SELECT \(Self.columns) FROM appointments a \(joins())
            WHERE a.id = \(bind: id) AND \(CallerScope.appointment("a", caller: caller))
            ORDER BY ap.position
            """).all(decoding: AppointmentPetRow.self)
        return AppointmentResponse.grouping(rows).first
    }

    /// `appointment(_:for:)` prepared on PostgreSQL.
    private struct AppointmentByID: ScopedByID {
        static let sql = """
            SELECT \(AppointmentStore.columnsText) FROM appointments a \(AppointmentStore.joins(engine: .postgres))
            WHERE a.id = $1 AND \(BoundReach.appointment("a", kind: 2))
            ORDER BY ap.position
            """
        let id: UUID
        let reach: BoundReach
    }

    /// The representations of already loaded appointments (lists), in their order, with one statement.
    func responses(for ids: [UUID]) async throws -> [AppointmentResponse] {
        guard !ids.isEmpty else { return [] }
        let rows = try await db.sql.raw("""
            SELECT \(Self.columns) FROM appointments a \(joins())
            WHERE a.id IN (\(binds: ids))
            ORDER BY a.id, ap.position
            """).all(decoding: AppointmentPetRow.self)
        let byID = Dictionary(uniqueKeysWithValues: AppointmentResponse.grouping(rows).map { ($0.id, $0) })
        return ids.compactMap { byID[$0.lowercased] }
    }

    /// A vet's day in one statement: their appointments in the practice within `window` (by start, then id) and
    /// their active availability windows overlapping it (half-open, by start, then id). The two lists travel as one
    /// `UNION ALL` told apart by `kind`; each row is decoded once, into the type of its kind.
    func vetDay(
        vet vetID: UUID, practice practiceID: UUID, window: Range<Date>
    ) async throws -> VetDayRows {
        var rows = try await db.preparedRows(
            VetDay(vetID: vetID, practiceID: practiceID, from: window.lowerBound, until: window.upperBound))
        if rows == nil { rows = try await db.sql.raw("""
            SELECT 'a' AS kind, \(Self.columns), ap.position AS position,
                NULL AS availability_id, NULL AS start_at, NULL AS end_at, NULL AS availability_type,
                NULL AS availability_notes, NULL AS availability_created_at, NULL AS availability_updated_at
            FROM appointments a \(joins())
            WHERE a.assigned_vet_user_id = \(bind: vetID) AND a.practice_id = \(bind: practiceID)
                AND a.appointment_date >= \(bind: window.lowerBound) AND a.appointment_date < \(bind: window.upperBound)
            UNION ALL
            SELECT 'w', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                w.id, w.start_at, w.end_at, w.availability_type, w.notes, w.created_at, w.updated_at
            FROM vet_availability w
            WHERE w.vet_user_id = \(bind: vetID) AND w.practice_id = \(bind: practiceID) AND w.is_active = \(bind: true)
                AND w.start_at < \(bind: window.upperBound) AND w.end_at > \(bind: window.lowerBound)
            ORDER BY 1, 6, 2, 21, 23, 22
            """).all() }
        var appointments: [AppointmentPetRow] = []
        var windows: [AvailabilityWindowRow] = []
        for row in rows ?? [] {
            if try row.decode(column: "kind", as: String.self) == "a" {
                appointments.append(try row.decode(model: AppointmentPetRow.self))
            } else {
                windows.append(try row.decode(model: AvailabilityWindowRow.self))
            }
        }
        return VetDayRows(appointments: AppointmentResponse.grouping(appointments), windows: windows)
    }

    /// `vetDay` prepared on PostgreSQL: `$1` the vet, `$2` the practice, `$3` and `$4` the window.
    private struct VetDay: PreparedRead {
        static let sql = """
            SELECT 'a' AS kind, \(AppointmentStore.columnsText), ap.position AS position,
                NULL AS availability_id, NULL AS start_at, NULL AS end_at, NULL AS availability_type,
                NULL AS availability_notes, NULL AS availability_created_at, NULL AS availability_updated_at
            FROM appointments a \(AppointmentStore.joins(engine: .postgres))
            WHERE a.assigned_vet_user_id = $1 AND a.practice_id = $2
                AND a.appointment_date >= $3 AND a.appointment_date < $4
            UNION ALL
            SELECT 'w', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                w.id, w.start_at, w.end_at, w.availability_type, w.notes, w.created_at, w.updated_at
            FROM vet_availability w
            WHERE w.vet_user_id = $1 AND w.practice_id = $2 AND w.is_active
                AND w.start_at < $4 AND w.end_at > $3
            ORDER BY 1, 6, 2, 21, 23, 22
            """
        static let bindingDataTypes: [PostgresDataType] = [.uuid, .uuid, .timestamptz, .timestamptz]
        let vetID: UUID
        let practiceID: UUID
        let from: Date
        let until: Date

        func makeBindings() -> PostgresBindings { PostgresBindings(values: vetID, practiceID, from, until) }
    }
}

/// A row lock taken inside a write transaction on PostgreSQL; SQLite's `BEGIN IMMEDIATE` already holds the
/// database's single write lock, so there it is nothing.
enum RowLock: String {
    case forUpdate = "FOR UPDATE"
    case forShare = "FOR SHARE"
}

extension AppointmentStore {
    /// The appointment row as a model, whoever may see it (the caller checked access before).
    func model(_ id: UUID) async throws -> Appointment? {
        try await Appointment.find(id, on: db)
    }

    /// Locks the appointment's row until the transaction ends, on PostgreSQL; on SQLite the write transaction
    /// already holds the database's write lock.
    func lock(_ id: UUID, _ mode: RowLock) async throws {
        guard db.engine == .postgres else { return }
        _ = try await db.sql.raw("SELECT id FROM appointments WHERE id = \(bind: id) \(unsafeRaw: mode.rawValue)").all()
    }

    func deletePetLinks(of id: UUID, pets: [UUID]) async throws {
        try await db.sql.raw("""
            DELETE FROM appointment_pets WHERE appointment_id = \(bind: id) AND pet_id IN (\(binds: pets))
            """).run()
    }

    /// Moves every position of the appointment's pets to a negative value, so renumbering never collides with
    /// `(appointment_id, position)` (C8).
    func parkPetPositions(of id: UUID) async throws {
        try await db.sql.raw(
            "UPDATE appointment_pets SET position = -1 - position WHERE appointment_id = \(bind: id)").run()
    }

    func setPetPosition(_ position: Int, pet: UUID, of id: UUID) async throws {
        try await db.sql.raw("""
            UPDATE appointment_pets SET position = \(bind: position)
            WHERE appointment_id = \(bind: id) AND pet_id = \(bind: pet)
            """).run()
    }
}

extension AppointmentStore {
    /// The names of the appointment's pets, in the appointment's order.
    func petNames(of id: UUID) async throws -> [String] {
        try await db.sql.raw("""
            SELECT pets.name FROM appointment_pets JOIN pets ON pets.id = appointment_pets.pet_id
            WHERE appointment_pets.appointment_id = \(bind: id)
            ORDER BY appointment_pets.position
            """).all().map { try $0.decode(column: "name", as: String.self) }
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
