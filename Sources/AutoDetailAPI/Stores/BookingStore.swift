import AppCore
import Fluent
import Foundation
import PostgresNIO
import SQLKit

/// Every statement on `ad_appointments` (contract §3.3), on both engines: the reads of the client API, the console
/// and the studio calendar, each one statement (an appointment comes with its photos through a join, never a second
/// query), and the writes of the booking transaction and of status changes.
struct BookingStore: Sendable {
    let db: any Database

    static let rowDecoding = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)
    private static let photoDecoding = SQLRowDecoder(prefix: "photo_", keyDecodingStrategy: .convertFromSnakeCase)

    // MARK: Reads

    /// One appointment with its photos, if `scope` lets the caller see it (§2.8: otherwise it does not exist for
    /// the caller). One statement.
    func appointment(_ id: UUID, scope: AppointmentScope) async throws -> AppointmentWithPhotos? {
        let rows = try await db.sql.raw("""
            SELECT \(unsafeRaw: AppointmentRow.columns), \(unsafeRaw: PhotoRow.prefixedColumns)
            FROM ad_appointments a LEFT JOIN ad_photos p ON p.appointment_id = a.id
            WHERE a.id = \(bind: id)\(Self.condition(scope))
            ORDER BY p.position, p.id
            """).all()
        return try Self.grouped(rows).first
    }

    /// A page of appointments with their photos and the number matching `filter` before paging (§1.8), in one
    /// statement (a window count in a CTE joined to the photos); a second one only when the page is empty and the
    /// offset is not 0, to count.
    func page(_ filter: AppointmentFilter, ascending: Bool, limit: Int, offset: Int) async throws
        -> (items: [AppointmentWithPhotos], total: Int)
    {
        let conditions = filter.conditions(engine: db.engine)
        let whereClause: SQLQueryString = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let direction: SQLQueryString = ascending ? "ASC" : "DESC"
        let rows = try await db.sql.raw("""
            WITH page AS (
                SELECT \(unsafeRaw: AppointmentRow.columns), COUNT(*) OVER () AS total_count
                FROM ad_appointments a\(whereClause)
                ORDER BY a.start_at \(direction), a.id ASC
                LIMIT \(bind: limit) OFFSET \(bind: offset)
            )
            SELECT \(unsafeRaw: AppointmentRow.columns), a.total_count, \(unsafeRaw: PhotoRow.prefixedColumns)
            FROM page a LEFT JOIN ad_photos p ON p.appointment_id = a.id
            ORDER BY a.start_at \(direction), a.id ASC, p.position, p.id
            """).all()
        if let first = rows.first {
            let total = try first.decode(model: PageTotal.self, with: Self.rowDecoding).totalCount
            return (try Self.grouped(rows), total)
        }
        guard offset > 0 else { return ([], 0) }
        let count = try await db.sql.raw("SELECT COUNT(*) AS total_count FROM ad_appointments a\(whereClause)")
            .first(decoding: PageTotal.self, with: Self.rowDecoding)
        return ([], count?.totalCount ?? 0)
    }

    /// The studio calendar (console): every appointment overlapping `[from, to)` with its service (current name,
    /// duration, whether still offered) and its customer (the app installation, if booked from the app), ordered by
    /// start then id. Cancelled appointments only when asked for. One statement, no photos.
    func calendar(from: Date, to: Date, includeCancelled: Bool = false) async throws -> [CalendarEntry] {
        let cancelled: SQLQueryString = includeCancelled ? "" : " AND a.status <> 'cancelled'"
        let rows = try await db.sql.raw("""
            SELECT \(unsafeRaw: AppointmentRow.columns),
                s.name AS service_name_now, s.duration_minutes AS service_duration_minutes, s.active AS service_active,
                c.name AS customer_name, c.phone AS customer_phone, c.priority AS customer_priority
            FROM ad_appointments a
            JOIN ad_services s ON s.id = a.service_id
            LEFT JOIN ad_install_profiles c ON c.id = a.install_id
            WHERE a.start_at < \(bind: to) AND a.end_at > \(bind: from)\(cancelled)
            ORDER BY a.start_at, a.id
            """).all()
        return try rows.map { row in
            CalendarEntry(
                appointment: try row.decode(model: AppointmentRow.self, with: Self.rowDecoding),
                service: try row.decode(model: CalendarEntry.Service.self, with: Self.rowDecoding),
                customer: try row.decode(model: CalendarEntry.Customer.self, with: Self.rowDecoding))
        }
    }

    /// Everything `GET /api/client/availability` needs for one studio-local day, in one statement: the settings,
    /// the active service's duration, and the `[start, end)` of every non-cancelled appointment overlapping the UTC
    /// span that contains that local day in every time zone (UTC−12 … UTC+14, with an hour to spare). Appointments
    /// outside the day's slots do not change `Occupancy.remaining`, so the wider span is harmless; it lets the query
    /// run before the zone is known. Nil when the service does not exist or is inactive.
    func availabilityInputs(serviceID: UUID, day: CalendarDay) async throws -> AvailabilityInputs? {
        let midnightUTC = LocalDay.start(of: day, in: TimeZone.utc)
        let from = midnightUTC.addingTimeInterval(-15 * 3600)
        let to = midnightUTC.addingTimeInterval((24 + 13) * 3600)
        var rows = try await db.preparedRows(AvailabilityOfDay(serviceID: serviceID, from: from, to: to))
        if rows == nil { rows = try await db.sql.raw("""
            SELECT \(unsafeRaw: SettingsRow.columns), s.duration_minutes AS service_duration_minutes,
                a.start_at AS booked_start_at, a.end_at AS booked_end_at
            FROM ad_studio_settings st
            JOIN ad_services s ON s.id = \(bind: serviceID) AND s.active = \(bind: true)
            LEFT JOIN ad_appointments a ON a.status <> 'cancelled' AND a.start_at < \(bind: to) AND a.end_at > \(bind: from)
            WHERE st.id = 1
            """).all() }
        guard let rows, let first = rows.first else { return nil }
        let settings = try first.decode(model: SettingsRow.self, with: Self.rowDecoding).settings
        let service = try first.decode(model: AvailabilityService.self, with: Self.rowDecoding)
        let occupied = try rows.compactMap { row -> Range<Date>? in
            let booked = try row.decode(model: BookedInterval.self, with: Self.rowDecoding)
            guard let start = booked.bookedStartAt, let end = booked.bookedEndAt else { return nil }
            return start..<end
        }
        return AvailabilityInputs(settings: settings, durationMinutes: service.serviceDurationMinutes, occupied: occupied)
    }

    /// `availabilityInputs` prepared on PostgreSQL: `$1` the service, `$2` and `$3` the span.
    private struct AvailabilityOfDay: PreparedRead {
        static let sql = """
            SELECT \(SettingsRow.columns), s.duration_minutes AS service_duration_minutes,
                a.start_at AS booked_start_at, a.end_at AS booked_end_at
            FROM ad_studio_settings st
            JOIN ad_services s ON s.id = $1 AND s.active
            LEFT JOIN ad_appointments a ON a.status <> 'cancelled' AND a.start_at < $3 AND a.end_at > $2
            WHERE st.id = 1
            """
        let serviceID: UUID
        let from: Date
        let to: Date
        func makeBindings() -> PostgresBindings { PostgresBindings(values: serviceID, from, to) }
    }

    /// `[start, end)` of every non-cancelled appointment overlapping `[from, to)` (rule 7); inside the booking
    /// transaction, after the lock.
    func occupiedIntervals(from: Date, to: Date) async throws -> [Range<Date>] {
        var booked = try await db.prepared(
            OccupiedBetween(from: from, to: to), decoding: BookedInterval.self, with: Self.rowDecoding)
        if booked == nil { booked = try await db.sql.raw("""
            SELECT start_at AS booked_start_at, end_at AS booked_end_at FROM ad_appointments
            WHERE status <> 'cancelled' AND start_at < \(bind: to) AND end_at > \(bind: from)
            """).all(decoding: BookedInterval.self, with: Self.rowDecoding) }
        return (booked ?? []).compactMap { booked in
            guard let start = booked.bookedStartAt, let end = booked.bookedEndAt else { return nil }
            return start..<end
        }
    }

    /// `occupiedIntervals` prepared on PostgreSQL: `$1` and `$2` the span.
    private struct OccupiedBetween: PreparedRead {
        static let sql = """
            SELECT start_at AS booked_start_at, end_at AS booked_end_at FROM ad_appointments
            WHERE status <> 'cancelled' AND start_at < $2 AND end_at > $1
            """
        let from: Date
        let to: Date
        func makeBindings() -> PostgresBindings { PostgresBindings(values: from, to) }
    }

    /// The status of an appointment, locking its row for the rest of the transaction on PostgreSQL (SQLite: the
    /// transaction holds the write lock already). Nil when it does not exist.
    func lockedStatus(_ id: UUID) async throws -> AppointmentStatus? {
        let lock = db.engine == .postgres ? " FOR UPDATE" : ""
        return try await db.sql.raw("SELECT status FROM ad_appointments WHERE id = \(bind: id)\(unsafeRaw: lock)")
            .first(decoding: StatusColumn.self, with: Self.rowDecoding)
            .map { AppointmentStatus(rawValue: $0.status) ?? .new }
    }

    /// Whether an appointment exists (console paths that only need the 404).
    func exists(_ id: UUID) async throws -> Bool {
        try await db.sql.raw("SELECT status FROM ad_appointments WHERE id = \(bind: id)")
            .first(decoding: StatusColumn.self, with: Self.rowDecoding) != nil
    }

    // MARK: Writes

    /// Inserts a validated booking for `slot` and returns the stored row (one statement, `RETURNING`). Only the
    /// booking transaction calls this, under the booking lock.
    func insert(_ d: BookingDraft, id: UUID, slot: GridSlot, now: Date) async throws -> AppointmentRow {
        let search = AppointmentRow.searchText(
            clientName: d.clientName, carPlate: d.carPlate, phone: d.phone, serviceName: d.serviceName)
        var rows = try await db.prepared(
            InsertBooking(draft: d, id: id, slot: slot, searchText: search, now: now), decoding: AppointmentRow.self,
            with: Self.rowDecoding)
        if rows == nil { rows = try await db.sql.raw("""
            INSERT INTO ad_appointments (id, source, status, start_at, end_at, client_name, phone, telegram, car_make,
                car_plate, service_id, service_name, price_rub, notes, install_id, created_by_key_id, search_text,
                created_at, updated_at)
            VALUES (\(bind: id), \(bind: d.source.rawValue), \(bind: d.status.rawValue), \(bind: slot.start),
                \(bind: slot.end), \(bind: d.clientName), \(bind: d.phone), \(bind: d.telegram), \(bind: d.carMake),
                \(bind: d.carPlate), \(bind: d.serviceID), \(bind: d.serviceName), \(bind: d.priceRub), \(bind: d.notes),
                \(bind: d.installID), \(bind: d.createdByKeyID), \(bind: search), \(bind: now), \(bind: now))
            RETURNING \(unsafeRaw: AppointmentRow.bareColumns)
            """).all(decoding: AppointmentRow.self, with: Self.rowDecoding) }
        guard let row = rows?.first else { throw APIError(.internalServerError, "Internal server error") }
        return row
    }

    /// `insert` prepared on PostgreSQL, the parameters in the column order.
    private struct InsertBooking: PreparedRead {
        static let sql = """
            INSERT INTO ad_appointments (id, source, status, start_at, end_at, client_name, phone, telegram, car_make,
                car_plate, service_id, service_name, price_rub, notes, install_id, created_by_key_id, search_text,
                created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18)
            RETURNING \(AppointmentRow.bareColumns)
            """
        let draft: BookingDraft
        let id: UUID
        let slot: GridSlot
        let searchText: String
        let now: Date

        func makeBindings() -> PostgresBindings {
            let d = draft
            var bindings = PostgresBindings(values:
                id, d.source.rawValue, d.status.rawValue, slot.start, slot.end, d.clientName)
            for text in [d.phone, d.telegram, d.carMake, d.carPlate] { bindings.append(orNull: text) }
            bindings.append(d.serviceID)
            bindings.append(d.serviceName)
            bindings.append(d.priceRub)
            bindings.append(orNull: d.notes)
            bindings.append(orNull: d.installID)
            bindings.append(orNull: d.createdByKeyID)
            bindings.append(searchText)
            bindings.append(now)
            return bindings
        }
    }

    /// Sets status and notes only if the row still has `expected` status (a conditional write, so concurrent
    /// changes cannot both win). False when the status had changed or the row is gone.
    func update(_ id: UUID, expected: AppointmentStatus, status: AppointmentStatus, notes: String?, now: Date)
        async throws -> Bool
    {
        try await !db.sql.raw("""
            UPDATE ad_appointments SET status = \(bind: status.rawValue), notes = \(bind: notes), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND status = \(bind: expected.rawValue)
            RETURNING status
            """).all().isEmpty
    }

    /// A status change applied only if the row still has `from` (see `update`).
    func changeStatus(_ id: UUID, from: AppointmentStatus, to: AppointmentStatus, now: Date) async throws -> Bool {
        try await !db.sql.raw("""
            UPDATE ad_appointments SET status = \(bind: to.rawValue), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND status = \(bind: from.rawValue)
            RETURNING status
            """).all().isEmpty
    }

    /// Bumps `updatedAt` (photos linked or removed).
    func touch(_ id: UUID, now: Date) async throws {
        try await db.sql.raw("UPDATE ad_appointments SET updated_at = \(bind: now) WHERE id = \(bind: id)").run()
    }

    /// Appointments of a deleted install keep existing with `installId = null` (§4.7.5).
    func detachInstall(_ installID: UUID) async throws {
        try await db.sql.raw("UPDATE ad_appointments SET install_id = NULL WHERE install_id = \(bind: installID)").run()
    }

    // MARK: Row handling

    static func condition(_ scope: AppointmentScope) -> SQLQueryString {
        switch scope {
        case .everything: ""
        case .createdBy(let keyID): " AND a.created_by_key_id = \(bind: keyID)"
        }
    }

    /// Rows of appointments LEFT JOINed to their photos, in appointment order: each appointment decoded once, at its
    /// first row, and its photos collected from its consecutive rows.
    static func grouped(_ rows: [any SQLRow]) throws -> [AppointmentWithPhotos] {
        var result: [AppointmentWithPhotos] = []
        for row in rows {
            let id = try row.decode(model: IDColumn.self, with: rowDecoding).id
            if result.last?.appointment.id != id {
                result.append(AppointmentWithPhotos(
                    appointment: try row.decode(model: AppointmentRow.self, with: rowDecoding), photos: []))
            }
            if let photo = try row.decode(model: JoinedPhotoColumns.self, with: photoDecoding).photo {
                result[result.count - 1].photos.append(photo)
            }
        }
        return result
    }

    private struct IDColumn: Decodable { let id: UUID }
    private struct StatusColumn: Decodable { let status: String }
    private struct PageTotal: Decodable { let totalCount: Int }
    private struct AvailabilityService: Decodable { let serviceDurationMinutes: Int }
    private struct BookedInterval: Decodable {
        let bookedStartAt: Date?
        let bookedEndAt: Date?
    }
}

/// What the availability computation needs (see `BookingStore.availabilityInputs`).
struct AvailabilityInputs: Sendable {
    let settings: StudioSettings
    let durationMinutes: Int
    let occupied: [Range<Date>]
}

/// One appointment of the studio calendar with its service and customer (`BookingStore.calendar`).
struct CalendarEntry: Sendable {
    struct Service: Decodable, Sendable {
        /// The service's current name (the appointment keeps the name it was booked with in `serviceName`).
        let serviceNameNow: String
        let serviceDurationMinutes: Int
        let serviceActive: Bool
    }

    /// The app installation that booked it; all nil for bookings through an organisation key or the console.
    struct Customer: Decodable, Sendable {
        let customerName: String?
        let customerPhone: String?
        let customerPriority: String?
    }

    let appointment: AppointmentRow
    let service: Service
    let customer: Customer
}

/// The filters of the appointment lists (client §4.4.2, console §4.7.4), turned into SQL conditions on alias `a`.
struct AppointmentFilter: Sendable {
    var scope: AppointmentScope = .everything
    var status: String?
    var phone: String?
    var startFrom: Date?
    var startBefore: Date?
    var installID: UUID?
    /// Lower-cased text matched against `search_text` (client name, plate, phone and service name, lower-cased in
    /// Swift, so the match is Unicode-aware on both engines).
    var search: String?

    func conditions(engine: DatabaseEngine) -> [SQLQueryString] {
        var c: [SQLQueryString] = []
        if case .createdBy(let keyID) = scope { c.append("a.created_by_key_id = \(bind: keyID)") }
        if let status { c.append("a.status = \(bind: status)") }
        if let phone { c.append("a.phone = \(bind: phone)") }
        if let startFrom { c.append("a.start_at >= \(bind: startFrom)") }
        if let startBefore { c.append("a.start_at < \(bind: startBefore)") }
        if let installID { c.append("a.install_id = \(bind: installID)") }
        if let search {
            let function = engine == .postgres ? "strpos" : "instr"
            c.append("\(unsafeRaw: function)(a.search_text, \(bind: search)) > 0")
        }
        return c
    }
}
